package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/agenttest"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/deal"
	"github.com/gopoly/gopoly/internal/dirlock"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// Games that never end (no round limit, players that never go bankrupt)
// are adjourned and recorded as stalled by every command; none aborts.
func TestStalledGames(t *testing.T) {
	dir := t.TempDir()

	stdout, stderr, code := cliRun(t, "sim", "--bots", "test-idle", "--players", "3", "--games", "3", "--max-rounds", "0", "--workers", "2")
	if code != 0 || !strings.Contains(stdout, "games        3 (0 finished, 3 adjourned after 2000000 decisions, ") {
		t.Errorf("sim: exit %d, %s%s", code, stdout, stderr)
	}
	stdout, _, _ = cliRun(t, "sim", "--bots", "test-idle", "--players", "3", "--games", "3", "--max-rounds", "0", "--json")
	var sum arena.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Games != 3 || sum.Capped != 3 || sum.Stalled != 3 {
		t.Errorf("sim --json: %v: %s", err, stdout)
	}

	tour := filepath.Join(dir, "tour")
	stdout, stderr, code = cliRun(t, "tournament", "--bots", "test-idle,test-idle-too", "--players", "2", "--games", "2", "--max-rounds", "0", "--out", tour, "--bootstrap", "100")
	lines, _ := os.ReadFile(filepath.Join(tour, "games.jsonl"))
	if code != 0 || !strings.Contains(stdout, "2 adjourned after 2000000 decisions") || bytes.Count(lines, []byte(`"capped":true,"stalled":true`)) != 2 {
		t.Errorf("tournament: exit %d, %s%s\n%s", code, stdout, stderr, lines)
	}

	spec := filepath.Join(dir, "stall.yaml")
	os.WriteFile(spec, []byte("name: stall\nseeds: {start: 1, count: 2}\nrules: {max_rounds: 0}\nvariants:\n  - {name: idle, seats: [test-idle, test-idle]}\n"), 0o644)
	out := filepath.Join(dir, "exp")
	for range 2 { // the second run finds the games done
		stdout, stderr, code = cliRun(t, "experiment", "run", spec, "--out", out)
		if code != 0 || !strings.Contains(stdout, "2 of 2 games") || !strings.Contains(stdout, "2 adjourned after 2000000 decisions") {
			t.Fatalf("experiment: exit %d, %s%s", code, stdout, stderr)
		}
	}
	res, _ := os.ReadFile(filepath.Join(out, arena.ResultsFile))
	var es arena.ExperimentSummary
	data, _ := os.ReadFile(filepath.Join(out, arena.SummaryFile))
	if err := json.Unmarshal(data, &es); err != nil || es.Variants[0].Stalled != 2 || es.Variants[0].Capped != 2 || bytes.Count(res, []byte(`"stalled":true`)) != 2 {
		t.Errorf("experiment files: %v\n%s\n%s", err, res, data)
	}

	// play adjourns as the arena does (here after fewer decisions).
	rules := monopolytest.Rules(t, "max_rounds: 0")
	seats := []string{"test-idle", "test-idle"}
	var b bytes.Buffer
	log := newTextPlayLog(&b, rules, seatNames[:len(seats)], seats, 3, false)
	st, err := playGame(rules, seats, agent.SeatParams{}, 3, false, 5000, log)
	if err != nil {
		t.Fatal(err)
	}
	log.standings(st)
	if !st.Capped || !st.Stalled || st.Rounds < 100 || !strings.Contains(b.String(), "adjourned after 5000 decisions") {
		t.Errorf("play: %+v\n%s", st, b.String()[max(0, b.Len()-600):])
	}
}

