package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/wire"
)

func init() { features = append(features, (*Server).addGameTools) }

// maxAdvance bounds the bots' answers one advance_game plays when it is
// given no max_steps: a game of bots that never ends (rules without a
// round limit, bots that never go broke) comes back as ready, and the
// call returns, instead of playing on for ever.
const maxAdvance = 100_000

// classicTokens are the pieces monopoly-mcp's players are named after.
// Any distinct name will do; these are what list_tokens offers.
var classicTokens = []string{"Battleship", "Boot", "Car", "Cat", "Dog", "Hat", "Thimble", "Wheelbarrow"}

// Session states as monopoly-mcp names them.
const (
	statusReady     = "ready"            // bots to play: advance_game
	statusAwaiting  = "awaitingDecision" // a waiting seat must decide
	statusCompleted = "completed"        // the game is over
)

type (
	// playerSpec is one seat of create_game, as monopoly-mcp gives it.
	playerSpec struct {
		Token   string  `json:"token,omitempty"`
		IsHuman bool    `json:"is_human,omitempty"`
		AI      *aiSpec `json:"ai,omitempty"`
	}
	aiSpec struct {
		Strategy string          `json:"strategy,omitempty"`
		Seed     *uint64         `json:"seed,omitempty"`
		Params   json.RawMessage `json:"params,omitempty"`
	}

	createIn struct {
		Players   []playerSpec    `json:"players,omitempty"`
		Seed      *uint64         `json:"seed,omitempty"`
		ConfigID  string          `json:"config_id,omitempty"`
		Rules     json.RawMessage `json:"rules,omitempty"`
		MaxRounds *int            `json:"max_rounds,omitempty"`
	}

	// seatOut is a seat of a new game.
	seatOut struct {
		Seat      int    `json:"seat"`
		Token     string `json:"token" jsonschema:"the player's name at the table"`
		Kind      string `json:"kind" jsonschema:"bot, or mcp for a seat answered through submit_decision"`
		Strategy  string `json:"strategy,omitempty" jsonschema:"a bot seat's bot"`
		SeatToken string `json:"seat_token,omitempty" jsonschema:"the secret that answers for this seat: pass it as token to submit_decision and get_decision"`
	}

	gameOut struct {
		GameID   string    `json:"game_id"`
		Parent   string    `json:"parent,omitempty" jsonschema:"the game this one was forked from"`
		At       int       `json:"at" jsonschema:"the answers of the parent's log this game starts with (0 for a new game)"`
		Seed     uint64    `json:"seed"`
		ConfigID string    `json:"config_id,omitempty"`
		Players  []seatOut `json:"players"`
		State    progress  `json:"state"`
		Notes    []string  `json:"notes,omitempty"`
		// ResearchToken is the creator's: it deletes, forks and reads the
		// export of the game from any connection.
		ResearchToken string `json:"research_token" jsonschema:"the creator's secret: pass it as token to delete_game, fork_game, replay_game and advance_game, or to read game://{id}/export, from another connection"`
	}

	// seatRef names a seat.
	seatRef struct {
		Seat int    `json:"seat"`
		Name string `json:"name"`
		Kind string `json:"kind"`
	}

	// progress is where a game stands after a call.
	progress struct {
		GameID   string         `json:"game_id"`
		Status   string         `json:"status"`
		Round    int            `json:"round"`
		Turn     int            `json:"turn"`
		Entries  int            `json:"entries" jsonschema:"answers in the game's log; the pending decision is the one after them (submit_decision's entries)"`
		Played   int            `json:"played" jsonschema:"answers the bots played in this call"`
		Summary  string         `json:"summary"`
		Waiting  *seatRef       `json:"waiting,omitempty" jsonschema:"the seat that must decide"`
		Decision *wire.Decision `json:"decision,omitempty"`
		Question string         `json:"question,omitempty" jsonschema:"the decision in a sentence"`
		Legal    []legalPayload `json:"legal,omitempty" jsonschema:"the legal answers, when you hold the deciding seat's token"`
		Winner   *seatRef       `json:"winner,omitempty"`
		Next     string         `json:"next" jsonschema:"what to do next"`
	}

	gameIn struct {
		GameID string `json:"game_id"`
		Token  string `json:"token,omitempty" jsonschema:"the game's research_token, unless this connection created the game"`
	}

	advanceIn struct {
		GameID   string `json:"game_id"`
		MaxSteps int    `json:"max_steps,omitempty"`
		Token    string `json:"token,omitempty"`
	}

	submitIn struct {
		GameID   string          `json:"game_id"`
		Decision json.RawMessage `json:"decision"`
		Token    string          `json:"token,omitempty"`
		Entries  *int            `json:"entries,omitempty"`
		Speech   string          `json:"speech,omitempty"`
		Thought  string          `json:"thought,omitempty"`
	}

	appliedOut struct {
		Action   json.RawMessage `json:"action" jsonschema:"the answer as the engine took it, in gopoly action JSON"`
		Notation string          `json:"notation"`
		Dialect  string          `json:"dialect" jsonschema:"the form the decision came in"`
	}

	submitOut struct {
		Applied appliedOut `json:"applied"`
		progress
	}

	deletedOut struct {
		GameID  string `json:"game_id"`
		Deleted bool   `json:"deleted"`
	}

	replayIn struct {
		GameID string `json:"game_id"`
		Turn   int    `json:"turn"`
		Token  string `json:"token,omitempty" jsonschema:"the game's research_token, unless this connection created the game or the game's research view is open"`
	}

	forkIn struct {
		GameID  string       `json:"game_id"`
		At      *int         `json:"at,omitempty"`
		Players []playerSpec `json:"players,omitempty"`
		Token   string       `json:"token,omitempty"`
	}

	decisionIn struct {
		GameID string `json:"game_id"`
		Token  string `json:"token,omitempty"`
	}

	// decisionOut is get_decision's answer: everything a seat needs to
	// answer, in one call.
	decisionOut struct {
		GameID   string          `json:"game_id"`
		Seat     int             `json:"seat" jsonschema:"the asking seat; -1: a spectator"`
		YourTurn bool            `json:"your_turn"`
		Over     bool            `json:"over"`
		Entries  int             `json:"entries"`
		Decider  *seatRef        `json:"decider,omitempty"`
		Decision wire.Decision   `json:"decision"`
		Question string          `json:"question"`
		Legal    []legalPayload  `json:"legal"`
		Options  *wire.Options   `json:"options,omitempty"`
		Schema   json.RawMessage `json:"schema,omitempty" jsonschema:"the JSON Schema of a gopoly answer to this decision"`
		View     wire.Snapshot   `json:"view"`
		Board    string          `json:"board" jsonschema:"the view as text"`
	}

	tokensOut struct {
		Tokens     []string      `json:"tokens" jsonschema:"player names in monopoly-mcp's style; any distinct names will do"`
		Names      []string      `json:"names" jsonschema:"gopoly's default names by seat"`
		Strategies []strategyOut `json:"strategies" jsonschema:"the bots an ai seat may be"`
		Params     []string      `json:"params" jsonschema:"the knobs ai.params may set"`
	}
	strategyOut struct {
		Name string `json:"name"`
		Doc  string `json:"doc"`
	}

	readIn struct {
		URI   string `json:"uri"`
		Token string `json:"token,omitempty"`
	}
	readOut struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mime_type"`
		Text     string `json:"text"`
	}
)

