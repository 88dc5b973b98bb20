package extbot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/extbot"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// A program gets the start-up budget, not the decision budget, to start
// and answer start with ready: one that takes 800ms to start and then
// answers at once plays with a 200ms decision budget. Its own startup=
// below that retires it, saying why.
func TestStartupBudget(t *testing.T) {
	log := filepath.Join(t.TempDir(), "bot.log")
	sim(t, "max_rounds: 20", 2, helperBot("slowstart", "decision=200ms strikes=1 log="+log), "baseline")
	if got := readLog(t, log); strings.Contains(got, "the fallback answers") {
		t.Errorf("a program slow to start was answered for:\n%s", clipLog(got))
	}
	log = filepath.Join(t.TempDir(), "bot.log")
	sim(t, "max_rounds: 5", 1, helperBot("slowstart", "decision=5s startup=300ms log="+log), "baseline")
	if got := readLog(t, log); !strings.Contains(got, "no ready within the start-up budget (startup=300ms)") {
		t.Errorf("startup=300ms did not retire a program that takes 800ms:\n%s", clipLog(got))
	}

	for name, want := range map[string]time.Duration{
		"exec:bot":                      extbot.DefaultStartup,
		"exec:decision=30s bot":         30 * time.Second,
		"exec:startup=1s decision=5s b": time.Second,
	} {
		scheme, arg, _ := strings.Cut(name, ":")
		s, err := extbot.ParseSpec(scheme, arg)
		if err != nil || s.Startup != want {
			t.Errorf("%s: startup %v (%v), want %v", name, s.Startup, err, want)
		}
	}
	if _, err := agent.Lookup("exec:startup=0 bot"); err == nil || !strings.Contains(err.Error(), "startup") {
		t.Errorf("startup=0: %v", err)
	}
}

// A program that exits while a process it started holds its stdout open
// is seen to have ended at once, not after its decision budget (30s
// here): the seat watches the process, not only the pipe.
func TestExitSeenThroughHeldPipe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process is watched on Linux only (pidfd)")
	}
	log := filepath.Join(t.TempDir(), "bot.log")
	c := arena.Config{Rules: monopolytest.Rules(t, "max_rounds: 20"), Players: 2, Seed: 7, Games: 1, Workers: 1,
		Bots: []string{helperBot("forkexit", "decision=30s strikes=1 log="+log), "baseline"}}
	done := make(chan error, 1)
	go func() {
		_, err := arena.Simulate(context.Background(), c, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the game still waits on a program that exited:\n%s", clipLog(readLog(t, log)))
	}
	got := readLog(t, log)
	if !strings.Contains(got, "retired for the rest of the game") || !strings.Contains(got, "exited or closed") || strings.Contains(got, "code=timeout") {
		t.Errorf("want the program retired as exited:\n%s", clipLog(got))
	}
}

// procStat reads a process's state and parent from /proc.
func procStat(pid int) (state string, ppid int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := strings.LastIndexByte(string(b), ')')
	if err != nil || i < 0 {
		return "", 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	ppid, _ = strconv.Atoi(f[1])
	return f[0], ppid, true
}

// readPid reads the pid a sleeper wrote.
func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the sleeper did not start: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone waits for process pid to be gone, reaped (not a zombie),
// and kills it if it is not.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	state := ""
	for range 150 {
		s, _, ok := procStat(pid)
		if !ok {
			return
		}
		state = s
		time.Sleep(20 * time.Millisecond)
	}
	if state != "Z" {
		killPid(pid)
	}
	t.Errorf("%s: process %d is still there (state %s)", what, pid, state)
}

