package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
	"github.com/gopoly/gopoly/wire"
)

// console drives a gopoly process as a person at the terminal would: it
// reads the screen up to each prompt and types an answer.
type console struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	chunks chan string
	screen strings.Builder // everything printed so far
	seen   int             // where the unread part of screen starts
	stderr strings.Builder
}

// startConsole starts gopoly with args and its stdin and stdout on pipes.
func startConsole(t *testing.T, args ...string) *console {
	t.Helper()
	return startConsoleEnv(t, nil, args...)
}

// startConsoleEnv is startConsole with env added to the environment.
func startConsoleEnv(t *testing.T, env []string, args ...string) *console {
	t.Helper()
	c := &console{t: t, cmd: gopolyProcess(args...), chunks: make(chan string, 64)}
	c.cmd.Env = append(append(c.cmd.Env, "NO_COLOR=1"), env...)
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.cmd.Stderr = &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReader(out)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				c.chunks <- string(buf[:n])
			}
			if err != nil {
				close(c.chunks)
				return
			}
		}
	}()
	return c
}

var promptRE = regexp.MustCompile(`(?m)^(Ann|Bob|Cat|Dan)> $`)

// next reads until a prompt and returns what was printed since the last
// one, or ok false when the process closed its output first.
func (c *console) next() (text string, ok bool) {
	c.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		rest := c.screen.String()[c.seen:]
		if loc := promptRE.FindStringIndex(rest); loc != nil && loc[1] == len(rest) {
			c.seen = c.screen.Len()
			return rest, true
		}
		select {
		case chunk, open := <-c.chunks:
			if !open {
				c.seen = c.screen.Len()
				return rest, false
			}
			c.screen.WriteString(chunk)
		case <-timeout:
			c.t.Fatalf("no prompt in 60 s; the screen ends:\n%s", tail(c.screen.String(), 2000))
		}
	}
}

func (c *console) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.t.Fatalf("typing %q: %v", line, err)
	}
}

// wait waits for the process to end and returns its exit code.
func (c *console) wait() int {
	c.t.Helper()
	for range c.chunks {
		// drain: the last screen is in c.screen via next
	}
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		c.t.Fatal(err)
	}
	return 0
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

var optionRE = regexp.MustCompile(`(?m)^ +(\d+)\) (.+)$`)

// moves are the scripted person's preferences, by the label an option
// begins with, and the move it types for it.
var moves = []struct{ label, move string }{
	{"Buy ", "buy"}, {"Pay the $", "pay fine"}, {"Keep ", "keep"}, {"Reject the trade", "reject"},
	{"Drop out of the auction", "drop out"}, {"Roll the dice", "roll"}, {"Roll again", "roll"},
	{"End your turn", "end"}, {"Go on", "continue"},
}

// choose is the scripted person: from the options on screen it buys what
// it lands on, pays to leave jail, turns down trades, drops out of
// auctions, raises cash by selling and mortgaging before it goes
// bankrupt, and otherwise goes on. It answers by the option's number or
// by typing the move in words, alternately, so both are exercised.
func choose(screen string, turn int) string {
	menu := screen
	if i := strings.LastIndex(screen, "\n  Ann: $"); i >= 0 {
		menu = screen[i:]
	}
	var numbers, labels []string
	for _, m := range optionRE.FindAllStringSubmatch(menu, -1) {
		numbers = append(numbers, m[1])
		labels = append(labels, m[2])
	}
	pick := func(i int, move string) string {
		if turn%2 == 0 || move == "" {
			return numbers[i]
		}
		return move
	}
	for _, mv := range moves {
		for i, l := range labels {
			if strings.HasPrefix(l, mv.label) {
				return pick(i, mv.move)
			}
		}
	}
	for i, l := range labels {
		if strings.HasPrefix(l, "Sell ") || strings.HasPrefix(l, "Mortgage ") {
			return pick(i, "")
		}
	}
	for i, l := range labels {
		if l == "Declare bankruptcy" {
			return pick(i, "bankrupt")
		}
	}
	if len(labels) > 0 {
		return numbers[0]
	}
	return "continue"
}

