package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/mcpserver/mcptest"
)

// advanceTo advances game until its human seat must decide.
func advanceTo(t *testing.T, cs *mcp.ClientSession, game string) mcptest.Progress {
	t.Helper()
	var p mcptest.Progress
	if err := mcptest.Call(context.Background(), cs, "advance_game", map[string]any{"game_id": game}, &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != "awaitingDecision" || len(p.Legal) == 0 {
		t.Fatalf("after advance_game: status %s, %d legal answers", p.Status, len(p.Legal))
	}
	return p
}

// stateOf is the game's state resource, to compare before and after.
func stateOf(t *testing.T, cs *mcp.ClientSession, game string) string {
	return readText(t, cs, "game://"+game+"/state")
}

// TestBadInput calls each tool with input it must refuse, and checks
// that the error says what is wrong and that the game did not change.
func TestBadInput(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	c := create(t, cs, oneHuman(3, "baseline"))
	g := c.GameID
	advanceTo(t, cs, g)
	before := stateOf(t, cs, g)
	cases := []struct {
		tool string
		args any
		want string
	}{
		{"create_game", map[string]any{}, `players is missing`},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}}}, "minItems"},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{"strategy": "genius"}}}}, "genius"},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "A", "is_human": true}}}, `name "A" is taken`},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B"}}}, "oneOf"},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{"params": map[string]any{"bravery": 1}}}}}, "bravery"},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{}}}, "rules": "starting_cash: lots"}, "starting_cash"},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{}}}, "config_id": "nope"}, `config_id "nope": no such config`},
		{"create_game", map[string]any{"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{}}}, "colour": "red"}, "colour"},
		{"advance_game", map[string]any{"game_id": "feedfacecafe"}, `no game "feedfacecafe"`},
		{"advance_game", map[string]any{"game_id": g, "max_steps": -1}, "max_steps -1"},
		{"advance_game", map[string]any{"game_id": 12}, "game_id"},
		{"submit_decision", map[string]any{"game_id": g}, `missing properties: ["decision"]`},
		{"submit_decision", map[string]any{"game_id": g, "decision": map[string]any{"kind": "bid", "amount": 10}}, "Legal answers now"},
		{"submit_decision", map[string]any{"game_id": g, "decision": `{"kind":"purchaseProperty","buy":"maybe"}`}, `buy "maybe": want true or false`},
		{"submit_decision", map[string]any{"game_id": g, "decision": "{not json"}, "want a JSON object"},
		{"submit_decision", map[string]any{"game_id": g, "decision": 42}, "decision"},
		{"submit_decision", map[string]any{"game_id": g, "decision": map[string]any{"kind": "rollDice"}, "entries": 100000}, "stale_decision"},
		{"submit_decision", map[string]any{"game_id": g, "decision": map[string]any{"kind": "rollDice"}, "token": "0123"}, "bad_token"},
		{"replay_game", map[string]any{"game_id": g, "turn": 9999}, "turn 9999: game"},
		{"fork_game", map[string]any{"game_id": g, "at": 99999}, "at 99999"},
		{"fork_game", map[string]any{"game_id": g, "players": []any{map[string]any{}}}, "1 entries for a 4-player game"},
		{"delete_game", map[string]any{"game_id": "nope"}, `no game "nope"`},
		{"get_decision", map[string]any{"game_id": g, "token": "wrong"}, "bad_token"},
		{"read_resource", map[string]any{"uri": "game://" + g + "/nothing"}, "unknown resource"},
		{"read_resource", map[string]any{"uri": "game://" + g + "/history/deep/5"}, `depth "deep"`},
		{"read_resource", map[string]any{"uri": "game://" + g + "/history/full/x"}, `limit "x"`},
		{"read_resource", map[string]any{"uri": "game://" + g + "/events/-3"}, `since "-3"`},
		{"save_config", map[string]any{"yaml": "go_salary: 100"}, "give config_id, or a name"},
		{"save_config", map[string]any{"config_id": "default", "yaml": "go_salary: 100"}, `"default" is the standard rules`},
		{"save_config", map[string]any{"config_id": "Bad Id", "yaml": ""}, "config id"},
		{"save_config", map[string]any{"config_id": "x", "yaml": "go_salary: -5"}, "go_salary"},
		{"delete_config", map[string]any{"config_id": "nope"}, `config_id "nope": no such config`},
	}
	for _, c := range cases {
		if got := callErr(t, cs, c.tool, c.args); !strings.Contains(got, c.want) {
			t.Errorf("%s %v:\n  error %q\n  want it to contain %q", c.tool, c.args, got, c.want)
		}
	}
	if after := stateOf(t, cs, g); after != before {
		t.Errorf("refused calls changed the game:\nbefore %s\nafter  %s", before, after)
	}
	// A decision that does not fit is answered with the legal payloads in
	// both forms.
	got := callErr(t, cs, "submit_decision", map[string]any{"game_id": g, "decision": map[string]any{"kind": "auctionBid", "bid": 5}})
	for _, s := range []string{"refused (", "nothing changed", `{"kind":"continue"}`, `"kind":"rollDice"`} {
		if !strings.Contains(got, s) {
			t.Errorf("refusal %q lacks %q", got, s)
		}
	}
}