// addGameTools adds the tools that play games.
func (s *Server) addGameTools() {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	addTool(s, &mcp.Tool{Name: "list_tokens", Title: "List player tokens and bots", Annotations: ro,
		Description: "The player names (tokens) create_game suggests, and the bots (ai.strategy) and knobs (ai.params) an ai seat may have."},
		nil, s.listTokens)
	addTool(s, &mcp.Tool{Name: "read_resource", Title: "Read a game:// resource", Annotations: ro,
		Description: "Reads any game:// resource (for clients that cannot read MCP resources): game://sessions, " +
			"game://{id}/state, game://{id}/legal-actions, game://{id}/board.svg, ... token, a seat token, reads a seat's view where it differs.",
		InputSchema: readSchema()}, nil, s.readResourceTool)
	addTool(s, &mcp.Tool{Name: "create_game", Title: "Create a game", Meta: appMeta(),
		Description: "Creates a game: 2 to 8 players, each {token, is_human: true} (answered through submit_decision) or " +
			"{token, ai: {strategy, params}} (a gopoly bot), with a seed, a saved config_id or rules overrides. Returns the game id " +
			"and a seat token for each human seat; then call advance_game.",
		InputSchema: createSchema()}, nil, s.createGame)
	addTool(s, &mcp.Tool{Name: "replay_game", Title: "Replay a game from a turn",
		Description: "Forks a new game from the start of turn N of a game (turn 0: the start; game://{id}/replay-turns lists them). " +
			"The source game is not changed."}, nil, s.replayGame)
	addTool(s, &mcp.Tool{Name: "advance_game", Title: "Advance a game", Meta: appMeta(),
		Description: "Plays the bots until a human seat must decide or the game ends (at most max_steps answers when given). " +
			"Returns the status (ready, awaitingDecision, completed), the decision, and its legal payloads when you hold the seat's token."},
		nil, s.advanceGame)
	addTool(s, &mcp.Tool{Name: "submit_decision", Title: "Answer the pending decision", Meta: appMeta(),
		Description: "Answers the pending decision for your seat and plays the bots on to the next one. decision is gopoly action JSON " +
			`({"kind":"buy"}), a monopoly-mcp payload ({"kind":"purchaseProperty","buy":true}), either as a JSON-encoded string, or a move ` +
			`in gopoly's notation ("bid 120"). A refused decision changes nothing and the error lists the legal payloads.`,
		InputSchema: submitSchema()}, submitCheckSchema(), s.submitDecision)
	addTool(s, &mcp.Tool{Name: "delete_game", Title: "Delete a game",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: jsonschema.Ptr(true), IdempotentHint: true},
		Description: "Deletes a game and its log from the store."}, nil, s.deleteGame)
	addTool(s, &mcp.Tool{Name: "fork_game", Title: "Fork a game at any decision",
		Description: "Forks a new game from a game's state after its first at answers (default: all of them), at any decision, " +
			"not only a turn's start; players, one per seat ({} keeps a seat), may change who plays. The source is not changed.",
		InputSchema: forkSchema()}, nil, s.forkGame)
	addTool(s, &mcp.Tool{Name: "get_decision", Title: "Get the pending decision", Annotations: ro, Meta: appMeta(),
		Description: "The pending decision, its legal answers in both payload forms, the answer's JSON Schema and the seat's view, in one call. " +
			"token is your seat token (this connection remembers those of the games it created); without one, a spectator's view."},
		nil, s.getDecision)
}