// playScripted answers prompts with choose until the process ends or
// stopAfter answers were given (0: no limit), and returns the number of
// answers given.
func playScripted(c *console, stopAfter int, quit func(c *console)) int {
	n := 0
	for {
		screen, ok := c.next()
		if !ok {
			return n
		}
		if stopAfter > 0 && n == stopAfter {
			quit(c)
			return n
		}
		c.send(choose(screen, n))
		n++
	}
}

// sessionDigest opens the store in dir and returns the only session's id
// and digest.
func sessionDigest(t *testing.T, dir string) (id string, st session.Status) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs, err := s.List(ctx)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d sessions stored (%v)", len(recs), err)
	}
	return recs[0].ID, recs[0].Status
}

// A person plays a whole game against three personalities through the
// real command; the same person, quitting halfway and resuming, and
// interrupted with Ctrl-C and resuming, plays the same game to the same
// end.
func TestHumanPlaysWholeGame(t *testing.T) {
	args := func(dir string) []string {
		return []string{"play", "--seats", "human,shark,professor,hustler", "--seed", "5", "--max-rounds", "150", "--delay", "0", "--data", dir}
	}
	// Uninterrupted.
	whole := t.TempDir()
	c := startConsole(t, args(whole)...)
	first, _ := c.next()
	// A few things a person does besides answering: the board, bad input,
	// an illegal move, words, then the answer.
	for _, probe := range []struct{ in, want string }{
		{"board", "Bank: 32 houses, 12 hotels left."},
		{"fly to the moon", "That is not a move here"},
		{"build Boardwalk", "Not allowed: "},
		{"7", "There is no option 7"},
		{"say", "Say what?"},
		{"o", "Unowned: 28 squares."},
		{"say good luck all", `you will say "good luck all"`},
	} {
		c.send(probe.in)
		got, _ := c.next()
		if !strings.Contains(got, probe.want) {
			t.Errorf("%q: want %q in\n%s", probe.in, probe.want, got)
		}
	}
	c.send(choose(first, 0))
	answers := 1 + playScripted(c, 0, nil)
	if code := c.wait(); code != 0 {
		t.Fatalf("exit %d: %s", code, c.stderr.String())
	}
	screen := c.screen.String()
	end := screen[strings.LastIndex(screen, "── Final standings"):]
	if !strings.Contains(end, "Winner: ") && !strings.Contains(end, "No winner") {
		t.Fatalf("no winner line:\n%s", end)
	}
	if !strings.Contains(screen, `Ann: "good luck all"`) {
		t.Error("the person's words were not said at the table")
	}
	// A person reads no engine word in the whole game: no code word, no
	// phase, no package prefix, no seat counted from 0.
	engine := regexp.MustCompile(`\w_\w|\bphase\b|\b(?:wire|notation|agent|session|monopoly):|\bplayer \d|\b[Ss]eat 0\b`)
	for _, line := range strings.Split(screen, "\n") {
		if m := engine.FindString(line); m != "" && !strings.Contains(line, "--resume") {
			t.Errorf("the engine word %q in %q", m, line)
		}
	}
	_, want := sessionDigest(t, whole)
	if !want.Over || answers < 50 {
		t.Fatalf("the game ended after %d answers, over %v", answers, want.Over)
	}

	for _, stop := range []struct {
		name string
		quit func(c *console)
		code int
	}{
		{"quit", func(c *console) { c.send("q") }, 0},
		{"ctrl-c", func(c *console) { c.cmd.Process.Signal(syscall.SIGINT) }, 130},
		{"end of input", func(c *console) { c.stdin.Close() }, 0},
	} {
		t.Run(stop.name, func(t *testing.T) {
			dir := t.TempDir()
			c := startConsole(t, args(dir)...)
			c.t = t
			first, _ := c.next()
			c.send("say good luck all")
			c.next()
			c.send(choose(first, 0))
			n := 1 + playScripted(c, answers/2, stop.quit)
			if code := c.wait(); code != stop.code {
				t.Fatalf("stopped: exit %d, want %d: %s", code, stop.code, c.stderr.String())
			}
			id, mid := sessionDigest(t, dir)
			if mid.Over || !strings.Contains(c.screen.String()+c.stderr.String(), "gopoly play --resume "+id) {
				t.Fatalf("after stopping: over %v, no resume hint:\n%s", mid.Over, tail(c.screen.String(), 500))
			}
			r := startConsole(t, "play", "--resume", id, "--delay", "0", "--data", dir)
			r.t = t
			// The answers' numbering goes on, so that choose alternates
			// between numbers and moves as in the whole game.
			for ; ; n++ {
				screen, ok := r.next()
				if !ok {
					break
				}
				r.send(choose(screen, n))
			}
			if code := r.wait(); code != 0 {
				t.Fatalf("resumed: exit %d: %s", code, r.stderr.String())
			}
			if !strings.Contains(r.screen.String(), "Resuming after") || !strings.Contains(r.screen.String(), "The last moves:") {
				t.Errorf("no resume line or no last moves:\n%s", tail(r.screen.String(), 3000))
			}
			// The last moves read as they did when played: a turn's line
			// has the cash of its start.
			_, last, _ := strings.Cut(r.screen.String(), "The last moves:\n")
			last, _, _ = strings.Cut(strings.TrimLeft(last, "\n"), "\n\n")
			for _, line := range turnLine.FindAllString(last, -1) {
				if !strings.Contains(c.screen.String(), line) {
					t.Errorf("resumed, the last moves show %q, which the game never showed", line)
				}
			}
			_, got := sessionDigest(t, dir)
			if got.Digest != want.Digest || got.Entries != want.Entries || n != answers {
				t.Errorf("resumed game: %d answers, %d entries, digest %s; whole game: %d answers, %d entries, digest %s",
					n, got.Entries, got.Digest, answers, want.Entries, want.Digest)
			}
			rEnd := r.screen.String()
			if rEnd = rEnd[strings.LastIndex(rEnd, "── Final standings"):]; rEnd != end {
				t.Errorf("standings differ:\n%s\n---\n%s", rEnd, end)
			}
		})
	}
}

