package extbot_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/extbot"
	"github.com/gopoly/gopoly/internal/citest"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
	"github.com/gopoly/gopoly/wire"
)

// sim plays games of bots at rules and fails the test on any error: a
// program's failure must never stop a game.
func sim(t *testing.T, rules string, games int, bots ...string) []arena.GameResult {
	t.Helper()
	c := arena.Config{Rules: monopolytest.Rules(t, rules), Players: len(bots), Bots: bots, Seed: 7, Games: games, Workers: 1}
	res, err := arena.Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// playGame plays one game of bots through agent.Driver, as tables do,
// and returns the seats' agents, closed.
func playGame(t *testing.T, r *monopoly.Rules, seed uint64, bots ...string) []agent.Agent {
	t.Helper()
	agents, err := play(r, seed, bots...)
	if err != nil {
		t.Fatal(err)
	}
	return agents
}

// play is playGame for goroutines other than the test's.
func play(r *monopoly.Rules, seed uint64, bots ...string) ([]agent.Agent, error) {
	agents := make([]agent.Agent, 0, len(bots))
	defer func() { agent.CloseAll(agents) }()
	for i, b := range bots {
		a, err := agent.New(b, i, agent.SeatSeed(seed, i))
		if err != nil {
			return nil, err
		}
		agents = append(agents, a)
	}
	d := agent.Driver{Agents: agents}
	_, _, err := d.Run(context.Background(), monopoly.New(r, len(bots), seed))
	return agents, err
}

func readLog(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// Programs that crash, hang, write garbage, answer illegally or speak
// another protocol never stop a game: the fallback answers, the program
// is told, and it is retired after its strikes. One that is late once
// is answered for that once, and its late answer is not taken for the
// next decision.
func TestFaultyPrograms(t *testing.T) {
	cases := []struct {
		mode      string
		want      []string // in the log
		wantNot   []string
		fallbacks bool
	}{
		{"good", nil, []string{"the fallback answers"}, false},
		{"noisy", []string{"thinking about decision 1"}, []string{"the fallback answers"}, false},
		{"crash", []string{"retired for the rest of the game", "exited or closed"}, nil, true},
		{"hang", []string{"code=timeout", "retired for the rest of the game"}, nil, true},
		{"garbage", []string{"code=bad_message", "refusal bad_message", "retired"}, nil, true},
		{"illegal", []string{"refusal not_owner", "retired"}, nil, true},
		{"slow", []string{"code=timeout"}, []string{"retired for the rest", "code=bad_message"}, true},
		{"badproto", []string{"speaks protocol 99"}, nil, true},
		{"lean", nil, []string{"the fallback answers", "lean: decide"}, false},
		{"chatty", []string{"code=bad_message", "refusal bad_message", "at most 1024"}, []string{"retired"}, true},
		{"badomit", []string{`asks to omit \"view\": it may omit text, notation, trade and events`}, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			log := filepath.Join(t.TempDir(), "bot.log")
			bot := helperBot(tc.mode, "decision=200ms strikes=2 log="+log)
			res := sim(t, "max_rounds: 20", 2, bot, "baseline", "baseline")
			for i, r := range res {
				if r.Rounds == 0 || r.Decisions == 0 {
					t.Errorf("game %d did not play: %+v", i, r)
				}
			}
			got := readLog(t, log)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("log lacks %q:\n%s", w, clipLog(got))
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("log has %q:\n%s", w, clipLog(got))
				}
			}
			if fb := strings.Contains(got, "the fallback answers"); fb != tc.fallbacks {
				t.Errorf("fallback answered: %v, want %v", fb, tc.fallbacks)
			}
			if tc.mode == "crash" && strings.Count(got, "retired for the rest of the game") != 2 {
				t.Errorf("a program that crashed should be started again for the next game and crash again:\n%s", clipLog(got))
			}
		})
	}
}

// Seat.Stats counts, by the helper program's mode, the decisions the
// fallback answered and the retirements: none for a program that plays
// well, one retirement and the rest of the game for one that exits at its
// fifth decision.
func TestSeatStatsByMode(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 20")
	for _, tc := range []struct {
		mode    string
		retired int
	}{{"good", 0}, {"crash", 1}} {
		log := filepath.Join(t.TempDir(), "bot.log")
		seats := playGame(t, r, 3, helperBot(tc.mode, "decision=1s log="+log), "baseline", "baseline")
		st := seats[0].(*extbot.Seat).Stats()
		fallbacks, retirements := st.TotalFallbacks, st.TotalRetirements
		if retirements != tc.retired || (tc.retired == 0) != (fallbacks == 0) || (tc.retired > 0 && fallbacks < 2) {
			t.Errorf("%s: %d fallback answers and %d retirements, want %d retirements and the fallbacks that go with them",
				tc.mode, fallbacks, retirements, tc.retired)
		}
	}
}