// Schemas the generator cannot write: enums and unions.

func playerSchema(required bool) *jsonschema.Schema {
	s := schemaOf[playerSpec]()
	prop(s, "token").Description = "the player's name at the table, such as Battleship or Cat (list_tokens); default: gopoly's name for the seat"
	prop(s, "token").MaxLength = jsonschema.Ptr(32)
	prop(s, "is_human").Description = "the seat is answered through submit_decision (you, or another MCP client), with the seat token create_game returns"
	ai := prop(s, "ai")
	ai.Description = "the seat is a gopoly bot"
	// A program (exec:, tcp:, monopyly:) is a name of its own, which the
	// host's registry seats or refuses (gopoly mcp --allow-programs), as
	// it does for tournaments and experiments.
	strategy := prop(ai, "strategy")
	strategy.Types = nil
	strategy.AnyOf = []*jsonschema.Schema{{Type: "string", Enum: strs(agent.Names()...)},
		{Type: "string", Pattern: "^[a-z]+:.+", Description: "a program, such as exec:COMMAND, when the server allows programs (--allow-programs)"}}
	strategy.Description = "the bot (default baseline): " + strings.Join(agent.Names(), ", ") + "; or a program (exec:, tcp:, monopyly:) where the server allows them"
	prop(ai, "seed").Description = "accepted for monopoly-mcp's clients and not used: a bot draws from the game's seed and its seat, so that the game replays exactly"
	params := prop(ai, "params")
	params.Type = "object"
	params.Description = "the bot's knobs: a number, or {mean, std} drawn per game (list_tokens lists them)"
	params.PropertyNames = &jsonschema.Schema{Enum: strs(agent.ParamNames()...)}
	params.AdditionalProperties = &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "number"}, {
		Type: "object", Required: []string{"mean"}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		Properties: map[string]*jsonschema.Schema{"mean": {Type: "number"}, "std": {Type: "number", Minimum: jsonschema.Ptr(0.0)}}}}}
	if required {
		s.OneOf = []*jsonschema.Schema{
			{Required: []string{"is_human"}, Properties: map[string]*jsonschema.Schema{"is_human": {Const: jsonschema.Ptr[any](true)}}},
			{Required: []string{"ai"}},
		}
	}
	return s
}

func createSchema() *jsonschema.Schema {
	s := schemaOf[createIn]()
	pl := prop(s, "players")
	pl.Items = playerSchema(true)
	pl.MinItems, pl.MaxItems = jsonschema.Ptr(2), jsonschema.Ptr(monopoly.MaxPlayers)
	pl.Description = "the seats in turn order (left out: a client that shows forms asks its user for them)"
	prop(s, "seed").Description = "the game's seed: the same seed and answers play the same game (default: random)"
	prop(s, "config_id").Description = "the rules of a saved config (save_config; game://configs lists them); \"default\" is the standard rules"
	prop(s, "rules").Types = []string{"object", "string"}
	prop(s, "rules").Description = "rules overrides instead of a config: a rules file's keys (game://config-docs), as an object or YAML text"
	prop(s, "max_rounds").Description = "a round limit, after which the richest player wins (0: none; default: the rules' own, none in the standard rules)"
	prop(s, "max_rounds").Minimum = jsonschema.Ptr(0.0)
	return s
}

func forkSchema() *jsonschema.Schema {
	s := schemaOf[forkIn]()
	prop(s, "at").Description = "fork after this many answers of the log (default: all of them, the decision pending now)"
	prop(s, "at").Minimum = jsonschema.Ptr(0.0)
	prop(s, "players").Items = playerSchema(false)
	prop(s, "players").Description = "optional: one entry per seat, {} to keep a seat, {is_human: true} or {ai: {...}} to change who plays it"
	prop(s, "token").Description = "the game's research_token, unless this connection created the game or the game's research view is open"
	return s
}

func readSchema() *jsonschema.Schema {
	s := schemaOf[readIn]()
	prop(s, "uri").Description = "a game:// resource, such as game://sessions or game://{id}/legal-actions"
	prop(s, "token").Description = "optional: a seat token, for the seat's own view (legal-actions, decision)"
	return s
}

