package session_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// TestMain lets the kill test run the test binary as a player process.
func TestMain(m *testing.M) {
	if dir := os.Getenv("GOPOLY_KILL_CHILD"); dir != "" {
		os.Exit(killChild(dir, os.Getenv("GOPOLY_KILL_SESSION")))
	}
	os.Exit(m.Run())
}

// killSeats and killSeed are the game the kill test plays: a person
// (answered by a stand-in bot) against three personalities, whose state
// must survive every restart.
const (
	killSeats = "human,shark,professor,hustler"
	killSeed  = 21
)

// killChild opens the session and plays it on, printing "ack N" once the
// log holds N answers durably, until the game is over.
func killChild(dir, id string) int {
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	s, err := session.NewManager(st, session.Options{}).Open(ctx, id)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	person := killPerson()
	tok := s.Tokens().Seats[0]
	p, err := s.Advance(ctx, 0)
	for err == nil && !p.Over {
		fmt.Printf("ack %d\n", p.Entries)
		g := s.Game()
		p, err = s.Submit(ctx, tok, agent.Answer{Action: person.Decide(g.View(0), g.Pending()), Speech: "my move"})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	fmt.Printf("ack %d\nover\n", p.Entries)
	return 0
}

// killPerson is the stand-in for the person at seat 0, made anew in
// every process. Its answers depend on the position only, as a person's
// would not depend on the process: a baseline whose group_rounds is set
// does not change its valuation on what was proposed to it earlier in
// the game, and its memos do not change its answers.
func killPerson() agent.Agent {
	b, err := agent.Lookup("baseline")
	if err != nil {
		panic(err)
	}
	p := b.Defaults
	p.GroupRounds = worth.IncomeRounds
	return b.Make(p, 0, agent.SeatSeed(killSeed, 0))
}

// A process playing a session is killed with SIGKILL at 25 points of the
// game and restarted each time: no acknowledged answer is lost, and the
// game ends as the same game played without a break.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a process 25 times")
	}
	whole := session.NewManager(openStore(t), session.Options{})
	w, err := whole.Create(ctx, setup(killSeed, killSeats))
	if err != nil {
		t.Fatal(err)
	}
	tok := w.Tokens().Seats[0]
	person := killPerson()
	p, err := w.Advance(ctx, 0)
	for err == nil && !p.Over {
		g := w.Game()
		p, err = w.Submit(ctx, tok, agent.Answer{Action: person.Decide(g.View(0), g.Pending()), Speech: "my move"})
	}
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.NewManager(st, session.Options{}).Create(ctx, setup(killSeed, killSeats))
	if err != nil {
		t.Fatal(err)
	}
	id := s.ID()
	st.Close()

	rng := rand.New(rand.NewPCG(killSeed, 1))
	kills, acked := 0, 0
	for runs := 0; ; runs++ {
		if runs > 200 {
			t.Fatal("the game did not end in 200 runs")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "GOPOLY_KILL_CHILD="+dir, "GOPOLY_KILL_SESSION="+id)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill after a random number of acknowledged answers, before the
		// first or in the middle of play; the last runs go to the end.
		killAfter := -1
		if kills < 25 {
			killAfter = rng.IntN(8)
		}
		lines, over := bufio.NewScanner(out), false
		for n := 0; lines.Scan(); n++ {
			line := lines.Text()
			if line == "over" {
				over = true
				continue
			}
			k, err := strconv.Atoi(strings.TrimPrefix(line, "ack "))
			if err != nil {
				t.Fatalf("child said %q", line)
			}
			if k < acked {
				t.Fatalf("run %d: %d answers stored, but %d were acknowledged before", runs, k, acked)
			}
			acked = k
			if n == killAfter {
				cmd.Process.Signal(syscall.SIGKILL)
				kills++
				break
			}
		}
		err = cmd.Wait()
		if over && err == nil {
			break
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
			t.Fatalf("run %d ended with %v: %s", runs, err, stderr.String())
		}
	}
	if kills < 20 {
		t.Fatalf("only %d kills", kills)
	}
	st, err = store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err = session.NewManager(st, session.Options{}).Open(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status().Digest != w.Status().Digest || !s.Game().SameState(w.Game()) {
		t.Errorf("after %d kills the game ends with digest %s, without them %s", kills, s.Status().Digest, w.Status().Digest)
	}
}