// turnLine is the log's line that opens a turn: who, cash, where.
var turnLine = regexp.MustCompile(`(?m)^  \S+  \$[\d,]+  (?:on .*|in jail)$`)

// The menu wraps to the terminal's width ($COLUMNS where the output is
// not a terminal), each continuation under its option's text.
func TestHumanMenuWraps(t *testing.T) {
	c := startConsoleEnv(t, []string{"COLUMNS=32"}, "play", "--seats", "human,baseline", "--seed", "3", "--delay", "0", "--data", t.TempDir())
	screen, _ := c.next()
	c.send("q")
	c.wait()
	menu := screen[strings.LastIndex(screen, "\n  Ann: $"):]
	for _, line := range strings.Split(menu, "\n") {
		if utf8.RuneCountInString(line) > 32 {
			t.Errorf("%q is wider than 32 columns in\n%s", line, menu)
		}
	}
}

// Bad flags of a game with people are refused before anything is stored.
func TestHumanPlayBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--seats", "human,nobody"}, `unknown player "nobody"`},
		{[]string{"--seats", "human"}, "takes 2 to 8"},
		{[]string{"--seats", "human,llm"}, "seat 2 is llm"},
		{[]string{"--seats", "human,shark", "--bots", "shark"}, "--bots cannot be given with --seats"},
		{[]string{"--seats", "human,shark", "--players", "3"}, "--players 3"},
		{[]string{"--resume", "abc", "--seed", "3"}, "--seed cannot be given"},
		{[]string{"--resume", "0123456789ab"}, "no session 0123456789ab"},
		{[]string{"--seats", "human,shark", "--delay", "-1s"}, "--delay"},
	} {
		out, stderr, code := inProcess(append([]string{"play", "--data", dir}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q (stdout %q)", tc.args, code, stderr, tc.want, tail(out, 200))
		}
	}
	st, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if recs, _ := st.List(context.Background()); len(recs) != 0 {
		t.Errorf("%d sessions stored by refused commands", len(recs))
	}
}