// TestSeatToken checks that answering for a seat needs its token: the
// connection that created the game holds it; another must pass it.
func TestSeatToken(t *testing.T) {
	tb := newTable(t, "")
	owner, other := tb.connect(t, nil), tb.connect(t, nil)
	c := create(t, owner, oneHuman(5, "baseline"))
	p := advanceTo(t, owner, c.GameID)
	decision := map[string]any{"game_id": c.GameID, "decision": p.Legal[0].Action}
	if got := callErr(t, other, "submit_decision", decision); !strings.Contains(got, "a seat token is needed to answer for Cat") {
		t.Errorf("without a token: %q", got)
	}
	// Another connection sees the decision as a spectator: no payloads.
	var d struct {
		Seat  int               `json:"seat"`
		Legal []json.RawMessage `json:"legal"`
	}
	if err := mcptest.Call(context.Background(), other, "get_decision", map[string]any{"game_id": c.GameID}, &d); err != nil {
		t.Fatal(err)
	}
	if d.Seat != -1 || len(d.Legal) != 0 {
		t.Errorf("a spectator's get_decision: seat %d, %d legal answers", d.Seat, len(d.Legal))
	}
	if text := readText(t, other, "game://"+c.GameID+"/legal-actions"); !strings.Contains(text, `"legal":[]`) || !strings.Contains(text, "Cat decides") {
		t.Errorf("legal-actions for a spectator: %s", text)
	}
	decision["token"] = c.Players[0].SeatToken
	if err := mcptest.Call(context.Background(), other, "submit_decision", decision, nil); err != nil {
		t.Errorf("with the seat's token: %v", err)
	}
}

// TestForkAndReplay forks games at a turn and at a decision.
func TestForkAndReplay(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	c := create(t, cs, oneHuman(8, "baseline"))
	if _, err := mcptest.Play(ctx, cs, c.GameID, "", mcptest.Gopoly, 30); err == nil {
		t.Fatal("the game ended within 30 decisions: pick another seed")
	}
	var turns struct {
		Turns []struct {
			Turn, At int
		} `json:"turns"`
	}
	if err := json.Unmarshal([]byte(readText(t, cs, "game://"+c.GameID+"/replay-turns")), &turns); err != nil || len(turns.Turns) < 5 {
		t.Fatalf("replay-turns: %v, %d turns", err, len(turns.Turns))
	}
	before := stateOf(t, cs, c.GameID)
	var r created
	var rr struct {
		At     int    `json:"at"`
		Parent string `json:"parent"`
	}
	args := map[string]any{"game_id": c.GameID, "turn": 4}
	if err := mcptest.Call(ctx, cs, "replay_game", args, &r); err != nil {
		t.Fatal(err)
	}
	mcptest.Call(ctx, cs, "replay_game", args, &rr)
	if rr.At != turns.Turns[4].At || rr.Parent != c.GameID || r.GameID == c.GameID || r.Players[0].SeatToken == "" {
		t.Errorf("replay_game at turn 4: at %d (want %d), parent %q, id %s", rr.At, turns.Turns[4].At, rr.Parent, r.GameID)
	}
	// Turn 0 is the start: the fork has no answers.
	var zero struct {
		State struct {
			Entries int `json:"entries"`
		} `json:"state"`
	}
	if err := mcptest.Call(ctx, cs, "replay_game", map[string]any{"game_id": c.GameID, "turn": 0}, &zero); err != nil || zero.State.Entries != 0 {
		t.Errorf("replay_game at turn 0: %v, %d entries", err, zero.State.Entries)
	}
	// fork_game at any decision, a bot taking the human's seat: the
	// fork then plays to the end on its own.
	var f created
	fork := map[string]any{"game_id": c.GameID, "at": 7, "players": []any{map[string]any{"ai": map[string]any{"strategy": "turtle"}}, map[string]any{}, map[string]any{}, map[string]any{}}}
	if err := mcptest.Call(ctx, cs, "fork_game", fork, &f); err != nil {
		t.Fatal(err)
	}
	if f.Players[0].Kind != "bot" || f.Players[0].Token != "Cat" || f.Players[1].Token != "Boot" {
		t.Errorf("fork's seats: %+v", f.Players)
	}
	var end mcptest.Progress
	if err := mcptest.Call(ctx, cs, "advance_game", map[string]any{"game_id": f.GameID}, &end); err != nil || end.Status != "completed" {
		t.Errorf("the all-bot fork: %v, status %s", err, end.Status)
	}
	if after := stateOf(t, cs, c.GameID); after != before {
		t.Error("forking changed the source game")
	}
	var del struct {
		Deleted bool `json:"deleted"`
	}
	if err := mcptest.Call(ctx, cs, "delete_game", map[string]any{"game_id": f.GameID}, &del); err != nil || !del.Deleted {
		t.Fatalf("delete_game: %v", err)
	}
	if got := callErr(t, cs, "advance_game", map[string]any{"game_id": f.GameID}); !strings.Contains(got, "no game") {
		t.Errorf("a deleted game: %q", got)
	}
}

