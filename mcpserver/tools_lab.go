package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/lab"
	"github.com/gopoly/gopoly/monopoly"
)

// Experiments, tournaments and odds: start_experiment runs a spec in the
// background on lab.Manager (the browser's lab is the same runs), its
// status and results are resources that notify as it goes;
// run_tournament plays a tournament while the call waits; and
// win_probabilities estimates each player's chance from a game's public
// position by playouts.

func init() { features = append(features, (*Server).addLab) }

// Bounds of the calls that wait for their games.
const (
	maxTournamentGames = 20_000
	maxOddsSamples     = 20_000
	// tournamentResamples are the bootstrap resamples of the ratings'
	// intervals, as gopoly tournament draws them.
	tournamentResamples = 1000
)

type (
	startExperimentIn struct {
		Spec   string `json:"spec,omitempty" jsonschema:"the experiment spec, YAML as gopoly experiment run reads it (name, seeds, detail, rules, variants with seats)"`
		Name   string `json:"name,omitempty" jsonschema:"with spec: a file name for the spec, for error messages; with variants (monopoly-mcp's form): the experiment's name"`
		Resume string `json:"resume,omitempty" jsonschema:"instead of spec: the id of a stopped or cancelled run to go on with"`
		// monopoly-mcp's form, translated into a spec (lab_dialect.go).
		ConfigID    string          `json:"config_id,omitempty" jsonschema:"monopoly-mcp's form: the rules of a saved config (default: the standard rules)"`
		DetailLevel string          `json:"detail_level,omitempty" jsonschema:"monopoly-mcp's form: summary, stats or full"`
		SeedRange   *seedRange      `json:"seed_range,omitempty" jsonschema:"monopoly-mcp's form: the seeds every variant plays"`
		Players     []playerSpec    `json:"players,omitempty" jsonschema:"monopoly-mcp's form: the ai players by token (default: Battleship, Boot, Car and Cat, adaptive)"`
		Rules       json.RawMessage `json:"rules,omitempty" jsonschema:"monopoly-mcp's form: rules overrides instead of a config, as create_game takes them"`
		Variants    []mcpVariant    `json:"variants,omitempty" jsonschema:"monopoly-mcp's form: the variants, each {name, player_overrides: [{token, ai: {strategy, params}}]}"`
	}
	experimentIDIn struct {
		ExperimentID string `json:"experiment_id"`
	}
	experimentOut struct {
		lab.Status
		URIs  []string `json:"uris" jsonschema:"the run's resources: status, summary, results"`
		Spec  string   `json:"spec,omitempty" jsonschema:"the gopoly spec that monopoly-mcp's arguments were translated into"`
		Notes []string `json:"notes,omitempty"`
	}

	tournamentIn struct {
		Bots    []string        `json:"bots" jsonschema:"the entrants, one per seat, at least two: bot names as create_game's strategies"`
		Games   int             `json:"games" jsonschema:"games to play, seats rotating"`
		Players int             `json:"players,omitempty" jsonschema:"players per game (default: the number of entrants, at most 8)"`
		Seed    *uint64         `json:"seed,omitempty"`
		Rules   json.RawMessage `json:"rules,omitempty" jsonschema:"rules overrides, as create_game takes them"`
	}
	tournamentOut struct {
		Games   int               `json:"games"`
		Rounds  float64           `json:"rounds_mean"`
		Entries []tournamentEntry `json:"entries"`
	}
	tournamentEntry struct {
		Bot    string     `json:"bot"`
		Seats  int        `json:"seats" jsonschema:"games it played"`
		Wins   float64    `json:"wins" jsonschema:"wins, ties shared"`
		Share  float64    `json:"win_share"`
		CI95   [2]float64 `json:"ci95"`
		Rating float64    `json:"rating" jsonschema:"Elo-scale rating, mean 1500"`
	}

	oddsIn struct {
		GameID  string  `json:"game_id"`
		Samples int     `json:"samples,omitempty" jsonschema:"playouts (default 1000)"`
		Seed    *uint64 `json:"seed,omitempty"`
		Bot     string  `json:"bot,omitempty" jsonschema:"the bot every seat plays in the playouts (default baseline)"`
	}
	oddsOut struct {
		GameID  string       `json:"game_id"`
		Players []string     `json:"players"`
		Win     []float64    `json:"win" jsonschema:"by seat: the share of playouts it won"`
		CI95    [][2]float64 `json:"ci95"`
		Ties    float64      `json:"ties"`
		Samples int          `json:"samples"`
		Horizon int          `json:"horizon" jsonschema:"rounds a playout ran at most before net worth decided it"`
		Bot     string       `json:"bot"`
	}
)