// A bot's illegal action stops a run, which reports where it happened and
// keeps every game finished before it: on stdout, in games.jsonl, in
// results.jsonl and the summaries.
func TestFaultyBot(t *testing.T) {
	dir := t.TempDir()
	firstFault := func(seed func(i int) uint64, faultyInSeat1 func(i int) bool) int {
		for i := range 1000 {
			if faultyInSeat1(i) && agenttest.Fails(1, arena.SeatSeed(seed(i), 1)) {
				return i
			}
		}
		t.Fatal("no faulty game")
		return -1
	}
	always := func(int) bool { return true }

	k := firstFault(func(i int) uint64 { return arena.GameSeed(1, i) }, always)
	stdout, stderr, code := cliRun(t, "sim", "--bots", "test-idle,test-faulty", "--players", "2", "--games", "40", "--max-rounds", "30", "--workers", "2")
	want := fmt.Sprintf("gopoly: arena: game %d (seed %d): seat 1 (test-faulty): monopoly: illegal unmortgage", k, arena.GameSeed(1, k))
	if code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, fmt.Sprintf("the %d games finished before it are reported above", k)) ||
		!strings.Contains(stdout, fmt.Sprintf("games        %d (", k)) {
		t.Errorf("sim: exit %d, stdout %q, stderr %q; want 1, %d games and %q", code, stdout, stderr, k, want)
	}

	tn, err := arena.NewTournament(arena.TournamentConfig{Bots: []string{"test-idle", "test-faulty"}, Players: 2, Games: 40, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	k = firstFault(func(i int) uint64 { return arena.GameSeed(1, i) }, func(i int) bool { return tn.Entrants()[tn.Seating(i, nil)[1]] == "test-faulty" })
	tour := filepath.Join(dir, "tour")
	_, stderr, code = cliRun(t, "tournament", "--bots", "test-idle,test-faulty", "--games", "40", "--max-rounds", "30", "--out", tour, "--bootstrap", "100", "--json")
	lines, _ := os.ReadFile(filepath.Join(tour, "games.jsonl"))
	var ts arena.TournamentSummary
	data, _ := os.ReadFile(filepath.Join(tour, "summary.json"))
	json.Unmarshal(data, &ts)
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("arena: game %d (", k)) || bytes.Count(lines, []byte("\n")) != k || ts.Games != k {
		t.Errorf("tournament: exit %d, %q, %d lines, summary of %d games; want 1, game %d", code, stderr, bytes.Count(lines, []byte("\n")), ts.Games, k)
	}

	spec := filepath.Join(dir, "faulty.yaml")
	os.WriteFile(spec, []byte("name: faulty\nseeds: {start: 1, count: 40}\nrules: {max_rounds: 30}\nvariants:\n  - {name: f, seats: [test-idle, test-faulty]}\n"), 0o644)
	k = firstFault(func(i int) uint64 { return uint64(1 + i) }, always)
	out := filepath.Join(dir, "exp")
	_, stderr, code = cliRun(t, "experiment", "run", spec, "--out", out, "--workers", "2")
	res, _ := os.ReadFile(filepath.Join(out, arena.ResultsFile))
	var es arena.ExperimentSummary
	data, _ = os.ReadFile(filepath.Join(out, arena.SummaryFile))
	json.Unmarshal(data, &es)
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("variant f, game %d (seed %d): seat 1 (test-faulty)", k, 1+k)) ||
		!strings.Contains(stderr, fmt.Sprintf("the %d games before it are kept", k)) || bytes.Count(res, []byte("\n")) != k || len(es.Variants) != 1 || es.Variants[0].Games != k {
		t.Errorf("experiment: exit %d, %q, %d results, summary %s; want 1 and %d games", code, stderr, bytes.Count(res, []byte("\n")), data, k)
	}
}