// submitSchema publishes the decision union; submitCheckSchema is what
// is checked before the handler, which reads the decision itself so
// that a malformed one is answered with the legal payloads.
func submitSchema() *jsonschema.Schema {
	s := submitCheckSchema()
	gopoly := rawSchema(wire.AnswerSchemas()["manage"]) // any answer: its action union is read below
	var actions []*jsonschema.Schema
	seen := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(wire.AnswerSchemas())) {
		answer := rawSchema(wire.AnswerSchemas()[k])
		if answer.Properties["action"] == nil {
			continue // kind none: no answer
		}
		for _, a := range answer.Properties["action"].OneOf {
			if !seen[a.Title] {
				seen[a.Title] = true
				actions = append(actions, a)
			}
		}
	}
	gopoly.Title = "gopoly answer"
	gopoly.Description = "an action with optional words"
	gopoly.Properties["action"] = &jsonschema.Schema{OneOf: actions}
	d := prop(s, "decision")
	d.Types = nil
	d.OneOf = []*jsonschema.Schema{
		{OneOf: actions, Title: "gopoly action", Description: "gopoly action JSON, such as {\"kind\":\"buy\"}"},
		gopoly,
		{OneOf: mcpPayloadSchemas(), Title: "monopoly-mcp payload", Description: "monopoly-mcp's payload kinds, mapped onto the engine's actions"},
		{Type: "string", Title: "encoded", Description: "either JSON form as a JSON-encoded string, or a move in gopoly's text notation (\"buy\", \"bid 120\")"},
	}
	return s
}

func submitCheckSchema() *jsonschema.Schema {
	s := schemaOf[submitIn]()
	d := prop(s, "decision")
	d.Types = []string{"object", "string"}
	d.Description = "the answer: gopoly action JSON, a monopoly-mcp payload, a JSON-encoded string of either, or a move in gopoly's notation"
	prop(s, "token").Description = "your seat token (create_game returned it; this connection remembers those of the games it created)"
	prop(s, "entries").Description = "optional: the entries the decision was read at (advance_game, get_decision); a later decision is then refused as stale instead of answered"
	prop(s, "speech").Description = "said at the table with the answer"
	prop(s, "thought").Description = "private: only you (and research views) see it"
	return s
}

// mcpPayloadSchemas are monopoly-mcp's payload kinds, one schema each.
func mcpPayloadSchemas() []*jsonschema.Schema {
	boolean := &jsonschema.Schema{Type: "boolean"}
	integer := &jsonschema.Schema{Type: "integer"}
	side := &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, Properties: map[string]*jsonschema.Schema{
		"cash":              {Type: "integer", Minimum: jsonschema.Ptr(0.0)},
		"propertyLocations": {Type: "array", Items: integer, Description: "squares by board index"},
		"jailCards":         {Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: "Get Out of Jail Free cards by deck"},
	}}
	keys := map[string]*jsonschema.Schema{
		"buy": boolean, "accept": boolean, "mortgage": boolean, "unmortgage": boolean, "improve": boolean, "unimprove": boolean,
		"choice":     {Type: "string", Enum: strs(slices.Sorted(maps.Keys(jailChoices))...), Description: "how to leave jail"},
		"deck":       {Types: []string{"string", "integer"}},
		"bid":        {Types: []string{"integer", "null"}, Description: "the bid; null drops out"},
		"limit":      {Type: "integer", Description: "sealed deals: the least net cash taken (negative: the most paid)"},
		"location":   {Type: "integer", Description: "the square, by board index"},
		"colorGroup": {Type: "string", Description: "a colour group, such as brown or darkBlue"},
		"buyerGives": side, "sellerGives": side,
		"to": {Types: []string{"integer", "string"}, Description: "the other player: a seat or a name"},
	}
	required := map[string][]string{
		"purchaseProperty": {"buy"}, "jailExit": {"choice"}, "auctionBid": {"bid"}, "attemptTrade": {"accept"},
		"acceptCounterOffer": {"accept"}, "mortgageProperty": {"mortgage"}, "unmortgageProperty": {"unmortgage"},
		"improveGroup": {"improve"}, "unimproveGroup": {"unimprove"},
	}
	var out []*jsonschema.Schema
	for _, kind := range slices.Sorted(maps.Keys(mcpKinds)) {
		s := &jsonschema.Schema{Type: "object", Title: kind, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
			Required: append([]string{"kind"}, required[kind]...),
			Properties: map[string]*jsonschema.Schema{"kind": {Const: jsonschema.Ptr[any](kind)},
				"speech": {Type: "string"}, "thought": {Type: "string"}}}
		for _, k := range mcpKinds[kind] {
			s.Properties[k] = keys[k]
		}
		if kind == "movementChoice" {
			// Its choice is the Bus's, not jail's.
			s.Properties["choice"] = &jsonschema.Schema{Type: "string", Enum: strs(busMoves...),
				Description: "after the speed die's Bus: move by the first white die, the second, or both"}
		}
		out = append(out, s)
	}
	return out
}