func (s *Server) addLab() {
	addTool(s, &mcp.Tool{Name: "start_experiment", Title: "Start a Monte Carlo experiment",
		Description: "Starts an experiment in the background: variants of seats, rules and knobs played on common seeds (spec YAML: " +
			"see the start-monte-carlo-experiment prompt), or resumes a stopped run. Follow it at game://experiments/{id}/status " +
			"(subscribe for progress); cancel_experiment stops it keeping the games played."}, nil, s.startExperiment)
	addTool(s, &mcp.Tool{Name: "cancel_experiment", Title: "Cancel an experiment",
		Description: "Stops a running experiment. The games it played are kept, and start_experiment(resume) goes on from them."}, nil, s.cancelExperiment)
	addTool(s, &mcp.Tool{Name: "run_tournament", Title: "Run a tournament",
		Description: fmt.Sprintf("Plays bots against each other in rotating seats and returns each one's win share with its 95%% interval "+
			"and an Elo-scale rating; the call returns when the games are played (at most %d).", maxTournamentGames)}, nil, s.runTournament)
	addTool(s, &mcp.Tool{Name: "win_probabilities", Title: "Chances to win",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Estimates each player's chance to win a game from its public position now, by Monte Carlo playouts " +
			"(the decks and dice drawn afresh, one bot in every seat), with 95% intervals and the sample size."}, nil, s.winProbabilities)

	s.resource("game://experiments", "experiments", mimeJSON, "the experiment runs, newest first, with where each stands", s.readExperiments)
	s.resource("game://experiments/{id}/status", "experiment status", mimeJSON, "a run's state and progress", s.readExperimentStatus)
	s.resource("game://experiments/{id}/summary", "experiment summary", mimeJSON, "a run's summary so far: each variant's win rates with intervals, game length, behaviour", s.readExperimentSummary)
	s.resource("game://experiments/{id}/results", "experiment results", mimeJSONL, "a run's games so far, one JSON line each, in game order", s.readExperimentResults)
	if s.opt.Lab != nil {
		s.opt.Lab.Watch(func(st lab.Status) {
			s.publish("game://experiments", experimentURI(st.ID, "status"), experimentURI(st.ID, "summary"), experimentURI(st.ID, "results"))
		})
	}
}

func experimentURI(id, what string) string { return "game://experiments/" + id + "/" + what }

// labOrErr returns the lab, or says there is none.
func (s *Server) labOrErr() (*lab.Manager, error) {
	if s.opt.Lab == nil {
		return nil, errors.New("this server runs no experiments (it was started without a data directory for them)")
	}
	return s.opt.Lab, nil
}

func (s *Server) experimentOut(st lab.Status) experimentOut {
	return experimentOut{Status: st, URIs: []string{experimentURI(st.ID, "status"), experimentURI(st.ID, "summary"), experimentURI(st.ID, "results")}}
}

func (s *Server) startExperiment(ctx context.Context, _ *mcp.CallToolRequest, in startExperimentIn) (experimentOut, error) {
	l, err := s.labOrErr()
	if err != nil {
		return experimentOut{}, err
	}
	var st lab.Status
	var spec []byte
	var notes []string
	mcpForm := in.Variants != nil || in.SeedRange != nil || in.ConfigID != "" || in.DetailLevel != "" || in.Players != nil || len(in.Rules) > 0
	switch {
	case in.Resume != "" && (in.Spec != "" || mcpForm):
		return experimentOut{}, errors.New("give spec (or monopoly-mcp's variants) to start a run, or resume to go on with one, not both")
	case in.Spec != "" && mcpForm:
		return experimentOut{}, errors.New("give spec (gopoly's YAML) or monopoly-mcp's arguments (seed_range, variants ...), not both")
	case in.Resume != "":
		st, err = l.Resume(in.Resume)
	case mcpForm:
		if spec, notes, err = s.mcpExperiment(ctx, in); err != nil {
			return experimentOut{}, err
		}
		st, err = l.Start("start_experiment", spec)
	case strings.TrimSpace(in.Spec) == "":
		return experimentOut{}, errors.New("spec is empty: an experiment spec in YAML (see the start-monte-carlo-experiment prompt)")
	default:
		name := in.Name
		if name == "" {
			name = "spec.yaml"
		}
		st, err = l.Start(name, []byte(in.Spec))
	}
	if err != nil {
		return experimentOut{}, labErr(err, in.Resume)
	}
	s.mcp.AddResource(&mcp.Resource{URI: experimentURI(st.ID, "status"), Name: "experiment " + st.ID, MIMEType: mimeJSON,
		Description: "experiment " + st.Experiment + ": state and progress"}, s.readResource)
	out := s.experimentOut(st)
	out.Spec, out.Notes = string(spec), notes
	return out, nil
}

// labErr names the run an error of the lab is about.
func labErr(err error, id string) error {
	switch {
	case errors.Is(err, lab.ErrNotFound):
		return fmt.Errorf("no experiment run %q; game://experiments lists them", id)
	case errors.Is(err, lab.ErrBusy):
		return fmt.Errorf("experiment run %q is running", id)
	}
	return err
}