// Ctrl-C, or a SIGTERM, stops sim as it stops experiments and
// tournaments: the games finished are reported, one line on stderr says
// so, exit code 130. However many games were asked for, none is set aside
// for before it is played.
func TestSimInterrupt(t *testing.T) {
	for _, c := range []struct {
		sig   os.Signal
		games string
	}{
		{os.Interrupt, "100000000"},
		{syscall.SIGTERM, "100000000"},
		{os.Interrupt, "9223372036854775807"},
		{os.Interrupt, "2000000000"},
	} {
		cmd := gopolyProcess("sim", "--games", c.games, "--workers", "1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		cmd.Process.Signal(c.sig)
		cmd.Wait()
		m := regexp.MustCompile(`(?m)^games +(\d+) \(`).FindStringSubmatch(stdout.String())
		if code := cmd.ProcessState.ExitCode(); code != 130 || m == nil {
			t.Errorf("%v after 500 ms of %s games: exit %d, stdout %q, stderr %q; want 130 and the games played", c.sig, c.games, code, stdout.String(), stderr.String())
			continue
		}
		if want := "gopoly: interrupted: " + m[1] + " of " + c.games + " games played and reported\n"; stderr.String() != want {
			t.Errorf("%v: stderr %q, want %q", c.sig, stderr.String(), want)
		}
	}
}

// Ctrl-C and SIGTERM stop the other long commands the same way: the
// work finished is kept and reported, one line on stderr says so, exit
// code 130.
func TestLongCommandsInterrupt(t *testing.T) {
	dir := t.TempDir()
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		out := filepath.Join(dir, fmt.Sprint("deal-", sig.(syscall.Signal)))
		for _, c := range []struct {
			args  []string
			check func(stdout, stderr string) bool
		}{
			{[]string{"landing", "--rolls", "50000000", "--workers", "1"}, func(stdout, stderr string) bool {
				// Whole chunks of 781,250 rolls, fewer than all.
				m := regexp.MustCompile(`^Where a roll ends: ([\d,]+) rolls`).FindStringSubmatch(stdout)
				return m != nil && m[1] != "50,000,000" && stderr == "gopoly: interrupted: "+m[1]+" of 50,000,000 rolls counted and reported\n"
			}},
			{[]string{"deal", "train", "--preset", "tiny", "--games", "1000000", "--sims", "2", "--batch", "4", "--eval-games", "0", "--metrics-every", "0", "--out", out}, func(stdout, stderr string) bool {
				m := regexp.MustCompile(`(?m)^gopoly: deal: interrupted at (\d+) games; continue with --resume --out (.*)\n\z`).FindStringSubmatch(stderr)
				if m == nil || m[2] != out || !strings.Contains(stdout, "Monopoly Deal CFR training: "+m[1]+" games") {
					return false
				}
				n, _ := strconv.Atoi(m[1])
				_, err := os.Stat(filepath.Join(out, deal.CheckpointName(n)))
				return n > 0 && err == nil
			}},
		} {
			cmd := gopolyProcess(c.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
			cmd.Process.Signal(sig)
			cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 130 || !c.check(stdout.String(), stderr.String()) {
				t.Errorf("%s on %v: exit %d, stdout %.300q, stderr %q; want 130, the work finished reported and kept", c.args[0], sig, code, stdout.String(), stderr.String())
			}
		}
	}
}

// Mistakes on the command line are bad input, exit 2, with a message;
// nothing runs.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "summary")
	boardDir := filepath.Join(dir, "board.png")
	os.Mkdir(boardDir, 0o755)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"sim", "--workers", "-1", "--games", "5"}, "sim: --workers -1: want 0 (all cores) or more"},
		{[]string{"tournament", "--bots", "baseline,random", "--workers", "-1"}, "tournament: --workers -1"},
		{[]string{"experiment", "run", spec, "--out", filepath.Join(dir, "w"), "--workers", "-1"}, "experiment run: --workers -1"},
		{[]string{"landing", "--workers", "-1"}, "landing: --workers -1"},
		{[]string{"sim", "--max-rounds", "-1", "--games", "5"}, "sim: --max-rounds -1: want 0 (no limit) or more rounds"},
		{[]string{"play", "--max-rounds", "-1"}, "play: --max-rounds -1"},
		{[]string{"tournament", "--bots", "baseline,random", "--max-rounds", "-1"}, "tournament: --max-rounds -1"},
		{[]string{"sim", "--bots", "baseline,,random", "--games", "5"}, `sim: --bots "baseline,,random": name 2 of 3 is empty`},
		{[]string{"play", "--bots", "baseline,"}, `play: --bots "baseline,": name 2 of 2 is empty`},
		{[]string{"tournament", "--bots", "baseline,,random"}, "tournament: --bots"},
		{[]string{"play", "--players", "2", "--bots", "shark,professor,hustler,turtle"}, "play: 4 bots for 2 players"},
		{[]string{"sim", "--players", "2", "--bots", "baseline,random,cautious", "--games", "5"}, "sim: 3 bots for 2 players"},
		{[]string{"sim", "--games", "abc"}, `invalid argument "abc" for "--games"`},
		{[]string{"sim", "--games"}, "flag needs an argument"},
		{[]string{"sim", "--gamez", "5"}, "unknown flag: --gamez"},
		{[]string{"tournament", "--json=maybe", "--bots", "baseline,random"}, `invalid argument "maybe"`},
		{[]string{"experiment", "show"}, "accepts 1 arg(s), received 0"},
		{[]string{"sim", "extra"}, `unknown command "extra" for "gopoly sim"`},
		// Output files are checked before the work whose result they take.
		{[]string{"landing", "--rolls", "20000000", "--plot", "/nonexistent/dir/x.png"}, "landing: --plot /nonexistent/dir/x.png: directory /nonexistent/dir does not exist"},
		{[]string{"landing", "--rolls", "20000000", "--plot", filepath.Join(dir, "spec-summary.yaml", "x.png")}, "is not a directory"},
		{[]string{"landing", "--rolls", "20000000", "--plot", boardDir}, "landing: --plot " + boardDir + " is a directory"},
		{[]string{"deal", "eval", "--policy", "risk-aware", "--games", "20000", "--plot", "/nonexistent/dir/x.png"}, "deal eval: --plot /nonexistent/dir/x.png: directory /nonexistent/dir does not exist"},
		{[]string{"nosuch"}, `unknown command "nosuch" for "gopoly"`},
	} {
		stdout, stderr, code := cliRun(t, c.args...)
		if code != 2 || !strings.HasPrefix(stderr, "gopoly: ") || !strings.Contains(stderr, c.msg) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %.100q, stderr %q; want 2 and %q", c.args, code, stdout, stderr, c.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "w")); err == nil {
		t.Error("a refused experiment made its directory")
	}
	// The default line-up is cut to the players asked for.
	stdout, stderr, code := cliRun(t, "play", "--players", "2", "--max-rounds", "3")
	if code != 0 || !regexp.MustCompile(`seat 1 +Ann \(shark\)\n +seat 2 +Bob \(professor\)\n\n`).MatchString(stdout) {
		t.Errorf("play --players 2: exit %d, %.300s%s", code, stdout, stderr)
	}
}