func clipLog(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "..."
	}
	return s
}

// A program that cannot be started is a fallback from the first
// decision, and the game goes on.
func TestMissingProgram(t *testing.T) {
	log := filepath.Join(t.TempDir(), "bot.log")
	sim(t, "max_rounds: 5", 1, "exec:log="+log+" /no/such/program", "baseline")
	if got := readLog(t, log); !strings.Contains(got, "starting") || !strings.Contains(got, "retired") {
		t.Errorf("log: %s", got)
	}
}

// Bad seat names are refused when named, with what is wrong, and start
// nothing.
func TestBadNames(t *testing.T) {
	for name, want := range map[string]string{
		"exec:":                     "no command",
		"exec:decision=2s":          "no command",
		"exec:decision=fast bot":    "decision",
		"exec:strikes=0 bot":        "strikes",
		"exec:fallback=nobody bot":  "unknown bot",
		"exec:fallback=exec:x bot":  "a program cannot stand in",
		"exec:'unterminated":        "unterminated",
		"tcp:localhost":             "HOST:PORT",
		"monopyly:":                 "no path",
		"monopyly:pkg=/no/such AI":  "holds no monopyly package",
		"monopyly:pkg= AI":          "want a Monopyly checkout",
		"exec:pkg=. bot":            "pkg= is for monopyly: seats",
		"tcp:dir=/tmp host:1":       "dir= is for exec: and monopyly:",
		"exec:dir=extbot_test.go x": "a directory, not a file",
		"nosuchscheme:x":            "unknown bot",
	} {
		_, err := agent.Lookup(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", name, err, want)
		}
	}
	b, err := agent.Lookup(`exec:fallback=cautious decision=1s python3 "my bot.py" -x`)
	if err != nil || !b.Outside || b.Name != `exec:fallback=cautious decision=1s python3 "my bot.py" -x` {
		t.Fatalf("%+v %v", b, err)
	}
	s, err := extbot.ParseSpec("exec", `fallback=cautious decision=1s python3 "my bot.py" -x`)
	if err != nil || strings.Join(s.Argv, "|") != "python3|my bot.py|-x" || s.Fallback != "cautious" || s.Decision.String() != "1s" {
		t.Errorf("%+v %v", s, err)
	}
}

var (
	goBotOnce sync.Once
	goBotPath string
	goBotErr  error
)

