package mcpserver_test

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/mcpserver/mcptest"
	gtable "github.com/gopoly/gopoly/table"
)

// An experiment started over MCP runs in the background, notifies its
// status resource as it goes, can be cancelled keeping its games and
// resumed to the end, and its summary and results are resources.
func TestExperiments(t *testing.T) {
	tb := newTable(t, "")
	updated := make(chan string, 1000)
	cs := tb.connect(t, &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		select {
		case updated <- r.Params.URI:
		default:
		}
	}})
	ctx := context.Background()
	if msg := callErr(t, cs, "start_experiment", map[string]any{"spec": "name: x\nvariants: []\n"}); !strings.Contains(msg, "spec.yaml") {
		t.Fatalf("a bad spec: %s", msg)
	}
	var st struct {
		ID    string   `json:"id"`
		State string   `json:"state"`
		Done  int      `json:"done"`
		Total int      `json:"total"`
		URIs  []string `json:"uris"`
	}
	spec := "name: mcp-lab\nseeds: {start: 1, count: 3000, step: 1}\nvariants:\n  - {name: a, seats: [baseline, random]}\n"
	if err := mcptest.Call(ctx, cs, "start_experiment", map[string]any{"spec": spec}, &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "running" || st.Total != 3000 || len(st.URIs) != 3 {
		t.Fatalf("started as %+v", st)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: st.URIs[0]}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-updated:
	case <-time.After(30 * time.Second):
		t.Fatal("no update of the experiment's status")
	}
	if err := mcptest.Call(ctx, cs, "cancel_experiment", map[string]any{"experiment_id": st.ID}, &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "cancelled" || st.Done >= st.Total {
		t.Fatalf("cancelled as %+v", st)
	}
	results := readText(t, cs, "game://experiments/"+st.ID+"/results")
	if n := strings.Count(results, "\n"); n != st.Done {
		t.Fatalf("%d result lines for %d games", n, st.Done)
	}
	played := st.Done
	if err := mcptest.Call(ctx, cs, "start_experiment", map[string]any{"resume": st.ID}, &st); err != nil {
		t.Fatal(err)
	}
	if st.Done < played {
		t.Fatalf("resumed with done %d: %d games were played before", st.Done, played)
	}
	deadline := time.Now().Add(60 * time.Second)
	for st.State == "running" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		json.Unmarshal([]byte(readText(t, cs, st.URIs[0])), &st)
	}
	if st.State != "complete" || st.Done != 3000 {
		t.Fatalf("resumed run: %+v", st)
	}
	if sum := readText(t, cs, "game://experiments/"+st.ID+"/summary"); !strings.Contains(sum, `"win_rate"`) {
		t.Fatalf("summary %s", sum)
	}
	if list := readText(t, cs, "game://experiments"); !strings.Contains(list, st.ID) {
		t.Fatalf("list %s", list)
	}
	if msg := callErr(t, cs, "cancel_experiment", map[string]any{"experiment_id": "../etc"}); !strings.Contains(msg, "no experiment run") {
		t.Fatalf("a bad id: %s", msg)
	}
}