// Output directories are never written over: a command refuses a
// directory another command left, or one another process is writing,
// and leaves it as it was. An experiment resumes its own.
func TestOutputDirs(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "summary")
	exp, tour := filepath.Join(dir, "exp"), filepath.Join(dir, "tour")
	if _, stderr, code := experimentRun(t, "run", spec, "--out", exp); code != 0 {
		t.Fatalf("experiment: exit %d: %s", code, stderr)
	}
	if _, stderr, code := cliRun(t, "tournament", "--bots", "baseline,random", "--games", "4", "--max-rounds", "20", "--bootstrap", "100", "--out", tour); code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, stderr)
	}
	foreign := filepath.Join(dir, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	snapshot := func(d string) map[string]string {
		files := map[string]string{}
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				b, _ := os.ReadFile(p)
				files[p] = string(b)
			}
			return nil
		})
		return files
	}
	file := filepath.Join(dir, "file.txt")
	os.WriteFile(file, []byte("mine"), 0o644)
	before := map[string]map[string]string{exp: snapshot(exp), tour: snapshot(tour), foreign: snapshot(foreign), file: snapshot(file)}
	tournament := func(out string) []string {
		return []string{"tournament", "--bots", "baseline,random", "--games", "4", "--max-rounds", "20", "--bootstrap", "100", "--out", out}
	}
	dealTrain := func(out string) []string {
		return []string{"deal", "train", "--preset", "tiny", "--games", "2", "--sims", "1", "--batch", "2", "--eval-games", "0", "--metrics-every", "0", "--out", out}
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"experiment", "run", spec, "--out", tour}, tour + " is not empty (games.jsonl, rating.png, rating.svg, ...) and holds no experiment run"},
		{[]string{"experiment", "run", spec, "--out", foreign}, "is not empty (notes.txt)"},
		{tournament(exp), "tournament: --out " + exp + " is not empty"},
		{tournament(tour), "tournament: --out " + tour + " is not empty (games.jsonl"},
		{tournament(foreign), "is not empty (notes.txt)"},
		{[]string{"experiment", "merge", exp, "--out", tour}, "holds no merge of this experiment"},
		{[]string{"experiment", "run", spec, "--out", file}, "experiment run: --out " + file + " is not a directory"},
		{[]string{"experiment", "merge", exp, "--out", file}, "experiment merge: --out " + file + " is not a directory"},
		{tournament(file), "tournament: --out " + file + " is not a directory"},
		{dealTrain(file), "deal train: --out " + file + " is not a directory"},
	} {
		_, stderr, code := cliRun(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.msg)
		}
	}
	for d, files := range before {
		if after := snapshot(d); fmt.Sprint(after) != fmt.Sprint(files) {
			t.Errorf("%s changed: %d files before, %d after", d, len(files), len(after))
		}
	}
	// An experiment resumes its own directory.
	if stdout, stderr, code := experimentRun(t, "run", spec, "--out", exp); code != 0 || !strings.Contains(stdout, "12 of 12 games") {
		t.Errorf("resume: exit %d, %s%s", code, stdout, stderr)
	}

	// One writer at a time: while another process holds a directory,
	// runs, merges and tournaments are refused, and readers wait for
	// no one.
	busy := filepath.Join(dir, "busy")
	os.MkdirAll(busy, 0o755)
	holder := exec.Command(os.Args[0], "-test.run=^TestHoldLock$")
	holder.Env = append(os.Environ(), "GOPOLY_HOLD_LOCK="+exp+string(os.PathListSeparator)+busy)
	pipe, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	if _, err := bufio.NewReader(pipe).ReadString('\n'); err != nil {
		t.Fatalf("the lock holder: %v", err)
	}
	for _, args := range [][]string{
		{"experiment", "run", spec, "--out", exp},
		{"experiment", "run", spec, "--out", busy},
		{"experiment", "merge", exp, "--out", filepath.Join(dir, "merged")},
		tournament(busy),
		dealTrain(busy),
	} {
		_, stderr, code := cliRun(t, args...)
		if code != 2 || !strings.Contains(stderr, "by another gopoly process") {
			t.Errorf("%v while another process holds the directory: exit %d, %q", args, code, stderr)
		}
	}
	if _, stderr, code := cliRun(t, "experiment", "show", exp); code != 0 {
		t.Errorf("show while another process holds the directory: exit %d, %s", code, stderr)
	}
	if names, _ := dirlock.Entries(busy); len(names) > 0 {
		t.Errorf("refused writers left %v in the directory another process holds", names)
	}
	holder.Process.Kill()
	holder.Wait()
	// The holder is gone: the kernel let its locks go.
	if _, stderr, code := cliRun(t, tournament(busy)...); code != 0 {
		t.Errorf("after the holder died: exit %d, %s", code, stderr)
	}
}