// TestConfigs validates, saves, plays by and deletes a config.
func TestConfigs(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	var v struct {
		Valid      bool   `json:"valid"`
		Error      string `json:"error"`
		Normalized string `json:"normalized_yaml"`
		Summary    struct {
			StartingCash int      `json:"starting_cash"`
			Overrides    []string `json:"overrides"`
		} `json:"summary"`
	}
	if err := mcptest.Call(ctx, cs, "validate_config", map[string]any{"yaml": "starting_cash: 900\nauctions: maybe\n"}, &v); err != nil || v.Valid || !strings.Contains(v.Error, "auctions") || !strings.Contains(v.Error, "yaml:2") {
		t.Errorf("an invalid config: %v, %+v", err, v)
	}
	if err := mcptest.Call(ctx, cs, "validate_config", map[string]any{"yaml": "starting_cash: 900\nmax_rounds: 40\n"}, &v); err != nil || !v.Valid ||
		v.Summary.StartingCash != 900 || strings.Join(v.Summary.Overrides, ",") != "max_rounds,starting_cash" || !strings.Contains(v.Normalized, "starting_cash: 900") {
		t.Errorf("a valid config: %v, %+v", err, v)
	}
	var saved struct {
		ConfigID string `json:"config_id"`
	}
	if err := mcptest.Call(ctx, cs, "save_config", map[string]any{"name": "Short Game!", "yaml": "starting_cash: 900\nmax_rounds: 40\n"}, &saved); err != nil || saved.ConfigID != "short-game" {
		t.Fatalf("save_config: %v, id %q", err, saved.ConfigID)
	}
	if text := readText(t, cs, "game://configs"); !strings.Contains(text, `"config_id":"short-game"`) || !strings.Contains(text, `"config_id":"default"`) {
		t.Errorf("game://configs: %s", text)
	}
	if text := readText(t, cs, "game://configs/short-game/yaml"); !strings.Contains(text, "starting_cash: 900") || !strings.Contains(text, "Boardwalk") {
		t.Errorf("the config's whole rules: %.200s", text)
	}
	c := create(t, cs, map[string]any{"config_id": "short-game", "players": []any{
		map[string]any{"ai": map[string]any{"strategy": "baseline"}}, map[string]any{"ai": map[string]any{"strategy": "turtle"}}}})
	var state struct {
		View struct {
			Players []struct {
				Cash int `json:"cash"`
			} `json:"players"`
		} `json:"view"`
	}
	json.Unmarshal([]byte(stateOf(t, cs, c.GameID)), &state)
	if state.View.Players[0].Cash != 900 {
		t.Errorf("a game by the config starts with $%d", state.View.Players[0].Cash)
	}
	var end mcptest.Progress
	if err := mcptest.Call(ctx, cs, "advance_game", map[string]any{"game_id": c.GameID}, &end); err != nil || end.Status != "completed" || end.Round > 41 {
		t.Errorf("a game of 40 rounds: %v, %s in round %d", err, end.Status, end.Round)
	}
	if err := mcptest.Call(ctx, cs, "delete_config", map[string]any{"config_id": "short-game"}, nil); err != nil {
		t.Fatal(err)
	}
	if text := readText(t, cs, "game://configs"); strings.Contains(text, "short-game") {
		t.Error("a deleted config is still listed")
	}
	// Rules overrides given to create_game directly, as an object; an
	// advance of a few answers at a time.
	c = create(t, cs, map[string]any{"rules": map[string]any{"go_salary": 50}, "max_rounds": 3, "players": []any{
		map[string]any{"ai": map[string]any{}}, map[string]any{"ai": map[string]any{}}}})
	var step struct {
		Status  string `json:"status"`
		Played  int    `json:"played"`
		Entries int    `json:"entries"`
	}
	if err := mcptest.Call(ctx, cs, "advance_game", map[string]any{"game_id": c.GameID, "max_steps": 5}, &step); err != nil ||
		step.Status != "ready" || step.Played != 5 || step.Entries != 5 {
		t.Errorf("advance_game with max_steps 5: %v, %+v", err, step)
	}
	if err := mcptest.Call(ctx, cs, "advance_game", map[string]any{"game_id": c.GameID}, &end); err != nil || end.Status != "completed" || end.Round > 4 {
		t.Errorf("a game of 3 rounds: %v, %s in round %d", err, end.Status, end.Round)
	}
}