// run_tournament plays its games and ranks the entrants; win_probabilities
// estimates a game's odds, which add up to one.
func TestTournamentAndOdds(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	var tr struct {
		Games   int `json:"games"`
		Entries []struct {
			Bot   string  `json:"bot"`
			Share float64 `json:"win_share"`
		} `json:"entries"`
	}
	if err := mcptest.Call(ctx, cs, "run_tournament", map[string]any{"bots": []string{"baseline", "random"}, "games": 40, "rules": map[string]any{"max_rounds": 200}}, &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Games != 40 || len(tr.Entries) != 2 || tr.Entries[0].Bot != "baseline" || tr.Entries[0].Share < 0.8 {
		t.Fatalf("tournament %+v", tr)
	}
	for _, bad := range []map[string]any{{"bots": []string{"baseline"}, "games": 4}, {"bots": []string{"baseline", "nobody"}, "games": 4},
		{"bots": []string{"baseline", "random"}, "games": 0}} {
		if msg := callErr(t, cs, "run_tournament", bad); msg == "" {
			t.Errorf("%v accepted", bad)
		}
	}
	g := create(t, cs, oneHuman(5, "baseline"))
	var odds struct {
		Win     []float64 `json:"win"`
		Ties    float64   `json:"ties"`
		Samples int       `json:"samples"`
	}
	if err := mcptest.Call(ctx, cs, "win_probabilities", map[string]any{"game_id": g.GameID, "samples": 200}, &odds); err != nil {
		t.Fatal(err)
	}
	sum := odds.Ties
	for _, w := range odds.Win {
		sum += w
	}
	if odds.Samples != 200 || len(odds.Win) != len(g.Players) || math.Abs(sum-1) > 1e-9 {
		t.Fatalf("odds %+v", odds)
	}
	if msg := callErr(t, cs, "win_probabilities", map[string]any{"game_id": "nope"}); !strings.Contains(msg, "no game") {
		t.Fatalf("an unknown game: %s", msg)
	}
}

// A game's export holds every player's thoughts, and so does a fork's
// log: the connection that created the game reads, forks, replays,
// advances and deletes it; another one only with the research token,
// which a seat's token is not. What is refused changes nothing.
func TestOnlyTheCreatorSteers(t *testing.T) {
	tb := newTable(t, "")
	creator, other := tb.connect(t, nil), tb.connect(t, nil)
	g := create(t, creator, oneHuman(3, "shark"))
	if g.ResearchToken == "" {
		t.Fatal("create_game returned no research_token")
	}
	seat := g.Players[0].SeatToken
	uri := "game://" + g.GameID + "/export"
	if text := readText(t, creator, uri); !strings.Contains(text, `"log"`) {
		t.Fatalf("the creator's export: %.200s", text)
	}
	_, err := other.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err == nil || !strings.Contains(err.Error(), "thoughts") {
		t.Fatalf("another connection read the export: %v", err)
	}
	var res struct {
		Text string `json:"text"`
	}
	if err := mcptest.Call(context.Background(), other, "read_resource", map[string]any{"uri": uri, "token": seat}, &res); err == nil {
		t.Fatal("a seat's token read the export, every other seat's thoughts included")
	}
	if err := mcptest.Call(context.Background(), other, "read_resource", map[string]any{"uri": uri, "token": g.ResearchToken}, &res); err != nil {
		t.Fatalf("with the research token: %v", err)
	}
	entries := func() int {
		var st struct {
			Entries int `json:"entries"`
		}
		if err := mcptest.Call(context.Background(), creator, "get_decision", map[string]any{"game_id": g.GameID}, &st); err != nil {
			t.Fatal(err)
		}
		return st.Entries
	}
	before := entries()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"fork_game", map[string]any{"game_id": g.GameID}},
		{"fork_game", map[string]any{"game_id": g.GameID, "token": seat}},
		{"replay_game", map[string]any{"game_id": g.GameID, "turn": 0}},
		{"delete_game", map[string]any{"game_id": g.GameID, "token": seat}},
		{"advance_game", map[string]any{"game_id": g.GameID}},
		{"advance_game", map[string]any{"game_id": g.GameID, "token": "not-a-token"}},
		{"submit_decision", map[string]any{"game_id": g.GameID, "token": g.ResearchToken, "decision": `{"kind":"continue"}`}},
	} {
		if msg := callErr(t, other, c.tool, c.args); !strings.Contains(msg, "nothing changed") {
			t.Errorf("%s %v: %s", c.tool, c.args, msg)
		}
	}
	if entries() != before {
		t.Error("a refused call played on")
	}
	var forked created
	if err := mcptest.Call(context.Background(), other, "fork_game", map[string]any{"game_id": g.GameID, "token": g.ResearchToken}, &forked); err != nil {
		t.Fatalf("a fork with the research token: %v", err)
	}
	if err := mcptest.Call(context.Background(), other, "advance_game", map[string]any{"game_id": g.GameID, "token": seat}, nil); err != nil {
		t.Fatalf("advance with a seat token: %v", err)
	}
	if err := mcptest.Call(context.Background(), other, "delete_game", map[string]any{"game_id": g.GameID, "token": g.ResearchToken}, nil); err != nil {
		t.Fatalf("delete with the research token: %v", err)
	}
}