// TestHoldLock holds the exclusive lock of directories (GOPOLY_HOLD_LOCK,
// a path list) until it is killed, as another gopoly process writing
// them would: TestOutputDirs runs it.
func TestHoldLock(t *testing.T) {
	dirs := os.Getenv("GOPOLY_HOLD_LOCK")
	if dirs == "" {
		t.Skip("run by TestOutputDirs")
	}
	for _, d := range filepath.SplitList(dirs) {
		if _, err := dirlock.Exclusive(d); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Println("held")
	time.Sleep(time.Minute)
}

// show uses summary.json only while results.jsonl is what it sums up:
// damaged results are an error naming the line, as run and merge say;
// results changed in a way a run could have left them are summed up
// afresh, with a note.
func TestShowChecksResults(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "stats")
	out := filepath.Join(dir, "run")
	if _, stderr, code := experimentRun(t, "run", spec, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	path := filepath.Join(out, arena.ResultsFile)
	good, _ := os.ReadFile(path)
	stdout, stderr, code := experimentRun(t, "show", out)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "12 of 12 games") {
		t.Fatalf("show: exit %d, %q", code, stderr)
	}
	lines := bytes.SplitAfter(good, []byte("\n"))

	// Line 10 replaced by garbage of the same length: the line count and
	// the size still match summary.json.
	damaged := slices.Clone(lines)
	damaged[9] = append(bytes.Repeat([]byte("x"), len(lines[9])-1), '\n')
	os.WriteFile(path, bytes.Join(damaged, nil), 0o644)
	for _, args := range [][]string{{"show", out}, {"run", spec, "--out", out}, {"merge", out, "--out", filepath.Join(dir, "m")}} {
		_, stderr, code := experimentRun(t, args...)
		if code != 2 || !strings.Contains(stderr, path+":10:1: not a game record: invalid character 'x'") {
			t.Errorf("%v on damaged results: exit %d, %q", args, code, stderr)
		}
	}

	// Line 10 edited into another game record of the same length: summed
	// up afresh, with a note.
	edited := slices.Clone(lines)
	var rec arena.GameRecord
	json.Unmarshal(lines[9], &rec)
	from := fmt.Sprintf(`"winner":%d,`, rec.Winner)
	to := fmt.Sprintf(`"winner":%d,`, (rec.Winner+1)%2)
	edited[9] = bytes.Replace(lines[9], []byte(from), []byte(to), 1)
	os.WriteFile(path, bytes.Join(edited, nil), 0o644)
	stdout, stderr, code = experimentRun(t, "show", out, "--json")
	if code != 0 || !strings.Contains(stderr, "results.jsonl has changed since summary.json was written") {
		t.Errorf("show on edited results: exit %d, %q", code, stderr)
	}
	var fresh showJSON
	json.Unmarshal([]byte(stdout), &fresh)
	os.WriteFile(path, good, 0o644)
	stdout, _, _ = experimentRun(t, "show", out, "--json")
	var kept showJSON
	json.Unmarshal([]byte(stdout), &kept)
	if fmt.Sprint(fresh) == fmt.Sprint(kept) {
		t.Error("the edited results show the figures of summary.json")
	}

	// A summary.json that records no digest (an older gopoly's) is not
	// trusted either.
	sum, _ := os.ReadFile(filepath.Join(out, arena.SummaryFile))
	old := regexp.MustCompile(`(?s),\s*"results": \{.*?\}`).ReplaceAll(sum, nil)
	os.WriteFile(filepath.Join(out, arena.SummaryFile), old, 0o644)
	if _, stderr, code := experimentRun(t, "show", out); code != 0 || !strings.Contains(stderr, "does not record which results") {
		t.Errorf("show with an older summary.json: exit %d, %q", code, stderr)
	}
}