func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// A process a program starts in a session of its own (out of its
// process group) is ended with the seat and reaped: when the program
// plays to the end of the run, and when it exits mid-game, leaving the
// process to gopoly, which adopts it (a child subreaper) and reaps it
// once killed.
func TestSetsidGrandchild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("processes out of the group are found on Linux only")
	}
	t.Run("run end", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		t.Setenv("EXTBOT_ORPHAN_PID", pidFile)
		log := filepath.Join(t.TempDir(), "bot.log")
		sim(t, "max_rounds: 20", 1, helperBot("setsid", "decision=2s log="+log), "baseline")
		if got := readLog(t, log); strings.Contains(got, "the fallback answers") {
			t.Fatalf("the program was answered for:\n%s", clipLog(got))
		}
		waitGone(t, readPid(t, pidFile), "after the run")
	})
	t.Run("program exits", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		t.Setenv("EXTBOT_ORPHAN_PID", pidFile)
		log := filepath.Join(t.TempDir(), "bot.log")
		a, err := agent.New(helperBot("setsidexit", "decision=2s strikes=1 log="+log), 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer agent.CloseAll([]agent.Agent{a})
		pid := 0
		playSeat(t, a, 5, func(n int) {
			if n != 2 {
				return
			}
			// The program answered its 2nd decision and exits: its
			// process is adopted by this one.
			pid = readPid(t, pidFile)
			for range 250 {
				if _, ppid, _ := procStat(pid); ppid == os.Getpid() {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
			_, ppid, _ := procStat(pid)
			t.Errorf("the orphan's parent is %d, not this process (%d): no subreaper", ppid, os.Getpid())
		})
		if !strings.Contains(readLog(t, log), "retired for the rest of the game") {
			t.Fatalf("the program was not retired:\n%s", clipLog(readLog(t, log)))
		}
		waitGone(t, pid, "after the program's retirement")
	})
}

// playSeat plays a two-player game, a in seat 0 and baseline in seat 1,
// calling after(n), if set, after a's n-th decision; it returns a's
// decisions.
func playSeat(t *testing.T, a agent.Agent, seed uint64, after func(n int)) int {
	t.Helper()
	g := monopoly.New(monopolytest.Rules(t, "max_rounds: 30"), 2, seed)
	fb, _ := agent.New("baseline", 1, seed)
	n := 0
	for !g.Over() {
		p := g.Decider()
		var act monopoly.Action
		if p == 0 {
			act = a.Decide(g.View(0), g.Pending())
		} else {
			act = fb.Decide(g.View(1), g.Pending())
		}
		if err := g.Apply(act); err != nil {
			t.Fatal(err)
		}
		if p == 0 {
			n++
			if after != nil {
				after(n)
			}
		}
	}
	return n
}

// The seat's log names each game by its number in the run, whichever
// worker's program played it and however often that program was
// started again: four games on two workers are games 0 to 3.
func TestLogGameNumbers(t *testing.T) {
	log := filepath.Join(t.TempDir(), "bot.log")
	c := arena.Config{Rules: monopolytest.Rules(t, "max_rounds: 20"), Players: 2, Seed: 7, Games: 4, Workers: 2,
		Bots: []string{helperBot("crash", "decision=2s log="+log), "baseline"}}
	if _, err := arena.Simulate(context.Background(), c, nil); err != nil {
		t.Fatal(err)
	}
	var games []int
	for _, m := range regexp.MustCompile(`retired for the rest of the game".*? game=(\d+)`).FindAllStringSubmatch(readLog(t, log), -1) {
		n, _ := strconv.Atoi(m[1])
		games = append(games, n)
	}
	slices.Sort(games)
	if !slices.Equal(games, []int{0, 1, 2, 3}) {
		t.Errorf("retirements logged in games %v, want 0 to 3:\n%s", games, clipLog(readLog(t, log)))
	}
}

// A seat counts the answers its fallback gave and its retirements, per
// game and in all, and the arena's results carry them by seat: a
// program that crashes at its 5th decision is answered for from then on.
func TestSeatStats(t *testing.T) {
	log := filepath.Join(t.TempDir(), "bot.log")
	a, err := agent.New(helperBot("crash", "decision=2s log="+log), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.CloseAll([]agent.Agent{a})
	s := a.(*extbot.Seat)
	var total int
	for game := range 2 {
		if game > 0 {
			s.Reset(0, uint64(game))
		}
		n := playSeat(t, a, uint64(game+3), nil)
		st := s.Stats()
		if n < 5 || st.Fallbacks != n-4 || st.Retirements != 1 {
			t.Errorf("game %d: %d decisions, stats %+v: want %d fallbacks and a retirement", game, n, st, n-4)
		}
		if acc := s.Account(); acc.Fallbacks != st.Fallbacks || acc.Retirements != 1 {
			t.Errorf("game %d: account %+v, stats %+v", game, acc, st)
		}
		total += st.Fallbacks
	}
	if st := s.Stats(); st.TotalFallbacks != total || st.TotalRetirements != 2 {
		t.Errorf("totals %+v, want %d fallbacks and 2 retirements", st, total)
	}

	res := sim(t, "max_rounds: 20", 2, helperBot("crash", "decision=2s log="+log), "baseline")
	for i, r := range res {
		if r.Accountable != 1 || r.Accounts[0].Retirements != 1 || r.Accounts[0].Fallbacks == 0 || r.Accounts[1] != (agent.Account{}) {
			t.Errorf("game %d: accounts %+v of seats %b", i, r.Accounts, r.Accountable)
		}
	}
	res = sim(t, "max_rounds: 20", 1, helperBot("good", "log="+log), "baseline")
	if r := res[0]; r.Accountable != 1 || r.Accounts[0] != (agent.Account{}) {
		t.Errorf("a program that played: accounts %+v of seats %b", r.Accounts, r.Accountable)
	}
	res = sim(t, "max_rounds: 20", 1, "baseline", "random")
	if res[0].Accountable != 0 {
		t.Errorf("bots alone: accounts of seats %b, want none", res[0].Accountable)
	}
}

// A seat made anew for each game (its fallback's parameters drawn per
// game) closes the last game's: no program is left running.
func TestSeatsMadeAnewAreClosed(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	bot := fmt.Sprintf("exec:log=%s sh -c 'echo $$ >> %s; exec %s extbot-helper good'", filepath.Join(dir, "bot.log"), pids, os.Args[0])
	params, err := agent.ParseSeatParams("p.yaml", []byte("all: {cash_reserve: {mean: 200, std: 50}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := arena.Config{Rules: monopolytest.Rules(t, "max_rounds: 10"), Players: 2, Seed: 7, Games: 3, Workers: 1,
		Bots: []string{bot, "baseline"}, Params: params}
	if _, err := arena.Simulate(context.Background(), c, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(pids)
	started := strings.Fields(string(b))
	if len(started) != 3 {
		t.Fatalf("%d programs started for 3 games, want one per game", len(started))
	}
	for _, p := range started {
		pid, _ := strconv.Atoi(p)
		waitGone(t, pid, "a program of an earlier game")
	}
}

// An experiment records, per player of each game, the answers a
// program's fallback gave and its retirement, and sums them per seat.
func TestExperimentFaults(t *testing.T) {
	log := filepath.Join(t.TempDir(), "bot.log")
	spec := "name: faults\nseeds: {start: 1, count: 3}\nrules: {max_rounds: 20}\nvariants:\n  - name: v\n    seats: [\"exec:log=" + log + " false\", baseline]\n"
	e, err := arena.ParseExperiment("faults.yaml", []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rep, err := e.Run(context.Background(), arena.RunOptions{Dir: dir, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, arena.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	fallbacks := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec arena.GameRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		p, q := rec.Players[0], rec.Players[1]
		if !p.Retired || p.Fallbacks == 0 || q.Retired || q.Fallbacks != 0 {
			t.Errorf("game %d: players %+v, %+v", rec.Game, p, q)
		}
		fallbacks += p.Fallbacks
	}
	seats := rep.Summary.Variants[0].Seats
	want := arena.Faults{Fallbacks: fallbacks, Retirements: 3, WinsWhileRetired: float64(seats[0].Wins)}
	if seats[0].Faults != want || seats[1].Faults != (arena.Faults{}) {
		t.Errorf("seat faults %+v and %+v, want %+v and none", seats[0].Faults, seats[1].Faults, want)
	}
}