// TestResources reads every resource and template of a game in play.
func TestResources(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	c := create(t, cs, oneHuman(11, "shark"))
	if _, err := mcptest.Play(ctx, cs, c.GameID, "", mcptest.MCPObject, 12); err == nil {
		t.Fatal("the game ended within 12 decisions")
	}
	g := "game://" + c.GameID
	want := map[string][]string{
		"game://sessions":                  {c.GameID, `"status":"awaitingDecision"`},
		"game://active-decisions":          {c.GameID},
		"game://monitoring":                {`"submit_decision":{"calls":`, `"2026-07-28"`},
		"game://configs":                   {`"default"`},
		"game://configs/default":           {`"starting_cash":1500`},
		"game://configs/default/yaml":      {"go_salary: 200"},
		"game://configs/default/annotated": {"# Default rules of gopoly"},
		"game://config-schema":             {`"deal_protocol"`, `"enum":["open","sealed"]`, "failed rolls in jail"},
		"game://config-docs":               {"| `jail_turns` | 3 |", "ADVANCE_TO"},
		g + "/state":                       {`"board":`, "Boardwalk", `"status":"awaitingDecision"`},
		g + "/board.svg":                   {"<svg"},
		g + "/decision":                    {`"question":`, `"example":`},
		g + "/legal-actions":               {`"legal":[{`, `"payload":`},
		g + "/replay-turns":                {`"turns":[{"turn":0`},
		g + "/history/summary":             {`"depth":"summary"`, "rolls"},
		g + "/history/stats":               {`"rent_paid"`},
		g + "/history/full":                {`"kind":"turn_start"`},
		g + "/history/summary/3":           {`"depth":"summary"`},
		g + "/activity-trace":              {`"by":"mcp"`, `"by":"bot:shark"`},
		g + "/events/0":                    {`"since":0`, `"seq":0`},
		g + "/transcript":                  {":"},
		g + "/export":                      {`"format": "gopoly-session"`},
		"ui://gopoly/table.html":           {"ui/initialize", "tools/call", "submit_decision"},
	}
	for uri, subs := range want {
		text := readText(t, cs, uri)
		for _, s := range subs {
			if !strings.Contains(text, s) {
				t.Errorf("%s lacks %q: %.300s", uri, s, text)
			}
		}
	}
	var hist struct {
		Events []json.RawMessage `json:"events"`
	}
	json.Unmarshal([]byte(readText(t, cs, g+"/history/full/7")), &hist)
	if len(hist.Events) != 7 {
		t.Errorf("history/full/7: %d events", len(hist.Events))
	}
	// The templates and the listed resources.
	tmpls := map[string]bool{}
	for tmpl, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tmpls[tmpl.URITemplate] = true
	}
	for _, p := range []string{"game://{id}/state", "game://{id}/board.svg", "game://{id}/decision", "game://{id}/legal-actions",
		"game://{id}/replay-turns", "game://{id}/history/summary", "game://{id}/history/stats", "game://{id}/history/full",
		"game://{id}/history/{depth}/{limit}", "game://{id}/activity-trace", "game://{id}/events/{since}", "game://{id}/transcript",
		"game://{id}/export", "game://configs/{id}", "game://configs/{id}/yaml"} {
		if !tmpls[p] {
			t.Errorf("no template %s", p)
		}
	}
	listed := map[string]string{}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed[r.URI] = r.MIMEType
	}
	for _, u := range []string{"game://sessions", "game://active-decisions", "game://monitoring", "game://configs",
		"game://configs/default/annotated", "game://config-schema", "game://config-docs", g + "/state", g + "/board.svg"} {
		if _, ok := listed[u]; !ok {
			t.Errorf("%s is not listed", u)
		}
	}
	if listed["ui://gopoly/table.html"] != "text/html;profile=mcp-app" {
		t.Errorf("the app's MIME type: %q", listed["ui://gopoly/table.html"])
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "game://feedfacecafe/state"}); err == nil || !strings.Contains(err.Error(), `no game "feedfacecafe"`) {
		t.Errorf("an unknown game's state: %v", err)
	}
	// The tools that show the game link to the app.
	tools, _ := cs.ListTools(ctx, nil)
	for _, tool := range tools.Tools {
		ui, _ := tool.Meta["ui"].(map[string]any)
		linked := ui["resourceUri"] == "ui://gopoly/table.html"
		if want := tool.Name == "create_game" || tool.Name == "advance_game"; want && !linked {
			t.Errorf("%s is not linked to the app: %v", tool.Name, tool.Meta)
		}
	}
}