// What show and a resumed run read back is checked, field by field:
// damage is an error naming the file, the line and the field (exit 2),
// never figures quietly wrong.
func TestDamagedRunFiles(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "summary")
	out := filepath.Join(dir, "run")
	if _, stderr, code := experimentRun(t, "run", spec, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	resPath, runPath, sumPath := filepath.Join(out, arena.ResultsFile), filepath.Join(out, arena.RunFile), filepath.Join(out, arena.SummaryFile)
	good := map[string][]byte{}
	for _, p := range []string{resPath, runPath, sumPath} {
		good[p], _ = os.ReadFile(p)
	}
	restore := func() {
		for p, data := range good {
			os.WriteFile(p, data, 0o644)
		}
	}
	// Line 3 is game 1 of variant trio, three seats.
	lines := bytes.SplitAfter(good[resPath], []byte("\n"))
	var rec arena.GameRecord
	if err := json.Unmarshal(lines[2], &rec); err != nil || rec.Variant != "trio" || rec.Game != 1 {
		t.Fatalf("line 3: %+v, %v", rec, err)
	}
	editLine := func(from, to string) func() {
		return func() {
			edited := slices.Clone(lines)
			edited[2] = bytes.Replace(lines[2], []byte(from), []byte(to), 1)
			if bytes.Equal(edited[2], lines[2]) {
				t.Fatalf("line 3 holds no %s", from)
			}
			os.WriteFile(resPath, bytes.Join(edited, nil), 0o644)
		}
	}
	editRun := func(from, to string) func() {
		return func() { os.WriteFile(runPath, bytes.Replace(good[runPath], []byte(from), []byte(to), 1), 0o644) }
	}
	winner := fmt.Sprintf(`"winner":%d,`, rec.Winner)
	seed := fmt.Sprintf(`"seed":%d,`, rec.Seed)
	for _, c := range []struct {
		name   string
		damage func()
		resume bool // a resumed run refuses it too
		msg    string
	}{
		{"winner out of range", editLine(winner, `"winner":99,`), true, resPath + `:3: winner: 99: want -1 (none) or a seat of variant "trio", 0 to 2`},
		{"winner below -1", editLine(winner, `"winner":-2,`), true, resPath + ":3: winner: -2"},
		{"winner missing", editLine(winner, ""), true, resPath + ":3: winner: missing"},
		{"winner not a number", editLine(winner, `"winner":"x",`), true, resPath + ":3: winner: want a number"},
		{"seed of another game", editLine(seed, fmt.Sprintf(`"seed":%d,`, rec.Seed+1)), true, resPath + fmt.Sprintf(":3: seed: %d where the spec seeds game 1 with %d", rec.Seed+1, rec.Seed)},
		{"seat twice", editLine(fmt.Sprintf(`"seat":%d,`, rec.Players[0].Seat), fmt.Sprintf(`"seat":%d,`, rec.Players[1].Seat)), true, resPath + ":3: players[0].seat:"},
		{"bot of another seat", editLine(`"bot":"baseline"`, `"bot":"random"`), true, resPath + ":3: players["},
		{"negative rounds", editLine(`"rounds":`, `"rounds":-`), true, resPath + ":3: rounds: -"},
		{"line cut short", func() {
			edited := slices.Clone(lines)
			edited[2] = append(lines[2][:len(lines[2])/2:len(lines[2])/2], '\n')
			os.WriteFile(resPath, bytes.Join(edited, nil), 0o644)
		}, true, resPath + ":3:"},
		{"negative games", editRun(`"games": 12`, `"games": -5`), true, runPath + ":6: games: -5"},
		{"other games", editRun(`"games": 12`, `"games": 7`), true, runPath + ":6: games: 7 where shard 0/1 of the spec has 12"},
		{"shard out of range", editRun(`"shard": 0`, `"shard": 4`), true, runPath + ":4: shard: 4"},
		{"games missing", editRun(`,
  "games": 12`, ""), true, runPath + ":1: games: missing"},
		{"run.json cut short", editRun(`"shard_layout": 2`, `"shard_layout": `), true, runPath + ":8:1: invalid character '}'"},
		{"results missing", func() { os.Remove(resPath) }, false, resPath + ": missing"},
	} {
		restore()
		c.damage()
		cmds := [][]string{{"show", out}}
		if c.resume {
			cmds = append(cmds, []string{"run", spec, "--out", out})
		}
		for _, args := range cmds {
			stdout, stderr, code := experimentRun(t, args...)
			if code != 2 || !strings.Contains(stderr, c.msg) {
				t.Errorf("%s: %s: exit %d, stdout %.80q, stderr %q; want 2 and %q", c.name, args[0], code, stdout, stderr, c.msg)
			}
		}
	}

	// A summary.json that does not add up to the results it names is not
	// trusted: the figures are made afresh.
	restore()
	os.WriteFile(sumPath, bytes.Replace(good[sumPath], []byte(`"games": 6,`), []byte(`"games": 60,`), 1), 0o644)
	stdout, stderr, code := experimentRun(t, "show", out)
	if code != 0 || !strings.Contains(stderr, "summary.json is damaged") || !strings.Contains(stdout, "12 of 12 games") {
		t.Errorf("show with an edited summary.json: exit %d, %s%s", code, stdout, stderr)
	}
}