func (s *Server) listTokens(context.Context, *mcp.CallToolRequest, struct{}) (tokensOut, error) {
	out := tokensOut{Tokens: classicTokens, Names: session.DefaultNames[:], Params: agent.ParamNames()}
	for _, n := range agent.Names() {
		b, err := agent.Lookup(n)
		if err != nil {
			return out, err
		}
		out.Strategies = append(out.Strategies, strategyOut{Name: n, Doc: b.Doc})
	}
	return out, nil
}

func (s *Server) readResourceTool(ctx context.Context, req *mcp.CallToolRequest, in readIn) (readOut, error) {
	c, err := s.read(ctx, in.URI, req.Session, in.Token)
	if err != nil {
		return readOut{}, err
	}
	return readOut{URI: in.URI, MIMEType: c.mime, Text: c.text}, nil
}

// seatsOf turns players into session seats. keep allows an empty player
// (fork_game: the seat stays as it is).
func seatsOf(players []playerSpec, keep bool) ([]session.Seat, []string, error) {
	seats := make([]session.Seat, len(players))
	var notes []string
	for i, p := range players {
		seat := &seats[i]
		seat.Name = strings.TrimSpace(p.Token)
		switch {
		case p.IsHuman && p.AI != nil:
			return nil, nil, fmt.Errorf("players[%d]: is_human and ai both given: a seat is one or the other", i)
		case p.IsHuman:
			seat.Kind = session.SeatMCP
		case p.AI != nil:
			seat.Kind, seat.Bot = session.SeatBot, p.AI.Strategy // looked up once, by the session
			if seat.Bot == "" {
				seat.Bot = "baseline"
			}
			if len(p.AI.Params) > 0 && string(p.AI.Params) != "null" {
				seat.Params = string(p.AI.Params) // JSON is YAML; the session checks the knobs
			}
			if p.AI.Seed != nil {
				notes = append(notes, fmt.Sprintf("players[%d].ai.seed is not used: a gopoly bot draws from the game's seed and its seat, so that the game replays exactly", i))
			}
		case keep && seat.Name == "":
			// kept as it is
		case keep:
			return nil, nil, fmt.Errorf("players[%d]: give is_human or ai to change who plays the seat, or {} to keep it", i)
		default:
			return nil, nil, fmt.Errorf("players[%d]: give is_human: true (answered through submit_decision) or ai: {strategy} (a bot)", i)
		}
	}
	return seats, notes, nil
}

func (s *Server) createGame(ctx context.Context, req *mcp.CallToolRequest, in createIn) (gameOut, error) {
	if len(in.Players) == 0 {
		players, seed, err := s.elicitPlayers(req)
		if err != nil {
			return gameOut{}, err
		}
		in.Players = players
		if in.Seed == nil {
			in.Seed = seed
		}
	}
	seats, notes, err := seatsOf(in.Players, false)
	if err != nil {
		return gameOut{}, err
	}
	rules, err := s.rulesOf(ctx, in.ConfigID, in.Rules, in.MaxRounds)
	if err != nil {
		return gameOut{}, err
	}
	seed := table.RandomSeed()
	if in.Seed != nil {
		seed = *in.Seed
	}
	g, err := s.m.Create(ctx, rules.Setup(seed, seats))
	if err != nil {
		return gameOut{}, err
	}
	return s.created(req, g, "", 0, in.ConfigID, notes)
}

// created describes a new game, remembers its seat tokens for this
// connection and makes it known: watched, listed among the resources.
func (s *Server) created(req *mcp.CallToolRequest, g *session.Session, parent string, at int, config string, notes []string) (gameOut, error) {
	s.watch.game(g)
	s.listGame(g.ID())
	tokens := g.Tokens()
	if err := s.seats.remember(req.Session, g.ID()); err != nil {
		return gameOut{}, fmt.Errorf("game %s was created, but could not be kept as this user's: %w; pass its tokens", g.ID(), err)
	}
	setup := g.Setup()
	out := gameOut{GameID: g.ID(), Parent: parent, At: at, Seed: setup.Seed, ConfigID: config, Notes: notes, ResearchToken: tokens.Research}
	for i, seat := range setup.Seats {
		out.Players = append(out.Players, seatOut{Seat: i, Token: seat.Name, Kind: string(seat.Kind), Strategy: seat.Bot, SeatToken: tokens.Seats[i]})
	}
	p, err := s.progressOf(g, 0, "", req.Session)
	out.State = p
	s.publishLists()
	return out, err
}

// rulesOf is the rules of a new game, checked: a saved config's, or
// the overrides given (an object or YAML), with the round limit set when
// it is given. Without any, the text is "": the standard rules, shared by
// every such game (and by what bots learn of them, such as the
// personalities' landing frequencies, measured once per rules).
func (s *Server) rulesOf(ctx context.Context, configID string, rules json.RawMessage, maxRounds *int) (table.Rules, error) {
	src, name := "", "rules"
	hasRules := len(rules) > 0 && string(rules) != "null"
	switch {
	case configID != "" && hasRules:
		return table.Rules{}, errors.New("config_id and rules both give the rules: give one")
	case configID != "" && configID != defaultConfig:
		c, err := s.m.Config(ctx, configID)
		if errors.Is(err, session.ErrNotFound) {
			return table.Rules{}, fmt.Errorf("config_id %q: no such config; game://configs lists them", configID)
		}
		if err != nil {
			return table.Rules{}, err
		}
		src, name = c.YAML, "config "+configID
	case hasRules:
		var text string
		if json.Unmarshal(rules, &text) == nil {
			src = text
		} else {
			src = string(rules) // an object: JSON is YAML
		}
	}
	r, err := table.ParseRules(name, src)
	if err != nil || maxRounds == nil {
		return r, err
	}
	return r.WithMaxRounds(name, *maxRounds)
}