// TestProgramsAlike checks that every tool that seats players treats a
// program (exec:) alike: refused by a host that does not allow programs,
// with the host's reason, and passed to the host's registry, not refused
// by the schema, by one that does.
func TestProgramsAlike(t *testing.T) {
	const why = "start gopoly mcp with --allow-programs"
	marker := filepath.Join(t.TempDir(), "ran")
	prog := "exec:touch " + marker
	ctx := context.Background()
	for _, allowed := range []bool{false, true} {
		tb := newTableWith(t, "", gtable.Players(allowed, why))
		cs := tb.connect(t, nil)
		c := create(t, cs, oneHuman(1, "baseline"))
		seats := []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{"strategy": prog}}}
		calls := []struct {
			tool string
			args map[string]any
		}{
			{"create_game", map[string]any{"players": seats}},
			{"fork_game", map[string]any{"game_id": c.GameID, "at": 0, "players": []any{map[string]any{}, map[string]any{"ai": map[string]any{"strategy": prog}}, map[string]any{}, map[string]any{}}}},
			{"run_tournament", map[string]any{"bots": []string{"baseline", prog}, "games": 1}},
			{"start_experiment", map[string]any{"spec": "name: p\nseeds: {start: 1, count: 1, step: 1}\nvariants:\n  - {name: a, seats: [baseline, '" + prog + "']}\n"}},
		}
		for _, call := range calls {
			err := mcptest.Call(ctx, cs, call.tool, call.args, nil)
			switch {
			case !allowed && (err == nil || !strings.Contains(err.Error(), why)):
				t.Errorf("programs refused: %s: %v", call.tool, err)
			case allowed && err != nil && (strings.Contains(err.Error(), "arguments:") || strings.Contains(err.Error(), why)):
				t.Errorf("programs allowed: %s refused it: %v", call.tool, err)
			}
		}
		tb.close()
	}
}

// TestMonopolyMCPExperiment starts the experiment of monopoly-mcp's
// README (seed 000) with its arguments as they are written there, and
// checks what it was translated into: every variant on the seeds given,
// the override on the token's seat.
func TestMonopolyMCPExperiment(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	const example = `{
  "name": "baseline-vs-planning",
  "config_id": "default",
  "detail_level": "stats",
  "seed_range": {
    "start": 0,
    "count": 100,
    "step": 1
  },
  "variants": [
    { "name": "baseline" },
    {
      "name": "planning",
      "player_overrides": [
        {
          "token": "Battleship",
          "ai": {
            "strategy": "planning"
          }
        }
      ]
    }
  ]
}`
	var args map[string]any
	if err := json.Unmarshal([]byte(example), &args); err != nil {
		t.Fatal(err)
	}
	var st struct {
		ID         string `json:"id"`
		Experiment string `json:"experiment"`
		Total      int    `json:"total"`
		Spec       string `json:"spec"`
	}
	if err := mcptest.Call(ctx, cs, "start_experiment", args, &st); err != nil {
		t.Fatal(err)
	}
	if err := mcptest.Call(ctx, cs, "cancel_experiment", map[string]any{"experiment_id": st.ID}, nil); err != nil {
		t.Fatal(err)
	}
	if st.Experiment != "baseline-vs-planning" || st.Total != 200 {
		t.Errorf("started %q with %d games, want baseline-vs-planning with 200", st.Experiment, st.Total)
	}
	var spec struct {
		Detail string `yaml:"detail"`
		Seeds  struct {
			Start, Count, Step int
		} `yaml:"seeds"`
		Variants []struct {
			Name  string   `yaml:"name"`
			Seats []string `yaml:"seats"`
		} `yaml:"variants"`
	}
	if err := yaml.Unmarshal([]byte(st.Spec), &spec); err != nil {
		t.Fatal(err)
	}
	want := []string{"adaptive", "adaptive", "adaptive", "adaptive"}
	if spec.Detail != "stats" || spec.Seeds.Count != 100 || spec.Seeds.Step != 1 || len(spec.Variants) != 2 ||
		!slices.Equal(spec.Variants[0].Seats, want) || !slices.Equal(spec.Variants[1].Seats, append([]string{"planning"}, want[1:]...)) {
		t.Errorf("translated into:\n%s", st.Spec)
	}
	for _, bad := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"seed_range": map[string]any{"start": 0, "count": 5}, "name": "x", "variants": []any{map[string]any{"name": "a", "player_overrides": []any{map[string]any{"token": "Nobody", "ai": map[string]any{"strategy": "planning"}}}}}}, `token "Nobody" is not a player`},
		{map[string]any{"name": "x", "variants": []any{map[string]any{"name": "a"}}}, "seed_range is required"},
		{map[string]any{"name": "x", "seed_range": map[string]any{"start": 0, "count": 5}, "variants": []any{map[string]any{"name": "a"}}, "config_id": "nope"}, `config_id "nope"`},
		{map[string]any{"name": "x", "seed_range": map[string]any{"start": 0, "count": 5}, "variants": []any{map[string]any{"name": "a"}}, "detail_level": "everything"}, "detail"},
	} {
		if got := callErr(t, cs, "start_experiment", bad.args); !strings.Contains(got, bad.want) {
			t.Errorf("%v: %s, want %q", bad.args, got, bad.want)
		}
	}
}