func (s *Server) cancelExperiment(_ context.Context, _ *mcp.CallToolRequest, in experimentIDIn) (experimentOut, error) {
	l, err := s.labOrErr()
	if err != nil {
		return experimentOut{}, err
	}
	st, err := l.Cancel(in.ExperimentID)
	if err != nil {
		return experimentOut{}, labErr(err, in.ExperimentID)
	}
	return s.experimentOut(st), nil
}

func (s *Server) readExperiments(context.Context, *readCtx) (*content, error) {
	l, err := s.labOrErr()
	if err != nil {
		return nil, err
	}
	runs, err := l.List()
	if err != nil {
		return nil, err
	}
	if runs == nil {
		runs = []lab.Status{}
	}
	return jsonContent(map[string]any{"experiments": runs})
}

func (s *Server) readExperimentStatus(_ context.Context, rc *readCtx) (*content, error) {
	l, err := s.labOrErr()
	if err != nil {
		return nil, err
	}
	st, err := l.Status(rc.vars["id"])
	if err != nil {
		return nil, labErr(err, rc.vars["id"])
	}
	return jsonContent(s.experimentOut(st))
}

func (s *Server) readExperimentSummary(_ context.Context, rc *readCtx) (*content, error) {
	l, err := s.labOrErr()
	if err != nil {
		return nil, err
	}
	sum, err := l.Summary(rc.vars["id"])
	if err != nil {
		return nil, labErr(err, rc.vars["id"])
	}
	return jsonContent(sum)
}

func (s *Server) readExperimentResults(_ context.Context, rc *readCtx) (*content, error) {
	l, err := s.labOrErr()
	if err != nil {
		return nil, err
	}
	data, err := l.Results(rc.vars["id"])
	if err != nil {
		return nil, labErr(err, rc.vars["id"])
	}
	return &content{mimeJSONL, string(data)}, nil
}

func (s *Server) runTournament(ctx context.Context, _ *mcp.CallToolRequest, in tournamentIn) (tournamentOut, error) {
	if len(in.Bots) < 2 {
		return tournamentOut{}, errors.New("bots: at least two entrants")
	}
	for i, b := range in.Bots {
		if _, err := s.m.Lookup(b); err != nil {
			return tournamentOut{}, fmt.Errorf("bots[%d]: %w (list_tokens lists the bots)", i, err)
		}
	}
	if in.Games < 1 || in.Games > maxTournamentGames {
		return tournamentOut{}, fmt.Errorf("games: from 1 to %d, got %d", maxTournamentGames, in.Games)
	}
	players := in.Players
	if players == 0 {
		players = min(len(in.Bots), monopoly.MaxPlayers)
	}
	if players < 2 || players > monopoly.MaxPlayers {
		return tournamentOut{}, fmt.Errorf("players: from 2 to %d, got %d", monopoly.MaxPlayers, players)
	}
	rules, err := s.rulesOf(ctx, "", in.Rules, nil)
	if err != nil {
		return tournamentOut{}, err
	}
	seed := uint64(1)
	if in.Seed != nil {
		seed = *in.Seed
	}
	t, err := arena.NewTournament(arena.TournamentConfig{Rules: rules.Rules, Bots: in.Bots, Players: players, Games: in.Games, Seed: seed, Registry: s.m.Lookup})
	if err != nil {
		return tournamentOut{}, err
	}
	tally := t.NewTally()
	if err := t.Play(ctx, tally.Add); err != nil {
		return tournamentOut{}, err
	}
	sum := tally.Summary(tournamentResamples)
	out := tournamentOut{Games: sum.Games, Rounds: sum.RoundsMean}
	for _, b := range sum.Bots {
		out.Entries = append(out.Entries, tournamentEntry{Bot: b.Name, Seats: b.SeatsPlayed, Wins: b.Wins, Share: b.WinShare, CI95: b.CI95, Rating: b.Rating})
	}
	return out, nil
}

func (s *Server) winProbabilities(ctx context.Context, _ *mcp.CallToolRequest, in oddsIn) (oddsOut, error) {
	g, err := s.open(ctx, in.GameID)
	if err != nil {
		return oddsOut{}, err
	}
	if in.Samples < 0 || in.Samples > maxOddsSamples {
		return oddsOut{}, fmt.Errorf("samples: from 1 to %d, got %d", maxOddsSamples, in.Samples)
	}
	if in.Bot != "" {
		if _, err := s.m.Lookup(in.Bot); err != nil {
			return oddsOut{}, fmt.Errorf("bot: %w", err)
		}
	}
	o, err := s.odds.Of(ctx, g, arena.OddsOptions{Samples: in.Samples, Bot: in.Bot}, in.Seed)
	if err != nil {
		return oddsOut{}, err
	}
	setup := g.Setup()
	return oddsOut{GameID: g.ID(), Players: setup.Names(), Win: o.Win, CI95: o.CI95, Ties: o.Ties, Samples: o.Samples, Horizon: o.Horizon, Bot: o.Bot}, nil
}