// owns reports whether the caller is game g's creator: the connection
// that created it, or the holder of its research token.
func (s *Server) owns(ss *mcp.ServerSession, g *session.Session, token string) bool {
	return s.seats.created(ss, g.ID()) || g.IsResearch(token)
}

// mayFork refuses a fork (or replay) to a caller that may not see what it
// copies: the new game's log holds every seat's thoughts and sealed
// limits, and its creator reads them. It takes the creator, or a game
// whose research view is open.
func (s *Server) mayFork(ss *mcp.ServerSession, g *session.Session, token string) error {
	if s.owns(ss, g, token) || g.SeesResearch(token) {
		return nil
	}
	return fmt.Errorf("a fork of game %s copies every seat's thoughts and sealed limits: it takes the connection that created the game, or its research_token; nothing changed", g.ID())
}

// tokenFor is the token a call answers or reads with: the one given, or
// the one this connection holds for the seat.
func (s *Server) tokenFor(ss *mcp.ServerSession, g *session.Session, given string, seat int) string {
	if given != "" {
		return given
	}
	if seats := g.Tokens().Seats; seat >= 0 && seat < len(seats) && s.seats.created(ss, g.ID()) {
		return seats[seat]
	}
	return ""
}

// progressOf describes g after a call in which the bots played played
// answers. The decision is shown as the deciding seat sees it, with its
// legal payloads, when the caller holds that seat's token.
func (s *Server) progressOf(g *session.Session, played int, token string, ss *mcp.ServerSession) (progress, error) {
	st := g.Status()
	setup := g.Setup()
	p := progress{GameID: g.ID(), Round: st.Round, Turn: st.Turn, Entries: st.Entries, Played: played, Summary: st.Summary}
	switch {
	case st.Over:
		p.Status, p.Next = statusCompleted, "the game is over: replay_game or fork_game to play a part again, delete_game when done"
		if st.Winner >= 0 {
			p.Winner = &seatRef{st.Winner, setup.Seats[st.Winner].Name, string(setup.Seats[st.Winner].Kind)}
		}
		return p, nil
	case st.Waiting < 0:
		p.Status, p.Next = statusReady, "advance_game: the bots are to play"
		return p, nil
	}
	p.Status = statusAwaiting
	p.Waiting = &seatRef{st.Waiting, setup.Seats[st.Waiting].Name, string(setup.Seats[st.Waiting].Kind)}
	pend, err := g.Pending(s.tokenFor(ss, g, token, st.Waiting))
	if err != nil {
		var r *session.Refused
		if !errors.As(err, &r) || r.Code != session.CodeBadToken {
			return p, err
		}
		if pend, err = g.Pending(""); err != nil { // a token of no seat: show what a spectator sees
			return p, err
		}
	}
	p.Decision = &pend.Decision
	p.Question = render.DecisionIn(pend.View, names(pend.View))
	if pend.YourTurn {
		p.Legal = legalPayloads(&pend)
		p.Next = "submit_decision with one of legal (its payload or its action)"
	} else {
		p.Next = fmt.Sprintf("%s decides: submit_decision with that seat's token", p.Waiting.Name)
	}
	return p, nil
}

func (p progress) text() string {
	var b strings.Builder
	b.WriteString(p.Summary)
	if p.Question != "" {
		fmt.Fprintf(&b, "\n%s", p.Question)
	}
	for _, l := range p.Legal {
		fmt.Fprintf(&b, "\n  %s", l.Notation)
		if string(l.Payload) != "null" {
			fmt.Fprintf(&b, "  %s", l.Payload)
		}
	}
	fmt.Fprintf(&b, "\nNext: %s", p.Next)
	return b.String()
}

func (s *Server) advanceGame(ctx context.Context, req *mcp.CallToolRequest, in advanceIn) (progress, error) {
	if in.MaxSteps < 0 {
		return progress{}, fmt.Errorf("max_steps %d: want 0 (no limit) or more", in.MaxSteps)
	}
	g, err := s.open(ctx, in.GameID)
	if err != nil {
		return progress{}, err
	}
	if !s.seats.created(req.Session, g.ID()) && !g.Holds(in.Token) {
		return progress{}, fmt.Errorf("advance_game steers game %s: it takes one of its tokens (a seat_token or its research_token), unless this connection created it; nothing changed", g.ID())
	}
	steps := in.MaxSteps
	if steps == 0 {
		steps = maxAdvance
	}
	pr, err := s.drivers.Advance(ctx, g, steps)
	if err != nil {
		return progress{}, err
	}
	return s.progressOf(g, pr.Played, in.Token, req.Session)
}