// TestPrompts gets each prompt.
func TestPrompts(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "play-game", Arguments: map[string]string{"token": "Cat", "opponents": "Battleship,Boot"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Messages[0].Content.(*mcp.TextContent).Text
	for _, s := range []string{"You are Cat", "Battleship, Boot", `"token":"Battleship"`, "create_game", "advance_game", "submit_decision"} {
		if !strings.Contains(text, s) {
			t.Errorf("play-game lacks %q:\n%s", s, text)
		}
	}
	if res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "create-custom-config", Arguments: map[string]string{"idea": "no auctions"}}); err != nil {
		t.Fatal(err)
	}
	if text := res.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(text, "no auctions") || !strings.Contains(text, "validate_config") {
		t.Errorf("create-custom-config: %s", text)
	}
	if res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "start-monte-carlo-experiment", Arguments: map[string]string{"question": "speed die or not", "games": "300"}}); err != nil {
		t.Fatal(err)
	}
	if text := res.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(text, "speed die or not") || !strings.Contains(text, "count: 300") || !strings.Contains(text, "start_experiment") {
		t.Errorf("start-monte-carlo-experiment: %s", text)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "start-monte-carlo-experiment", Arguments: map[string]string{"question": "x", "games": "lots"}}); err == nil {
		t.Error("start-monte-carlo-experiment with games lots: no error")
	}
	for _, bad := range []map[string]string{{}, {"token": "Cat", "strategy": "genius"}, {"token": "Cat", "colour": "red"}} {
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "play-game", Arguments: bad}); err == nil {
			t.Errorf("play-game %v: no error", bad)
		}
	}
}

