package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// create_game without players asks the user for them, as monopoly-mcp
// does, when the client declares form elicitation: a form with the
// user's token, how many opponents, their bot and a seed. A client that
// cannot show forms is told to give players.

// needInput is a handler's request for the client's input: the tool's
// result asks for it (or, for a client of an older protocol, the SDK
// asks it directly), and the call comes again with the answers.
type needInput struct{ requests mcp.InputRequestMap }

func (needInput) Error() string { return "the client's input is needed" }

// elicitPlayers asks the user of req's client for a table: the players
// (the user first, then the bots) and the seed given, if any.
func (s *Server) elicitPlayers(req *mcp.CallToolRequest) ([]playerSpec, *uint64, error) {
	missing := errors.New("players is missing: give 2 to 8 players, each {token, is_human: true} or {token, ai: {strategy}}")
	ss := req.Session
	if ss == nil {
		return nil, nil, missing
	}
	answer, asked := req.Params.InputResponses["players"]
	if !asked {
		init := ss.InitializeParams()
		if init == nil || init.Capabilities == nil || init.Capabilities.Elicitation == nil ||
			init.Capabilities.Elicitation.Form == nil && init.Capabilities.Elicitation.URL != nil {
			return nil, nil, missing
		}
		return nil, nil, needInput{mcp.InputRequestMap{"players": &mcp.ElicitParams{Mode: "form",
			Message: "Set up a game of Monopoly: your token, and the bots you play against.", RequestedSchema: playersForm()}}}
	}
	res, ok := answer.(*mcp.ElicitResult)
	if !ok {
		return nil, nil, errors.New(`inputResponses.players: want the answer to the form (elicitation)`)
	}
	if res.Action != "accept" {
		return nil, nil, fmt.Errorf("the user did not set up the game (%s); nothing was created", res.Action)
	}
	form, err := playersForm().Resolve(nil)
	if err != nil {
		return nil, nil, err
	}
	if err := form.Validate(res.Content); err != nil {
		return nil, nil, fmt.Errorf("the form's answer: %s", schemaError(err))
	}
	token := strings.TrimSpace(fmt.Sprint(res.Content["token"]))
	n, _ := res.Content["opponents"].(float64)
	strategy, _ := res.Content["strategy"].(string)
	players := []playerSpec{{Token: token, IsHuman: true}}
	for _, t := range classicTokens {
		if len(players) > int(n) {
			break
		}
		if !strings.EqualFold(t, token) {
			players = append(players, playerSpec{Token: t, AI: &aiSpec{Strategy: strategy}})
		}
	}
	var seed *uint64
	if v, ok := res.Content["seed"].(float64); ok && v < math.MaxUint64 && v == math.Trunc(v) {
		seed = jsonschema.Ptr(uint64(v))
	}
	return players, seed, nil
}

// playersForm is the form's schema: flat, of the kinds a client's form
// can show.
func playersForm() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: []string{"token", "opponents", "strategy"}, Properties: map[string]*jsonschema.Schema{
		"token": {Type: "string", Title: "Your token", Description: "your name at the table", Default: json.RawMessage(`"Battleship"`),
			MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(32)},
		"opponents": {Type: "integer", Title: "Opponents", Description: "how many bots you play against",
			Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(monopoly.MaxPlayers - 1)), Default: json.RawMessage(`3`)},
		"strategy": {Type: "string", Title: "Their bot", Enum: strs(agent.Names()...), Default: json.RawMessage(`"adaptive"`)},
		"seed":     {Type: "integer", Title: "Seed", Description: "the same seed and answers play the same game (leave empty for a random one)", Minimum: jsonschema.Ptr(0.0)},
	}}
}