// The round limit and rules file of a game with people are the session's:
// a rules file's own max_rounds stands unless --max-rounds is given.
func TestSessionSetupRules(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/r.yaml"
	if err := os.WriteFile(file, []byte("# a variant\nmax_rounds: 40\nfree_parking_jackpot: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		limit int
	}{
		{nil, 500},
		{[]string{"--max-rounds", "30"}, 30},
		{[]string{"--rules", file}, 40},
		{[]string{"--rules", file, "--max-rounds", "25"}, 25},
	} {
		cmd := newPlayCmd(defaultPlayOptions())
		if err := cmd.ParseFlags(append([]string{"--seats", "human,baseline"}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		seats, _ := session.ParseSeats("human,baseline")
		rulesPath, _ := cmd.Flags().GetString("rules")
		limit, _ := cmd.Flags().GetInt("max-rounds")
		var data []byte
		if rulesPath != "" {
			data, _ = os.ReadFile(rulesPath)
		}
		setup, err := sessionSetup(cmd, seats, 1, rulesPath, data, limit, agent.SeatParams{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		m := session.NewManager(st, session.Options{})
		s, err := m.Create(context.Background(), setup)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Rules().MaxRounds; got != tc.limit {
			t.Errorf("%v: max_rounds %d, want %d", tc.args, got, tc.limit)
		}
		if jackpot := s.Rules().FreeParkingJackpot; jackpot != (rulesPath != "") {
			t.Errorf("%v: jackpot %v", tc.args, jackpot)
		}
	}
}

// until reads until the unread screen holds want and waits at a prompt
// (a line not ended), and returns it.
func (c *console) until(want string) string {
	c.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		rest := c.screen.String()[c.seen:]
		if strings.Contains(rest, want) && rest != "" && !strings.HasSuffix(rest, "\n") {
			c.seen = c.screen.Len()
			return rest
		}
		select {
		case chunk, open := <-c.chunks:
			if !open {
				c.t.Fatalf("the process ended before %q; the screen ends:\n%s", want, tail(c.screen.String(), 2000))
			}
			c.screen.WriteString(chunk)
		case <-timeout:
			c.t.Fatalf("no %q in 60 s; the screen ends:\n%s", want, tail(c.screen.String(), 2000))
		}
	}
}

// The trade builder makes an offer from a person's answers, under open
// and under sealed deals, and the bot it goes to answers it at the table.
func TestHumanTradeBuilder(t *testing.T) {
	for _, tc := range []struct{ rules, giveCash, getCash, said string }{
		{"max_rounds: 60", "you give: cash", "Bob gives: cash", "proposes to Bob: gives"},
		{"max_rounds: 60\ndeal_protocol: sealed", "sealed: the most you pay, cash", "sealed: the least you take, cash", "proposes to Bob"},
	} {
		dir := t.TempDir()
		// Ann plays until she owns a square and may propose a trade to
		// Bob for one of his.
		s := storedUntil(t, dir, tc.rules, "human,baseline", func(v monopoly.View) bool {
			tr := wire.NewOptions(v).Trade
			return v.Pending().Kind == monopoly.DecisionManage && tr != nil && tr.ProposalsLeft > 0 &&
				len(tr.Give.Squares) > 0 && len(tr.Partners[0].Get.Squares) > 0
		})
		before := s.Status().Entries

		c := startConsole(t, "play", "--resume", s.ID(), "--delay", "0", "--data", dir)
		c.next()
		c.send("t")
		c.until("with whom? ")
		// An answer it cannot take is asked again, saying why.
		c.send("9")
		if again := c.until("with whom? "); !strings.Contains(again, `"9" is not one of them`) {
			t.Errorf("asked again without saying why:\n%s", again)
		}
		c.send("1")
		c.until("you give: squares (numbers): ")
		c.send("1")
		c.until(tc.giveCash + ", $0 to $")
		c.send("lots")
		if again := c.until(tc.giveCash + ", $0 to $"); !strings.Contains(again, `"lots" is not a whole number of dollars`) {
			t.Errorf("asked again without saying why:\n%s", again)
		}
		c.send("")
		c.until("you get: squares (numbers): ")
		c.send("")
		c.until(tc.getCash + ", $0 to $")
		c.send("")
		screen := c.until("Send it? [Y/n] ")
		if !strings.Contains(screen, "Propose a trade to Bob: give ") {
			t.Fatalf("no offer to confirm:\n%s", screen)
		}
		c.send("y")
		after, _ := c.next()
		if !strings.Contains(after, tc.said) || !(strings.Contains(after, "accepts") || strings.Contains(after, "rejects")) {
			t.Errorf("%s: the offer was not made and answered:\n%s", tc.rules, after)
		}
		c.send("q")
		if code := c.wait(); code != 0 {
			t.Fatalf("exit %d: %s", code, c.stderr.String())
		}
		_, status := sessionDigest(t, dir)
		if status.Entries < before+2 {
			t.Errorf("%d entries after the trade, %d before", status.Entries, before)
		}
	}
}

// storedUntil stores in dir a session of seats (Ann first, a person)
// and plays it, Ann answered by a stand-in bot, until Ann must decide in
// a position where at says so.
func storedUntil(t *testing.T, dir, rules, seats string, at func(v monopoly.View) bool) *session.Session {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	list, _ := session.ParseSeats(seats)
	s, err := session.NewManager(st, session.Options{}).Create(ctx, session.Setup{Seed: 4, Seats: list, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	stand, _ := agent.New("baseline", 0, 99)
	p, err := s.Advance(ctx, 0)
	for ; err == nil; p, err = s.Submit(ctx, s.Tokens().Seats[0], agent.Answer{Action: stand.Decide(s.Game().View(0), s.Game().Pending())}) {
		if p.Waiting == 0 && at(s.Game().View(0)) {
			return s
		}
		if p.Over {
			t.Fatal("the game ended before the position sought")
		}
	}
	t.Fatal(err)
	return nil
}

// A person answers a bot's offer with a counter-offer built step by
// step, when the rules allow counters, and the bot answers it in turn.
func TestHumanCounterOffer(t *testing.T) {
	dir := t.TempDir()
	s := storedUntil(t, dir, "max_rounds: 200\ncounter_offers: 3", "human,hustler", func(v monopoly.View) bool {
		tr := wire.NewOptions(v).Trade
		return v.Pending().Kind == monopoly.DecisionTradeResponse && tr != nil && tr.Kind == monopoly.ActCounterTrade
	})
	c := startConsole(t, "play", "--resume", s.ID(), "--delay", "0", "--data", dir)
	if menu, _ := c.next(); !strings.Contains(menu, "offers you a trade") || !strings.Contains(menu, "t) make a counter-offer") {
		t.Fatalf("no counter-offer on the menu:\n%s", menu)
	}
	c.send("t")
	for {
		screen := c.until(" ")
		switch {
		case strings.HasSuffix(screen, "with whom? "):
			c.send("1")
		case strings.HasSuffix(screen, "squares (numbers): "):
			c.send("1")
		case strings.Contains(screen, "Get Out of Jail Free card"):
			c.send("n")
		case strings.Contains(screen, "cash, $0 to $"):
			c.send("")
		case strings.HasSuffix(screen, "Send it? [Y/n] "):
			if !strings.Contains(screen, "Counter-offer to Bob: give ") {
				t.Fatalf("not a counter-offer:\n%s", screen)
			}
			c.send("y")
			after, _ := c.next()
			if !strings.Contains(after, "counters") {
				t.Errorf("the counter-offer was not made:\n%s", after)
			}
			c.send("q")
			if code := c.wait(); code != 0 {
				t.Fatalf("exit %d: %s", code, c.stderr.String())
			}
			return
		default:
			t.Fatalf("unexpected prompt:\n%s", screen)
		}
	}
}