// TestSubscriptions subscribes to a game's resources and the lists, and
// waits for the notifications that an answer and a new game send.
func TestSubscriptions(t *testing.T) {
	tb := newTable(t, "")
	updated := make(chan string, 100)
	listChanged := make(chan struct{}, 100)
	cs := tb.connect(t, &mcp.ClientOptions{
		ResourceUpdatedHandler:     func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { offer(updated, r.Params.URI) },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { offer(listChanged, struct{}{}) },
	})
	watcher := tb.connect(t, nil) // plays meanwhile, from another connection
	ctx := context.Background()
	c := create(t, watcher, oneHuman(13, "baseline"))
	waitFor(t, listChanged, "a resources list_changed after create_game")
	for _, uri := range []string{"game://" + c.GameID + "/state", "game://" + c.GameID + "/history/summary/5", "game://sessions"} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	p := advanceTo(t, watcher, c.GameID)
	if err := mcptest.Call(ctx, watcher, "submit_decision", map[string]any{"game_id": c.GameID, "decision": p.Legal[0].Action}, nil); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	deadline := time.After(10 * time.Second)
	for !got["game://"+c.GameID+"/state"] || !got["game://"+c.GameID+"/history/summary/5"] || !got["game://sessions"] {
		select {
		case uri := <-updated:
			got[uri] = true
		case <-deadline:
			t.Fatalf("notifications received: %v", got)
		}
	}
	if got["game://"+c.GameID+"/board.svg"] {
		t.Error("notified of a resource it did not subscribe to")
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "game://" + c.GameID + "/state"}); err != nil {
		t.Fatal(err)
	}
	// resources/subscribe of the older protocol versions answers at once:
	// a resource that is not there is an error.
	legacy := tb.connect(t, nil, "2025-06-18")
	for _, uri := range []string{"game://feedfacecafe/state", "game://sessions/extra", "http://example.com/"} {
		if err := legacy.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err == nil {
			t.Errorf("subscribing to %s: no error", uri)
		}
	}
	if err := legacy.Subscribe(ctx, &mcp.SubscribeParams{URI: "game://" + c.GameID + "/events/3"}); err != nil {
		t.Errorf("subscribing to a game's events: %v", err)
	}
}

// offer sends v unless ch is full: a notification handler must not
// block the client's connection.
func offer[T any](ch chan<- T, v T) {
	select {
	case ch <- v:
	default:
	}
}

func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s", what)
	}
	var zero T
	return zero
}

// TestRestartResume plays part of a game, stops the server, starts
// another on the same store and plays the game to the end with the
// seat's token, from a new connection.
func TestRestartResume(t *testing.T) {
	dir := t.TempDir()
	tb := newTable(t, dir)
	cs := tb.connect(t, nil)
	ctx := context.Background()
	c := create(t, cs, oneHuman(21, "baseline"))
	if _, err := mcptest.Play(ctx, cs, c.GameID, "", mcptest.MCPString, 15); err == nil {
		t.Fatal("the game ended within 15 decisions")
	}
	before := stateOf(t, cs, c.GameID)
	cs.Close()
	tb.close()

	tb2 := newTable(t, dir)
	cs2 := tb2.connect(t, nil)
	if after := stateOf(t, cs2, c.GameID); after != before {
		t.Fatalf("the game changed across the restart:\n%s\n%s", before, after)
	}
	// The new connection does not hold the token: it must pass it.
	if got := callErr(t, cs2, "submit_decision", map[string]any{"game_id": c.GameID, "decision": map[string]any{"kind": "rollDice"}}); !strings.Contains(got, "seat token is needed") {
		t.Errorf("after a restart, without the token: %q", got)
	}
	r, err := mcptest.Play(ctx, cs2, c.GameID, c.Players[0].SeatToken, mcptest.Gopoly, 5000)
	if err != nil {
		t.Fatal(err)
	}
	if r.Final.Status != "completed" {
		t.Errorf("after the restart: %s", r.Final.Status)
	}
}

// TestGetDecisionAndTokens reads the decision as its seat and lists the
// tokens and bots.
func TestGetDecisionAndTokens(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	c := create(t, cs, oneHuman(17, "baseline"))
	advanceTo(t, cs, c.GameID)
	var d struct {
		Seat     int             `json:"seat"`
		YourTurn bool            `json:"your_turn"`
		Legal    []mcptest.Legal `json:"legal"`
		Schema   map[string]any  `json:"schema"`
		Board    string          `json:"board"`
		Decider  map[string]any  `json:"decider"`
		Options  map[string]any  `json:"options"`
		View     map[string]any  `json:"view"`
		Question string          `json:"question"`
	}
	if err := mcptest.Call(ctx, cs, "get_decision", map[string]any{"game_id": c.GameID}, &d); err != nil {
		t.Fatal(err)
	}
	if d.Seat != 0 || !d.YourTurn || len(d.Legal) == 0 || d.Schema["$schema"] == nil || !strings.Contains(d.Board, "Cat") ||
		d.Decider["name"] != "Cat" || d.Options == nil || d.Question == "" {
		t.Errorf("get_decision as the seat: %+v", d)
	}
	var tokens struct {
		Tokens     []string `json:"tokens"`
		Strategies []struct {
			Name string `json:"name"`
		} `json:"strategies"`
		Params []string `json:"params"`
	}
	if err := mcptest.Call(ctx, cs, "list_tokens", nil, &tokens); err != nil {
		t.Fatal(err)
	}
	names := ""
	for _, s := range tokens.Strategies {
		names += s.Name + " "
	}
	if len(tokens.Tokens) < 4 || !strings.Contains(names, "shark ") || !strings.Contains(names, "baseline ") || len(tokens.Params) == 0 {
		t.Errorf("list_tokens: %+v", tokens)
	}
}