func (s *Server) submitDecision(ctx context.Context, req *mcp.CallToolRequest, in submitIn) (submitOut, error) {
	g, err := s.open(ctx, in.GameID)
	if err != nil {
		return submitOut{}, err
	}
	st := g.Status()
	if st.Over {
		return submitOut{}, fmt.Errorf("game %s is over: %s", g.ID(), st.Summary)
	}
	if st.Waiting < 0 {
		return submitOut{}, fmt.Errorf("no seat of game %s is waiting for an answer: %s; advance_game plays the bots", g.ID(), st.Summary)
	}
	tok := s.tokenFor(req.Session, g, in.Token, st.Waiting)
	if tok == "" {
		return submitOut{}, fmt.Errorf("a seat token is needed to answer for %s (seat %d): create_game returned it as players[%d].seat_token; pass it as token",
			g.Setup().Seats[st.Waiting].Name, st.Waiting, st.Waiting)
	}
	// The session checks the token, the turn and the entries, then the
	// dialect reads the decision once, and the engine says if it is legal.
	d := &mcpAnswer{speech: in.Speech, thought: in.Thought}
	opts := []session.SubmitOption{table.Answer(d, in.Decision)}
	if in.Entries != nil {
		opts = append(opts, session.At(*in.Entries))
	}
	pr, err := g.Submit(ctx, tok, agent.Answer{}, opts...)
	if err != nil {
		return submitOut{}, s.submitRefused(g, tok, err)
	}
	action, err := wire.EncodeAction(g.Rules(), d.action)
	if err != nil {
		return submitOut{}, err
	}
	prog, err := s.progressOf(g, pr.Played, in.Token, req.Session)
	setup := g.Setup()
	out := submitOut{progress: prog, Applied: appliedOut{Action: action, Dialect: d.dialect,
		Notation: wire.Notation{Rules: g.Rules(), Names: setup.Names()}.Format(d.action)}}
	return out, err
}

// mcpAnswer is submit_decision's dialect: a decision in any of the forms
// parseDecision reads, with speech and thought also given as arguments.
// It keeps what it read, for the reply.
type mcpAnswer struct {
	speech, thought string
	parsed
}

func (d *mcpAnswer) Name() string { return "mcp" }

func (d *mcpAnswer) Decode(q session.Asked, raw []byte) (agent.Answer, error) {
	// monopoly-mcp's payloads are read against the legal options: only
	// they make the seat's Pending.
	pending := func() *session.Pending { p := q.Pending(); return &p }
	var err error
	if d.parsed, err = parseDecision(asking{seat: q.Seat, names: q.Names, pending: pending}, q.Rules, raw); err != nil {
		return agent.Answer{}, err
	}
	if d.parsed.speech != "" && d.speech != "" || d.parsed.thought != "" && d.thought != "" {
		return agent.Answer{}, errors.New("speech or thought given both in the decision and as an argument: give each once")
	}
	return agent.Answer{Action: d.action, Speech: d.parsed.speech + d.speech, Thought: d.parsed.thought + d.thought}, nil
}

// submitRefused describes a refused submit_decision: with the legal
// answers of the pending decision, unless the token itself was refused.
func (s *Server) submitRefused(g *session.Session, tok string, err error) error {
	p, perr := g.Pending(tok)
	switch e := table.Classify(err); {
	case e.Code == table.CodeForbidden:
		return fmt.Errorf("%w; nothing changed", refusedErr(err, nil))
	case e.Code != table.CodeRefused || perr != nil:
		return refusedErr(err, nil)
	}
	return refusedErr(err, &p)
}

// refusedErr describes a refused decision: the reason, that nothing
// changed, and the legal answers of the seat's pending decision p (nil:
// none known).
func refusedErr(err error, p *session.Pending) error {
	var b strings.Builder
	var r *session.Refused
	if errors.As(err, &r) {
		fmt.Fprintf(&b, "refused (%s): %s", r.Code, r.Message)
		if r.Options != nil && p != nil {
			q := *p
			q.Options = r.Options
			p = &q
		}
	} else {
		b.WriteString(err.Error())
	}
	if p == nil {
		return errors.New(b.String())
	}
	b.WriteString("; nothing changed.")
	legal := legalPayloads(p)
	if len(legal) > 0 {
		b.WriteString("\nLegal answers now (gopoly action | monopoly-mcp payload | notation):")
		for _, l := range legal {
			fmt.Fprintf(&b, "\n  %s | %s | %s", l.Action, l.Payload, l.Notation)
		}
	}
	if o := p.Options; o != nil {
		if o.Bid != nil {
			fmt.Fprintf(&b, "\nA bid may be any amount from %d to %d.", o.Bid.Min, o.Bid.Max)
		}
		if o.Accept != nil {
			fmt.Fprintf(&b, "\naccept_trade's limit may be %d to %d: %s.", o.Accept.Min, o.Accept.Max, o.Accept.Meaning)
		}
		if o.Trade != nil {
			fmt.Fprintf(&b, "\nA trade (%s) may also be offered: get_decision lists what each side may put in.", o.Trade.Kind)
		}
	}
	return errors.New(b.String())
}

