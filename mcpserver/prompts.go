package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/agent"
)

func init() { features = append(features, (*Server).addPrompts) }

// The prompts are monopoly-mcp's guided workflows: play-game,
// create-custom-config and start-monte-carlo-experiment.

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{Name: "play-game", Title: "Play a game of Monopoly",
		Description: "Sit down at a table as one player against bots, and play the game through to the end.",
		Arguments: []*mcp.PromptArgument{
			{Name: "token", Description: "your player's name, such as Cat (list_tokens suggests some)", Required: true},
			{Name: "opponents", Description: "the other players' names, comma-separated, such as Battleship,Boot (default: three)"},
			{Name: "strategy", Description: "the opponents' bot: " + strings.Join(agent.Names(), ", ") + " (default baseline)"},
		}}, s.playGamePrompt)
	s.mcp.AddPrompt(&mcp.Prompt{Name: "create-custom-config", Title: "Create a custom rules config",
		Description: "Draft a rules config from an idea, validate it, and save it for games to use.",
		Arguments: []*mcp.PromptArgument{
			{Name: "idea", Description: "what the rules should change, such as \"a short game with $1000 and no auctions\"", Required: true},
			{Name: "config_id", Description: "the id to save it under (default: made from the idea)"},
		}}, s.customConfigPrompt)
	s.mcp.AddPrompt(&mcp.Prompt{Name: "start-monte-carlo-experiment", Title: "Start a Monte Carlo experiment",
		Description: "Turn a question about strategies or rules into an experiment spec, run it in the background, and report the results.",
		Arguments: []*mcp.PromptArgument{
			{Name: "question", Description: "what to find out, such as \"does the planner beat three baselines under the speed die?\"", Required: true},
			{Name: "games", Description: "seeds per variant (default 1000)"},
		}}, s.experimentPrompt)
}

func (s *Server) experimentPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args, err := promptArgs(req, []string{"question", "games"}, "question")
	if err != nil {
		return nil, err
	}
	games := strings.TrimSpace(args["games"])
	if games == "" {
		games = "1000"
	}
	if n, err := strconv.Atoi(games); err != nil || n < 1 {
		return nil, fmt.Errorf("mcpserver: prompt start-monte-carlo-experiment: games: want a positive number, got %q", games)
	}
	text := fmt.Sprintf(`Help me answer with a Monte Carlo experiment: %s

1. Write an experiment spec in YAML: name (letters, digits, '.', '_', '-'), seeds: {start: 1, count: %s, step: 1}, detail: stats, rules (overrides of the standard rules, as in game://config-docs, such as {max_rounds: 500} or {speed_die: true}), and variants, each with a name, seats (a bot per seat: %s), and optionally rotate: true (seats rotate, for a fair comparison of different bots), rules and params. Every variant plays the same seeds.
2. Call start_experiment with the spec. If it is refused, fix what the error names (file, line and field) and try again.
3. Subscribe to (or read) the status URI it returns until state is complete; cancel_experiment stops it keeping the games played.
4. Read game://experiments/{id}/summary and answer my question from each variant's win rates and their 95%% intervals, saying whether the intervals overlap.`,
		strings.TrimSpace(args["question"]), games, strings.Join(agent.Names(), ", "))
	return &mcp.GetPromptResult{Description: "design, run and read an experiment",
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
}

// promptArgs reads a prompt's arguments: required ones present, none
// unknown, so that a mistyped name is an error and not silently dropped.
func promptArgs(req *mcp.GetPromptRequest, known []string, required ...string) (map[string]string, error) {
	args := req.Params.Arguments
	for k := range args {
		if !slices.Contains(known, k) {
			return nil, fmt.Errorf("mcpserver: prompt %s: unknown argument %q (it takes %s)", req.Params.Name, k, strings.Join(known, ", "))
		}
	}
	for _, k := range required {
		if strings.TrimSpace(args[k]) == "" {
			return nil, fmt.Errorf("mcpserver: prompt %s: argument %q is needed", req.Params.Name, k)
		}
	}
	return args, nil
}

func (s *Server) playGamePrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args, err := promptArgs(req, []string{"token", "opponents", "strategy"}, "token")
	if err != nil {
		return nil, err
	}
	me := strings.TrimSpace(args["token"])
	strategy := strings.TrimSpace(args["strategy"])
	if strategy == "" {
		strategy = "baseline"
	}
	if !agent.Known(strategy) {
		return nil, fmt.Errorf("mcpserver: prompt play-game: strategy %q: want one of %s", strategy, strings.Join(agent.Names(), ", "))
	}
	var others []string
	for _, o := range strings.Split(args["opponents"], ",") {
		if o = strings.TrimSpace(o); o != "" {
			others = append(others, o)
		}
	}
	if len(others) == 0 {
		for _, t := range classicTokens {
			if len(others) < 3 && !strings.EqualFold(t, me) {
				others = append(others, t)
			}
		}
	}
	players := []playerSpec{{Token: me, IsHuman: true}}
	for _, o := range others {
		players = append(players, playerSpec{Token: o, AI: &aiSpec{Strategy: strategy}})
	}
	create, _ := json.Marshal(map[string]any{"players": players})
	text := fmt.Sprintf(`Let's play Monopoly. You are %s; your opponents are %s, played by gopoly's %s bot.

1. Call create_game with %s. Keep the game_id.
2. Call advance_game(game_id). It plays the bots until you must decide, or the game ends.
3. When status is awaitingDecision, the result lists your legal answers (legal), each as a gopoly action and a monopoly-mcp payload. Look at the board when it matters (game://<game_id>/state, or read_resource), think about cash, monopolies and rent, and choose.
4. Call submit_decision(game_id, decision) with the chosen payload or action. If it is refused, nothing changed: the error lists the legal answers again.
5. Repeat from step 2 until status is completed, then tell me who won and how.

Say in a sentence what you do and why at each decision (you may also pass speech to be heard at the table).`,
		me, strings.Join(others, ", "), strategy, create)
	return &mcp.GetPromptResult{Description: "play a game of Monopoly as " + me,
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
}

func (s *Server) customConfigPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args, err := promptArgs(req, []string{"idea", "config_id"}, "idea")
	if err != nil {
		return nil, err
	}
	save := "save_config with a name that says what the rules are"
	if id := strings.TrimSpace(args["config_id"]); id != "" {
		save = fmt.Sprintf("save_config with config_id %q", id)
	}
	text := fmt.Sprintf(`Help me make a Monopoly rules config: %s

1. Read game://config-docs (what each key means) and game://configs/default/annotated (the standard rules with comments). If you cannot read resources, use read_resource.
2. Write a YAML config that sets only the keys that change; lists (board, groups, decks) replace the standard list whole.
3. Call validate_config with it. If it is not valid, fix what the error names (it gives the line and the field) and validate again.
4. Show me the summary, then %s.
5. Tell me the config_id, and that create_game(config_id: ...) plays by it.`, strings.TrimSpace(args["idea"]), save)
	return &mcp.GetPromptResult{Description: "draft, validate and save a rules config",
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
}