// TestEchoesCapped sends inputs of a megabyte where each tool quotes its
// input in an error, and checks that the error quotes at most about 100
// characters of it, with its length.
func TestEchoesCapped(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	c := create(t, cs, oneHuman(3, "baseline"))
	g := c.GameID
	advanceTo(t, cs, g)
	big := strings.Repeat("x", 1<<20)
	two := func(a, b string) map[string]any {
		return map[string]any{"players": []any{map[string]any{"token": a, "is_human": true}, map[string]any{"token": b, "ai": map[string]any{}}}}
	}
	cases := []struct {
		tool string
		args map[string]any
	}{
		{"submit_decision", map[string]any{"game_id": g, "decision": big}},
		{"submit_decision", map[string]any{"game_id": g, "decision": "{" + big}},
		{"submit_decision", map[string]any{"game_id": g, "decision": map[string]any{"kind": big}}},
		{"submit_decision", map[string]any{"game_id": g, "decision": map[string]any{"kind": "purchaseProperty", "buy": big}}},
		{"submit_decision", map[string]any{"game_id": g, "decision": map[string]any{"kind": "auctionBid", "bid": big}}},
		{"submit_decision", map[string]any{"game_id": big, "decision": "buy"}},
		{"advance_game", map[string]any{"game_id": big}},
		{"read_resource", map[string]any{"uri": "game://" + big}},
		{"read_resource", map[string]any{"uri": "game://" + g + "/history/full/" + big}},
		{"create_game", two("A", big)},
		{"create_game", map[string]any{"players": two("A", "B")["players"], "config_id": big}},
		{"create_game", map[string]any{"players": two("A", "B")["players"], "rules": big + ": 1"}},
		{"save_config", map[string]any{"config_id": big, "yaml": ""}},
		{"delete_config", map[string]any{"config_id": big}},
		{"cancel_experiment", map[string]any{"experiment_id": big}},
		{"start_experiment", map[string]any{"resume": big}},
	}
	for _, c := range cases {
		got := callErr(t, cs, c.tool, c.args)
		if len(got) > 2000 || strings.Contains(got, strings.Repeat("x", 120)) {
			t.Errorf("%s: an error of %d bytes echoes the input: %.300s", c.tool, len(got), got)
		}
	}
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "game://" + big})
	if err == nil || len(err.Error()) > 2000 {
		t.Errorf("resources/read of a long uri: an error of %d bytes", len(fmt.Sprint(err)))
	}
}

// TestErrorsHideTheDataDirectory checks that errors about what the store
// lacks, or cannot read, do not give a client the data directory's path.
func TestErrorsHideTheDataDirectory(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	two := []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{}}}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"advance_game", map[string]any{"game_id": "feedfacecafe"}},
		{"delete_config", map[string]any{"config_id": "nope"}},
		{"create_game", map[string]any{"players": two, "config_id": "nope"}},
		{"read_resource", map[string]any{"uri": "game://configs/nope"}},
	} {
		if got := callErr(t, cs, c.tool, c.args); strings.Contains(got, tb.dir) {
			t.Errorf("%s: the error gives the data directory: %s", c.tool, got)
		}
	}
}