func (s *Server) deleteGame(ctx context.Context, req *mcp.CallToolRequest, in gameIn) (deletedOut, error) {
	g, err := s.open(ctx, in.GameID)
	if err != nil {
		return deletedOut{}, err
	}
	if !s.owns(req.Session, g, in.Token) {
		return deletedOut{}, fmt.Errorf("delete_game %s: only the connection that created the game, or its research_token, may delete it; nothing changed", g.ID())
	}
	if err := s.m.Delete(ctx, in.GameID); err != nil {
		return deletedOut{}, err
	}
	s.watch.forget(in.GameID)
	if err := s.seats.forget(in.GameID); err != nil {
		return deletedOut{}, fmt.Errorf("game %s was deleted, but the list of this user's games was not updated: %w", in.GameID, err)
	}
	s.odds.Forget(in.GameID)
	s.unlistGame(in.GameID)
	s.publishLists()
	return deletedOut{GameID: in.GameID, Deleted: true}, nil
}

func (s *Server) replayGame(ctx context.Context, req *mcp.CallToolRequest, in replayIn) (gameOut, error) {
	src, err := s.open(ctx, in.GameID)
	if err != nil {
		return gameOut{}, err
	}
	if err := s.mayFork(req.Session, src, in.Token); err != nil {
		return gameOut{}, err
	}
	turns := src.Turns()
	if in.Turn < 0 || in.Turn >= len(turns) {
		return gameOut{}, fmt.Errorf("turn %d: game %s has turns 0 to %d (game://%s/replay-turns lists them)", in.Turn, src.ID(), len(turns)-1, src.ID())
	}
	at := turns[in.Turn].At
	g, err := s.m.Fork(ctx, src.ID(), at, nil)
	if err != nil {
		return gameOut{}, err
	}
	return s.created(req, g, src.ID(), at, "", nil)
}

func (s *Server) forkGame(ctx context.Context, req *mcp.CallToolRequest, in forkIn) (gameOut, error) {
	src, err := s.open(ctx, in.GameID)
	if err != nil {
		return gameOut{}, err
	}
	if err := s.mayFork(req.Session, src, in.Token); err != nil {
		return gameOut{}, err
	}
	st := src.Status()
	at := st.Entries
	if in.At != nil {
		at = *in.At
	}
	if at < 0 || at > st.Entries {
		return gameOut{}, fmt.Errorf("at %d: game %s has answers 0 to %d", at, src.ID(), st.Entries)
	}
	var seats []session.Seat
	var notes []string
	if len(in.Players) > 0 {
		if n := len(src.Setup().Seats); len(in.Players) != n {
			return gameOut{}, fmt.Errorf("players: %d entries for a %d-player game: give one per seat, {} to keep a seat", len(in.Players), n)
		}
		if seats, notes, err = seatsOf(in.Players, true); err != nil {
			return gameOut{}, err
		}
	}
	g, err := s.m.Fork(ctx, src.ID(), at, seats)
	if err != nil {
		return gameOut{}, err
	}
	return s.created(req, g, src.ID(), at, "", notes)
}

func (s *Server) getDecision(ctx context.Context, req *mcp.CallToolRequest, in decisionIn) (decisionOut, error) {
	g, err := s.open(ctx, in.GameID)
	if err != nil {
		return decisionOut{}, err
	}
	p, err := s.pendingFor(g, in.Token, req.Session)
	if err != nil {
		return decisionOut{}, err
	}
	out := decisionOut{GameID: g.ID(), Seat: p.Seat, YourTurn: p.YourTurn, Over: p.Over, Entries: p.Entries,
		Decision: p.Decision, Question: render.DecisionIn(p.View, names(p.View)), Legal: legalPayloads(&p),
		Options: p.Options, Schema: p.Schema, View: p.View, Board: render.Text(p.View)}
	if d := p.Decision.Player; d >= 0 && d < len(g.Setup().Seats) {
		seat := g.Setup().Seats[d]
		out.Decider = &seatRef{d, seat.Name, string(seat.Kind)}
	}
	return out, nil
}

// pendingFor is the pending decision as the caller sees it: with the
// token given, else the one this connection holds for the deciding seat,
// else as a spectator.
func (s *Server) pendingFor(g *session.Session, token string, ss *mcp.ServerSession) (session.Pending, error) {
	tok := s.tokenFor(ss, g, token, g.Status().Waiting)
	p, err := g.Pending(tok)
	if err != nil {
		return p, refusedErr(err, nil)
	}
	return p, nil
}

func (o decisionOut) text() string {
	var b strings.Builder
	b.WriteString(o.Board)
	fmt.Fprintf(&b, "\n%s", o.Question)
	for _, l := range o.Legal {
		fmt.Fprintf(&b, "\n  %s", l.Notation)
	}
	return b.String()
}