// merge writes the same directory whatever the order of the shards, also
// when their specs differ in a comment: spec.yaml is shard 0's.
func TestMergeOrder(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "summary")
	src, _ := os.ReadFile(spec)
	commented := filepath.Join(dir, "commented.yaml")
	os.WriteFile(commented, append([]byte("# shard 1's copy\n"), src...), 0o644)
	s0, s1 := filepath.Join(dir, "s0"), filepath.Join(dir, "s1")
	for _, r := range []struct{ spec, out, shard string }{{spec, s0, "0/2"}, {commented, s1, "1/2"}} {
		if _, stderr, code := experimentRun(t, "run", r.spec, "--out", r.out, "--shard", r.shard); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", r.shard, code, stderr)
		}
	}
	m01, m10 := filepath.Join(dir, "m01"), filepath.Join(dir, "m10")
	for _, m := range []struct {
		out  string
		dirs []string
	}{{m01, []string{s0, s1}}, {m10, []string{s1, s0}}} {
		if _, stderr, code := experimentRun(t, append([]string{"merge", "--out", m.out}, m.dirs...)...); code != 0 {
			t.Fatalf("merge %v: exit %d: %s", m.dirs, code, stderr)
		}
	}
	sameFiles(t, m01, m10, "merging in another order gave another file", arena.SpecFile, arena.RunFile, arena.ResultsFile, arena.SummaryFile, "variants/trio/summary.json")
	if got, _ := os.ReadFile(filepath.Join(m10, arena.SpecFile)); !bytes.Equal(got, src) {
		t.Errorf("merged spec.yaml is not shard 0's:\n%s", got)
	}
}