// TestMonopolyMCPConfig validates and saves a config in monopoly-mcp's
// keys and action DSL (seed 000), plays a game by it, and checks what it
// was read as.
func TestMonopolyMCPConfig(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	ctx := context.Background()
	const config = `rules:
  enable_auctions: false
  bank_free_parking: true
speed_die:
  faces: [1, 2, 3, bus, bus, mr_monopoly]
chance_deck:
  - player_action: ADVANCE_TO 0
    text: Advance to GO
  - player_action: ADVANCE_TO next(unowned_purchaseable, rent_owed_purchaseable)
  - player_action: PAY property_multiplier(25,100)
  - player_action: RECEIVE 10 all_players
  - player_action: ADD_JAIL_FREE
  - player_action: NOOP
ai:
  model_parameters:
    cash_reserve_percentage: {mean: 20, std_dev: 5}
`
	var v struct {
		Valid      bool     `json:"valid"`
		Error      string   `json:"error"`
		Translated string   `json:"translated_yaml"`
		Notes      []string `json:"notes"`
		Summary    struct {
			Auctions bool `json:"auctions"`
			Cards    int  `json:"cards"`
		} `json:"summary"`
	}
	if err := mcptest.Call(ctx, cs, "validate_config", map[string]any{"yaml": config}, &v); err != nil {
		t.Fatal(err)
	}
	if !v.Valid || v.Summary.Auctions || !strings.Contains(v.Translated, "ADVANCE_TO NEXT unowned OR NEXT rent_owed") || len(v.Notes) < 2 {
		t.Fatalf("validate_config: %+v", v)
	}
	var c struct {
		ConfigID string `json:"config_id"`
	}
	if err := mcptest.Call(ctx, cs, "save_config", map[string]any{"yaml": config, "name": "mcp style"}, &c); err != nil {
		t.Fatal(err)
	}
	args := oneHuman(4, "baseline")
	args["config_id"] = c.ConfigID
	args["max_rounds"] = 20
	g := create(t, cs, args)
	if _, err := mcptest.Play(ctx, cs, g.GameID, "", mcptest.MCPObject, 2000); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ yaml, want string }{
		{"chance_deck:\n  - player_action: SET_JAIL false\n", "chance_deck[0].player_action: SET_JAIL false"},
		{"rules:\n  enable_auctions: maybe\n", "auctions"},
		{"action_cells:\n  - player_action: NOOP\n", "action_cells"},
	} {
		if err := mcptest.Call(ctx, cs, "validate_config", map[string]any{"yaml": bad.yaml}, &v); err != nil || v.Valid || !strings.Contains(v.Error, bad.want) {
			t.Errorf("%q: %+v %v, want an error with %q", bad.yaml, v, err, bad.want)
		}
	}
}

// TestCreateGameElicits calls create_game without players from a client
// that shows forms: the server asks for the table, and makes the game
// the user set up; a declined form creates nothing, and a client without
// forms is told to give players.
func TestCreateGameElicits(t *testing.T) {
	// The newest protocol asks through the tool's result (inputRequests);
	// an older one by a request of the server's.
	for _, version := range []string{"2026-07-28", "2025-06-18"} {
		t.Run(version, func(t *testing.T) { testCreateGameElicits(t, version) })
	}
}

func testCreateGameElicits(t *testing.T, version string) {
	tb := newTable(t, "")
	answer := "accept"
	var asked []string
	cs := tb.connect(t, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		data, _ := json.Marshal(r.Params.RequestedSchema)
		asked = append(asked, string(data))
		if answer != "accept" {
			return &mcp.ElicitResult{Action: answer}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"token": "Cat", "opponents": 2, "strategy": "shark", "seed": 9}}, nil
	}}, version)
	c := create(t, cs, map[string]any{})
	if len(asked) != 1 || !strings.Contains(asked[0], `"opponents"`) {
		t.Fatalf("asked %v", asked)
	}
	if c.Seed != 9 || len(c.Players) != 3 || c.Players[0].Token != "Cat" || c.Players[0].Kind != "mcp" || c.Players[1].Kind != "bot" {
		t.Fatalf("created %+v", c)
	}
	before := readText(t, cs, "game://sessions")
	answer = "decline"
	if got := callErr(t, cs, "create_game", map[string]any{}); !strings.Contains(got, "nothing was created") {
		t.Errorf("declined: %s", got)
	}
	if after := readText(t, cs, "game://sessions"); after != before {
		t.Error("a declined form created a game")
	}
	plain := tb.connect(t, nil, version)
	if got := callErr(t, plain, "create_game", map[string]any{}); !strings.Contains(got, "players is missing") {
		t.Errorf("a client without forms: %s", got)
	}
}
