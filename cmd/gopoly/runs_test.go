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
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/internal/dirlock"
	"github.com/gopoly/gopoly/internal/testbots"
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
			if faultyInSeat1(i) && testbots.Fails(1, arena.SeatSeed(seed(i), 1)) {
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

// Ctrl-C stops sim as it stops experiments and tournaments: the games
// finished are reported, one line on stderr says so, exit code 130.
func TestSimInterrupt(t *testing.T) {
	cmd := gopolyProcess("sim", "--games", "100000000", "--workers", "1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	m := regexp.MustCompile(`(?m)^games +(\d+) \(`).FindStringSubmatch(stdout.String())
	if code := cmd.ProcessState.ExitCode(); code != 130 || m == nil {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 130 and the games played", code, stdout.String(), stderr.String())
	}
	if want := "gopoly: interrupted: " + m[1] + " of 100000000 games played and reported\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// Mistakes on the command line are bad input, exit 2, with a message;
// nothing runs.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "summary")
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
	before := map[string]map[string]string{exp: snapshot(exp), tour: snapshot(tour), foreign: snapshot(foreign)}
	tournament := func(out string) []string {
		return []string{"tournament", "--bots", "baseline,random", "--games", "4", "--max-rounds", "20", "--bootstrap", "100", "--out", out}
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
	} {
		_, stderr, code := cliRun(t, args...)
		if code != 2 || !strings.Contains(stderr, "by another gopoly process") {
			t.Errorf("%v while another process holds the directory: exit %d, %q", args, code, stderr)
		}
	}
	if _, stderr, code := cliRun(t, "experiment", "show", exp); code != 0 {
		t.Errorf("show while another process holds the directory: exit %d, %s", code, stderr)
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
		if code != 2 || !strings.Contains(stderr, path+":10: not a game record") {
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