// goBot builds examples/bots/gobot once.
func goBot(t testing.TB) string {
	goBotOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gobot")
		if err != nil {
			goBotErr = err
			return
		}
		goBotPath = filepath.Join(dir, "gobot")
		out, err := exec.Command("go", "build", "-o", goBotPath, "../examples/bots/gobot").CombinedOutput()
		if err != nil {
			goBotErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if goBotErr != nil {
		t.Fatal(goBotErr)
	}
	return goBotPath
}

func python(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath(extbot.Python())
	if err != nil {
		unavailable(t, "python3 is not installed", "the Python SDK and the Monopyly host are")
	}
	return p
}

// unavailable stops a test that needs what is missing: outside CI it
// skips, saying what goes untested; in CI, which has everything the
// tests need, it fails.
func unavailable(t *testing.T, missing, untested string) {
	t.Helper()
	citest.Missing(t, missing+" on CI: .ci/run must provide it", missing+": "+untested+" not tested (CI has it)")
}

// The Go example bot plays whole games with no fallback: in a
// simulation, a tournament (results the same on a second run: the
// program answers alike), an experiment and under the speed die.
func TestGoBot(t *testing.T) {
	log := filepath.Join(t.TempDir(), "bot.log")
	bot := "exec:log=" + log + " " + goBot(t)
	res := sim(t, "max_rounds: 200", 3, bot, "baseline", "baseline", "baseline")
	if len(res) != 3 {
		t.Fatal(res)
	}
	sim(t, "{max_rounds: 100, speed_die: true}", 2, bot, "baseline")
	sim(t, "{max_rounds: 100, deal_protocol: sealed}", 2, bot, "baseline")

	if a, b := tournament(t, 4, bot, "baseline"), tournament(t, 4, bot, "baseline"); a != b {
		t.Errorf("the same tournament played differently:\n%s\n%s", a, b)
	}
	experiment(t, 3, bot, "baseline", "baseline")
	if got := readLog(t, log); strings.Contains(got, "the fallback answers") {
		t.Errorf("the Go bot was answered for:\n%s", clipLog(got))
	}
}

// tournament plays a tournament of games among bots, one seat each, and
// returns its games as JSON lines.
func tournament(t *testing.T, games int, bots ...string) string {
	t.Helper()
	tn, err := arena.NewTournament(arena.TournamentConfig{Rules: monopolytest.Rules(t, "max_rounds: 100"),
		Bots: bots, Players: len(bots), Games: games, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tn.Play(context.Background(), func(g arena.TournamentGame) error {
		return json.NewEncoder(&out).Encode(g)
	}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != games {
		t.Fatalf("%d games of %d played", n, games)
	}
	return out.String()
}

// experiment runs an experiment of one variant seating bots, rotated,
// over seeds games.
func experiment(t *testing.T, seeds int, bots ...string) {
	t.Helper()
	seats, _ := json.Marshal(bots)
	spec := fmt.Sprintf("name: ext\nseeds: {start: 1, count: %d}\nrules: {max_rounds: 100}\nvariants:\n  - name: ext\n    seats: %s\n    rotate: true\n", seeds, seats)
	e, err := arena.ParseExperiment("ext.yaml", []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Run(context.Background(), arena.RunOptions{Dir: t.TempDir(), Workers: 2})
	if err != nil || rep.Played != seeds {
		t.Fatalf("%+v %v", rep, err)
	}
}

// The Python example bot and a Monopyly-style AI through the host play a
// tournament and an experiment together.
func TestPythonAndMonopylyRuns(t *testing.T) {
	py := python(t)
	logs := t.TempDir()
	pyBot := fmt.Sprintf("exec:log=%s %s ../sdk/python/example_bot.py", filepath.Join(logs, "py.log"), py)
	ai := "monopyly:log=" + filepath.Join(logs, "ai.log") + " testdata/AIs/Trader"
	tournament(t, 3, pyBot, ai, "baseline")
	experiment(t, 2, pyBot, ai, "baseline")
	for _, l := range []string{"py.log", "ai.log"} {
		if got := readLog(t, filepath.Join(logs, l)); strings.Contains(got, "the fallback answers") {
			t.Errorf("%s: the fallback answered:\n%s", l, clipLog(got))
		}
	}
}

// A program that hangs after starting a process that keeps its stderr
// open neither holds up the game nor leaves that process running: the
// seat kills the program's whole process group.
func TestOrphanProcess(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("EXTBOT_ORPHAN_PID", pidFile)
	log := filepath.Join(t.TempDir(), "bot.log")
	sim(t, "max_rounds: 20", 1, helperBot("orphan", "decision=1s strikes=1 log="+log), "baseline")
	if !strings.Contains(readLog(t, log), "retired") {
		t.Fatalf("the program was not retired:\n%s", clipLog(readLog(t, log)))
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the orphan did not start: %v", err)
	}
	var pid int
	fmt.Sscan(string(data), &pid)
	for range 50 {
		// Gone, or dead and not yet reaped by whoever inherited it.
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("the program's process %d outlived it", pid)
}

// The Python example bot plays whole games through the SDK.
func TestPythonBot(t *testing.T) {
	py := python(t)
	log := filepath.Join(t.TempDir(), "bot.log")
	bot := fmt.Sprintf("exec:log=%s %s ../sdk/python/example_bot.py", log, py)
	sim(t, "max_rounds: 150", 2, bot, "baseline", "baseline", "baseline")
	sim(t, "{max_rounds: 60, deal_protocol: sealed, speed_die: true}", 1, bot, "baseline")
	if got := readLog(t, log); strings.Contains(got, "the fallback answers") {
		t.Errorf("the Python bot was answered for:\n%s", clipLog(got))
	}
}

// The Python SDK makes from a start's board and a decide's view the
// very snapshot gopoly makes (wire.ViewSnapshot), at decisions of games
// under several rules.
func TestPythonSnapshot(t *testing.T) {
	py := python(t)
	script := `import json, sys
sys.path.insert(0, "../sdk/python")
import gopoly_bot
for line in sys.stdin:
    m = json.loads(line)
    print(json.dumps(gopoly_bot.snapshot(m["start"], m["view"], m["decision"])))
`
	names := []string{"Ann", "", "Cy"}
	var in bytes.Buffer
	var want []wire.Snapshot
	for _, rules := range []string{"max_rounds: 120", "{max_rounds: 80, speed_die: true, deal_protocol: sealed, free_parking_jackpot: true}"} {
		r := monopolytest.Rules(t, rules)
		g := monopoly.New(r, 3, 11)
		bots := make([]agent.Agent, 3)
		for s := range bots {
			bots[s], _ = agent.New("planning", s, uint64(s))
		}
		start := map[string]any{"board": wire.NewBoard(r), "names": names}
		for n := 0; !g.Over(); n++ {
			v := g.View(g.Decider())
			if n%5 == 0 {
				line, _ := json.Marshal(map[string]any{"start": start, "view": wire.NewState(v), "decision": wire.NewDecision(v)})
				in.Write(append(line, '\n'))
				s := wire.ViewSnapshot(v, names)
				s.Options = nil
				want = append(want, s)
			}
			if err := g.Apply(bots[g.Decider()].Decide(v, g.Pending())); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if len(lines) != len(want) || len(want) < 50 {
		t.Fatalf("%d snapshots from Python, %d from Go", len(lines), len(want))
	}
	for i, l := range lines {
		var got, w any
		json.Unmarshal(l, &got)
		b, _ := json.Marshal(want[i])
		json.Unmarshal(b, &w)
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("snapshot %d:\n Python %s\n     Go %s", i, l, b)
		}
	}
}

// Monopyly-style AIs play whole games through the host: one that uses
// the whole interface, and one with the faults of contest entries
// (prints, exceptions, answers the rules refuse), which the host keeps
// from ever reaching gopoly.
func TestMonopylyHost(t *testing.T) {
	python(t)
	for _, ai := range []string{"Trader", "Broken"} {
		t.Run(ai, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "bot.log")
			bot := "monopyly:log=" + log + " testdata/AIs/" + ai
			sim(t, "{max_rounds: 150, deal_protocol: sealed}", 2, bot, "baseline", "baseline", "planning")
			got := readLog(t, log)
			if strings.Contains(got, "the fallback answers") {
				t.Errorf("the fallback answered for %s:\n%s", ai, clipLog(got))
			}
			switch ai {
			case "Trader":
				for _, call := range []string{"start_of_game=1", "game_over=1", "start_of_turn=", "player_landed_on_square=",
					"landed_on_unowned_property=", "property_offered_for_auction=", "build_houses=", "unmortgage_properties=", "propose_deal=", "money_given=", "money_taken="} {
					if !strings.Contains(got, call) {
						t.Errorf("the AI was not called %s:\n%s", call, clipLog(got))
					}
				}
			case "Broken":
				for _, w := range []string{"a print to stdout", "RuntimeError: a bug", "not a whole number", "propose_deal: the rules refuse"} {
					if !strings.Contains(got, w) {
						t.Errorf("log lacks %q:\n%s", w, clipLog(got))
					}
				}
			}
		})
	}
}

// recorder serves one helper mode over TCP and keeps every line each
// way, for the schema test.
type recorder struct {
	mu    sync.Mutex
	lines [][]byte
	conns sync.WaitGroup // a connection's reader, done at its end
}

func (rec *recorder) serve(t *testing.T, mode string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			rec.conns.Add(1)
			go func() {
				defer c.Close()
				pr, pw := io.Pipe()
				go func() {
					defer rec.conns.Done()
					sc := bufio.NewScanner(c)
					sc.Buffer(nil, 16<<20)
					for sc.Scan() {
						rec.add(sc.Bytes())
						pw.Write(append(sc.Bytes(), '\n'))
					}
					pw.Close()
				}()
				helperServe(mode, pr, writerFunc(func(b []byte) (int, error) {
					for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
						rec.add(l)
					}
					return c.Write(b)
				}))
			}()
		}
	}()
	return ln.Addr().String()
}

func (rec *recorder) add(b []byte) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.lines = append(rec.lines, bytes.Clone(b))
}

// The protocol over TCP: whole games, and every message each way valid
// against the documented schema, refusals and retirement included.
func TestTCPAndSchema(t *testing.T) {
	dec := func(b []byte) any {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return v
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(extbot.Schema, &s); err != nil {
		t.Fatal(err)
	}
	schema, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	for _, mode := range []string{"good", "illegal", "lean"} {
		var rec recorder
		addr := rec.serve(t, mode)
		log := filepath.Join(t.TempDir(), "bot.log")
		sim(t, "{max_rounds: 30, deal_protocol: sealed}", 2, "tcp:decision=2s log="+log+" "+addr, "baseline", "baseline")
		if mode != "illegal" && strings.Contains(readLog(t, log), "the fallback answers") {
			t.Errorf("over TCP the fallback answered:\n%s", clipLog(readLog(t, log)))
		}
		// The seat's last lines (retired, end) may still be on their way
		// to the recorder when the games are over: wait for each
		// connection the seat closed to be read to its end.
		read := make(chan struct{})
		go func() { rec.conns.Wait(); close(read) }()
		select {
		case <-read:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: a connection was still open 10 s after the games", mode)
		}
		rec.mu.Lock()
		for _, l := range rec.lines {
			v := dec(l)
			if err := schema.Validate(v); err != nil {
				t.Errorf("%s: %v", clipLog(string(l)), err)
			}
			types[fmt.Sprint(v.(map[string]any)["type"])]++
		}
		rec.mu.Unlock()
	}
	for _, ty := range []string{"start", "ready", "decide", "answer", "refusal", "retired", "end"} {
		if types[ty] == 0 {
			t.Errorf("no %s message was checked (%v)", ty, types)
		}
	}
	// The schema refuses what is not a message.
	for _, bad := range []string{`{"type":"answer","id":0,"action":{"kind":"buy"}}`, `{"type":"ready","protocol":1}`, `{"type":"ready","protocol":2,"omit":["view"]}`, `{"type":"hello"}`, `{"type":"answer","id":1}`} {
		if schema.Validate(dec([]byte(bad))) == nil {
			t.Errorf("the schema admits %s", bad)
		}
	}
}

// The seat hands the engine nothing illegal: every answer it returns is
// one View.Check accepts, whatever the program wrote (a direct check of
// the Seat, decision by decision, against an illegal program).
func TestSeatAnswersLegal(t *testing.T) {
	a, err := agent.New(helperBot("illegal", "decision=1s strikes=1000 log="+filepath.Join(t.TempDir(), "bot.log")), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.CloseAll([]agent.Agent{a})
	g := monopoly.New(monopoly.DefaultRules(), 2, 5)
	fb, _ := agent.New("baseline", 1, 2)
	for n := 0; n < 200 && !g.Over(); n++ {
		p := g.Decider()
		var act monopoly.Action
		if p == 0 {
			act = a.Decide(g.View(0), g.Pending())
		} else {
			act = fb.Decide(g.View(1), g.Pending())
		}
		if err := g.Apply(act); err != nil {
			t.Fatalf("decision %d: %v", n, err)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// A session seats a program as any bot: it plays the game to its end,
// and opening the session again replays the log without asking the
// program (or starting it), to the same digest.
func TestSession(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := filepath.Join(t.TempDir(), "bot.log")
	marker := filepath.Join(t.TempDir(), "starts") // a line each time the program starts
	seats, err := session.ParseSeats(fmt.Sprintf("exec:log=%s sh -c 'echo start >> %s; exec %s',baseline,hustler", log, marker, goBot(t)))
	if err != nil {
		t.Fatal(err)
	}
	m := session.NewManager(st, session.Options{})
	s, err := m.Create(ctx, session.Setup{Rules: "max_rounds: 60", Seed: 11, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(ctx, 0); err != nil {
		t.Fatal(err)
	}
	end := s.Status()
	if !end.Over {
		t.Fatalf("not over: %+v", end)
	}
	starts := func() int {
		data, _ := os.ReadFile(marker)
		return strings.Count(string(data), "start")
	}
	before := starts()
	if before == 0 {
		t.Fatal("the program never started: the test tests nothing")
	}
	if strings.Contains(readLog(t, log), "the fallback answers") {
		t.Errorf("the Go bot was answered for in a session:\n%s", clipLog(readLog(t, log)))
	}
	s2, err := session.NewManager(st, session.Options{}).Open(ctx, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := s2.Status(); got.Digest != end.Digest || !got.Over {
		t.Errorf("reopened: %+v, want %+v", got, end)
	}
	if _, err := s2.GameAt(end.Entries / 2); err != nil {
		t.Fatal(err)
	}
	if after := starts(); after != before {
		t.Errorf("reopening and replaying started the program %d more times", after-before)
	}
}
