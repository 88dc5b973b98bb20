package arena

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gopoly/gopoly/internal/atomicfile"
	"github.com/gopoly/gopoly/internal/dirlock"
	"github.com/gopoly/gopoly/internal/jsonerr"
	"github.com/gopoly/gopoly/monopoly"
)

// Files of an experiment's output directory.
const (
	SpecFile    = "spec.yaml"     // the spec as written
	RunFile     = "run.json"      // what the directory holds: RunInfo
	ResultsFile = "results.jsonl" // one GameRecord per line, in game order
	SummaryFile = "summary.json"  // ExperimentSummary
	VariantsDir = "variants"      // variants/NAME/: summary.json, plots, traces.jsonl
	TracesFile  = "traces.jsonl"  // detail full: one TurnTrace per line
)

// ErrBadDir reports an output directory that does not fit the run asked
// for (another experiment, another shard, damaged results) or shard
// directories that do not merge: bad input rather than a failure.
var ErrBadDir = errors.New("arena: unusable experiment directory")

func badDir(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadDir, fmt.Sprintf(format, args...))
}

// GameRecord is one game of an experiment, one line of results.jsonl.
type GameRecord struct {
	Variant   string `json:"variant"`
	Game      int    `json:"game"` // index in the variant's seed range
	Seed      uint64 `json:"seed"`
	Winner    int    `json:"winner"` // the winner's seat; -1: none (a tie at the round limit)
	Rounds    int    `json:"rounds"`
	Capped    bool   `json:"capped"`            // ended at the round limit, or stalled
	Stalled   bool   `json:"stalled,omitempty"` // adjourned after MaxDecisions decisions, as a timed game
	Rolls     int64  `json:"rolls"`
	Decisions int64  `json:"decisions"`
	// Players in playing order; their metrics at detail stats and full.
	Players []PlayerRecord `json:"players"`
}

// PlayerRecord is one player of a recorded game: its seat in the
// variant, its bot and (detail stats and full) its behaviour.
type PlayerRecord struct {
	Seat int    `json:"seat"`
	Bot  string `json:"bot"`
	// Params are the knobs drawn for this game from {mean, std} overrides,
	// by name.
	Params map[string]float64 `json:"params,omitempty"`
	// Measures are the player's own measures of the game (an LLM seat's
	// calls, fallbacks, tokens, cost: agent.Measurer).
	Measures map[string]float64 `json:"measures,omitempty"`
	// Examples are the player's own quoted examples, by measure (an LLM
	// seat's answers whose words disagree with the game's values).
	Examples map[string][]string `json:"examples,omitempty"`
	// Fallbacks are the answers a program's fallback gave, and Retired
	// whether the program was retired, its fallback playing on
	// (agent.Accountable); absent for bots.
	Fallbacks int  `json:"fallbacks,omitempty"`
	Retired   bool `json:"retired,omitempty"`
	*SeatMetrics
}

// RunInfo is run.json: which experiment, and which shard of it, a
// directory holds. A merged directory is shard 0 of 1, as a whole run.
type RunInfo struct {
	Experiment  string `json:"experiment"`
	Fingerprint string `json:"fingerprint"`
	Shard       int    `json:"shard"`
	Shards      int    `json:"shards"`
	Games       int    `json:"games"`        // the games of this shard
	Layout      int    `json:"shard_layout"` // ShardLayout
}

// RunOptions say where and how to run an experiment.
type RunOptions struct {
	Dir string
	// Shard and Shards: this run plays every variant on the seeds j of
	// the experiment with j mod Shards = Shard (Shards 0 means 1); see
	// Experiment.ShardGame.
	Shard, Shards int
	Workers       int // 0: all cores
	// Progress, if set, is called after each game with the games of the
	// shard in the directory so far and their total.
	Progress func(done, total int)
	// Warn, if set, receives notes about repairs, such as a partial
	// line dropped from a run that was killed.
	Warn func(msg string)
	// Registry finds the seats' bots (nil: agent.Lookup, programs
	// included): a host that runs experiments for its clients passes
	// its own.
	Registry Registry

	// noPlots leaves the figures out: a tuning run's generations are
	// experiments of many variants whose plots nobody reads.
	noPlots bool
}

// Seatable checks that r seats every bot of e's variants: a host that
// refuses programs refuses an experiment that seats one before it runs.
func (e *Experiment) Seatable(r Registry) error {
	for _, va := range e.Variants {
		for _, s := range va.Seats {
			if _, err := r.Lookup(s.Bot); err != nil {
				return fmt.Errorf("arena: variant %s: %w", va.Name, err)
			}
		}
	}
	return nil
}

// RunReport says what a run did.
type RunReport struct {
	Info     RunInfo
	Resumed  int // games found in the directory
	Played   int // games played now
	Complete bool
	// Summary sums up the games in the directory, as written to it.
	Summary ExperimentSummary
}

// Run plays the experiment's games (of one shard) into o.Dir, resuming
// from the games already there: a run stopped by ctx, or killed, is
// continued by calling Run again with the same spec and shard, and ends
// with the same files as a run never stopped. The summaries, and plots
// unless the run is a shard, are rewritten at the end, stopped or not.
// A stopped run returns its report and ctx's error; a run stopped by a
// game that failed (a bot's illegal action) keeps the games before it,
// summaries included, and returns the game's error.
//
// o.Dir must be new, empty, or hold this run already: a directory with
// anything else is refused (ErrBadDir), and so is one another process is
// writing (dirlock.ErrBusy), which Run holds locked while it writes.
func (e *Experiment) Run(ctx context.Context, o RunOptions) (RunReport, error) {
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Shards < 1 || o.Shard < 0 || o.Shard >= o.Shards {
		return RunReport{}, fmt.Errorf("arena: shard %d/%d: want 0 <= shard < shards", o.Shard, o.Shards)
	}
	if err := e.Seatable(o.Registry); err != nil {
		return RunReport{}, err
	}
	info := RunInfo{Experiment: e.Name, Fingerprint: e.fingerprint, Shard: o.Shard, Shards: o.Shards,
		Games: e.ShardGames(o.Shard, o.Shards), Layout: ShardLayout}
	rep := RunReport{Info: info}
	// A directory that is not this program's is refused before the
	// lock file goes into it; prepareDir checks again under the lock.
	if _, err := ReadRunInfo(o.Dir); errors.Is(err, os.ErrNotExist) {
		if err := checkEmpty(o.Dir, "no experiment run"); err != nil {
			return rep, err
		}
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return rep, fmt.Errorf("arena: %w", err)
	}
	lock, err := dirlock.Exclusive(o.Dir)
	if err != nil {
		return rep, err
	}
	defer lock.Release()
	if err := e.prepareDir(o.Dir, info); err != nil {
		return rep, err
	}
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	resPath := filepath.Join(o.Dir, ResultsFile)
	acc := newSummaryAcc(e)
	done, err := scanResults(resPath, e, info, acc, warn)
	if err != nil {
		return rep, err
	}
	rep.Resumed = done
	var traceFiles []*os.File
	if e.Detail == DetailFull {
		for v := range e.Variants {
			f, err := e.openTraces(o.Dir, v, info, done, warn)
			if err != nil {
				return rep, err
			}
			defer f.Close()
			traceFiles = append(traceFiles, f)
		}
	}
	res, err := os.OpenFile(resPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return rep, fmt.Errorf("arena: %w", err)
	}
	defer res.Close()

	// The first game is written at once, later ones every flushEvery.
	w := &gameWriter{res: res, traces: traceFiles}
	var (
		mu      sync.Mutex
		workers = map[*Table]*expWorker{}
	)
	play := func(idx int, t *Table) (gameOut, error) {
		mu.Lock()
		wk := workers[t]
		if wk == nil {
			wk = newExpWorker(e, o.Registry)
			workers[t] = wk
		}
		mu.Unlock()
		return wk.play(e, e.ShardGame(info.Shard, info.Shards, done+idx))
	}
	writeFailed := false
	emit := func(_ int, g gameOut) error {
		if err := w.write(g); err != nil {
			writeFailed = true
			return err
		}
		if err := acc.add(g.line, g.rec); err != nil {
			writeFailed = true
			return fmt.Errorf("arena: %w", err)
		}
		rep.Played++
		if o.Progress != nil {
			o.Progress(done+rep.Played, info.Games)
		}
		return nil
	}
	runErr := Run(ctx, info.Games-done, o.Workers, play, emit)
	for _, wk := range workers {
		wk.close()
	}
	if err := w.flush(); err != nil {
		writeFailed, runErr = true, cmp.Or(runErr, err)
	}
	if writeFailed {
		// The results on disk are not what the summaries would say.
		return rep, runErr
	}
	rep.Complete = done+rep.Played == info.Games
	rep.Summary = acc.result()
	// A shard's figures would show part of the games: left to the merge.
	if err := WriteSummaries(o.Dir, e, rep.Summary, o.Shards == 1 && !o.noPlots); err != nil {
		return rep, err
	}
	return rep, runErr
}

// prepareDir makes dir (which exists) hold the run described by info: an
// empty directory gets run.json and the spec; one that holds anything
// else must hold the same run.
func (e *Experiment) prepareDir(dir string, info RunInfo) error {
	have, err := ReadRunInfo(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := checkEmpty(dir, "no experiment run"); err != nil {
			return err
		}
		// run.json first: a run killed before the spec is written
		// leaves a directory that says whose it is, and the next run
		// writes the spec.
		data, err := json.MarshalIndent(info, "", "  ")
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if err := writeFileAtomic(filepath.Join(dir, RunFile), append(data, '\n')); err != nil {
			return err
		}
		return writeFileAtomic(filepath.Join(dir, SpecFile), e.Source)
	case err != nil:
		return err
	case have.Fingerprint != info.Fingerprint:
		return badDir("%s holds experiment %q from another spec (or other default rules): give another --out to start afresh", dir, have.Experiment)
	case have.Shard != info.Shard || have.Shards != info.Shards:
		return badDir("%s holds shard %d/%d of this experiment, not %d/%d", dir, have.Shard, have.Shards, info.Shard, info.Shards)
	}
	if err := e.checkRunGames(dir, have); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, SpecFile)); errors.Is(err, os.ErrNotExist) {
		return writeFileAtomic(filepath.Join(dir, SpecFile), e.Source) // lost: the same experiment's
	}
	return nil
}

// checkEmpty refuses a directory that holds anything (but a lock file):
// what holds says what it lacks to be reused.
func checkEmpty(dir, holds string) error { return checkEmptyBut(dir, holds, nil) }

// checkEmptyBut is checkEmpty with the entries keep left out. Files being
// written whole (atomicfile.TempPrefix) are left out too: another shard of
// the same run may be making its first file at this instant, and a
// temporary file is no sign of another run.
func checkEmptyBut(dir, holds string, keep map[string]bool) error {
	all, err := dirlock.Entries(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, n := range all {
		if !keep[n] && !strings.HasPrefix(n, atomicfile.TempPrefix) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	shown := strings.Join(names[:min(3, len(names))], ", ")
	if len(names) > 3 {
		shown += ", ..."
	}
	return badDir("%s is not empty (%s) and holds %s: give a new or empty directory", dir, shown, holds)
}

// ReadRunInfo reads a directory's run.json. A key missing, or a value no
// run writes, is an error naming the line and the key (ErrBadDir); so is
// a shard layout other than ShardLayout.
func ReadRunInfo(dir string) (RunInfo, error) {
	var info RunInfo
	path := filepath.Join(dir, RunFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return info, err
	}
	// Pointers tell a key left out from one set to its zero value.
	var f struct {
		Experiment  *string `json:"experiment"`
		Fingerprint *string `json:"fingerprint"`
		Shard       *int    `json:"shard"`
		Shards      *int    `json:"shards"`
		Games       *int    `json:"games"`
		Layout      *int    `json:"shard_layout"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return info, jsonFileError(path, data, err)
	}
	// Before the other keys: a directory of another layout holds its
	// games in another order, so nothing in it can be used, however
	// well formed.
	switch {
	case f.Layout == nil || *f.Layout < ShardLayout:
		return info, badDir("%s: made by an older gopoly with another shard layout: run it again", dir)
	case *f.Layout > ShardLayout:
		return info, badDir("%s: made by a newer gopoly with another shard layout (%d): use that gopoly", dir, *f.Layout)
	}
	bad := func(key, format string, args ...any) error {
		return badDir("%s:%d: %s: %s", path, jsonKeyLine(data, key), key, fmt.Sprintf(format, args...))
	}
	for _, k := range []struct {
		key string
		set bool
	}{{"experiment", f.Experiment != nil}, {"fingerprint", f.Fingerprint != nil}, {"shard", f.Shard != nil}, {"shards", f.Shards != nil}, {"games", f.Games != nil}} {
		if !k.set {
			return info, bad(k.key, "missing")
		}
	}
	info = RunInfo{Experiment: *f.Experiment, Fingerprint: *f.Fingerprint, Shard: *f.Shard, Shards: *f.Shards, Games: *f.Games, Layout: *f.Layout}
	switch {
	case info.Shards < 1:
		return info, bad("shards", "%d: want 1 or more", info.Shards)
	case info.Shard < 0 || info.Shard >= info.Shards:
		return info, bad("shard", "%d: want 0 to %d, one of its %d shards", info.Shard, info.Shards-1, info.Shards)
	case info.Games < 0:
		return info, bad("games", "%d: want 0 or more", info.Games)
	}
	return info, nil
}

// checkRunGames checks that the games a directory's run.json (have)
// counts are those the experiment gives that shard.
func (e *Experiment) checkRunGames(dir string, have RunInfo) error {
	want := e.ShardGames(have.Shard, have.Shards)
	if have.Games == want {
		return nil
	}
	path := filepath.Join(dir, RunFile)
	data, _ := os.ReadFile(path)
	return badDir("%s:%d: games: %d where shard %d/%d of the spec has %d", path, jsonKeyLine(data, "games"),
		have.Games, have.Shard, have.Shards, want)
}

// jsonFileError places an error decoding the JSON file path (data): a
// syntax error at its line and column, a value of the wrong type at its
// line and key.
func jsonFileError(path string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := jsonerr.Pos(data, se.Offset)
		return badDir("%s:%d:%d: %v", path, line, col, se)
	case errors.As(err, &te) && te.Field != "":
		line, _ := jsonerr.Pos(data, te.Offset)
		return badDir("%s:%d: %s: want %s, got %s", path, line, te.Field, jsonerr.Want(te.Type), te.Value)
	}
	return badDir("%s: %v", path, err)
}

// jsonKeyLine returns the line of key in the JSON object data, or the
// line the object opens on when it has no such key: a key missing is
// missing from the object.
func jsonKeyLine(data []byte, key string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 1
	}
	open, _ := jsonerr.Pos(data, dec.InputOffset())
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if tok == key {
			line, _ := jsonerr.Pos(data, dec.InputOffset())
			return line
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return open
}

// recordJSON is a line of results.jsonl as read back, GameRecord with
// pointers that tell a key left out from one set to its zero value.
type recordJSON struct {
	Variant   *string       `json:"variant"`
	Game      *int          `json:"game"`
	Seed      *uint64       `json:"seed"`
	Winner    *int          `json:"winner"`
	Rounds    *int          `json:"rounds"`
	Capped    *bool         `json:"capped"`
	Stalled   bool          `json:"stalled"`
	Rolls     *int64        `json:"rolls"`
	Decisions *int64        `json:"decisions"`
	Players   *[]playerJSON `json:"players"`
}

type playerJSON struct {
	Seat     *int                `json:"seat"`
	Bot      *string             `json:"bot"`
	Params   map[string]float64  `json:"params"`
	Measures map[string]float64  `json:"measures"`
	Examples map[string][]string `json:"examples"`
	*SeatMetrics
}

// lineError is what is wrong with a line of a results file.
type lineError struct {
	col   int    // of a JSON syntax error, from 1; 0 for a line that parses
	field string // the field at fault; "" for the line as a whole
	msg   string
	// garbled is a line that is no JSON game record at all, as a crash
	// may leave.
	garbled bool
}

// at places the problem at line n of path.
func (l *lineError) at(path string, n int) error {
	loc := fmt.Sprintf("%s:%d", path, n)
	if l.col > 0 {
		loc += fmt.Sprintf(":%d", l.col)
	}
	if l.field != "" {
		return badDir("%s: %s: %s", loc, l.field, l.msg)
	}
	return badDir("%s: %s", loc, l.msg)
}

// checkLine decodes line into rec and checks that it is game m of the
// shard: every key there, the game and seed that belong at that line,
// and values the game can have (a winner among the variant's seats, its
// players seated as the rotation seats them). It returns nil or the
// problem.
func checkLine(line []byte, e *Experiment, info RunInfo, m int, rec *GameRecord) *lineError {
	var r recordJSON
	if err := json.Unmarshal(line, &r); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return &lineError{col: max(1, int(se.Offset)), msg: "not a game record: " + se.Error(), garbled: true}
		case errors.As(err, &te) && te.Field != "":
			return &lineError{field: te.Field, msg: fmt.Sprintf("want %s, got %s", jsonerr.Want(te.Type), te.Value), garbled: true}
		}
		return &lineError{msg: "not a game record: " + err.Error(), garbled: true}
	}
	bad := func(field, format string, args ...any) *lineError {
		return &lineError{field: field, msg: fmt.Sprintf(format, args...)}
	}
	for _, k := range []struct {
		key string
		set bool
	}{{"variant", r.Variant != nil}, {"game", r.Game != nil}, {"seed", r.Seed != nil}, {"winner", r.Winner != nil}, {"rounds", r.Rounds != nil},
		{"capped", r.Capped != nil}, {"rolls", r.Rolls != nil}, {"decisions", r.Decisions != nil}, {"players", r.Players != nil}} {
		if !k.set {
			return bad(k.key, "missing")
		}
	}
	if m >= info.Games {
		return &lineError{msg: fmt.Sprintf("more lines than the %d games of the shard", info.Games)}
	}
	v, j := e.Game(e.ShardGame(info.Shard, info.Shards, m))
	va := &e.Variants[v]
	if *r.Variant != va.Name || *r.Game != j {
		return &lineError{msg: fmt.Sprintf("game %d of variant %q where game %d of %q belongs", *r.Game, *r.Variant, j, va.Name)}
	}
	n := len(va.Seats)
	switch {
	case *r.Seed != e.Seeds.Seed(j):
		return bad("seed", "%d where the spec seeds game %d with %d", *r.Seed, j, e.Seeds.Seed(j))
	case *r.Winner < -1 || *r.Winner >= n:
		return bad("winner", "%d: want -1 (none) or a seat of variant %q, 0 to %d", *r.Winner, va.Name, n-1)
	case *r.Rounds < 0:
		return bad("rounds", "%d: want 0 or more", *r.Rounds)
	case *r.Rolls < 0:
		return bad("rolls", "%d: want 0 or more", *r.Rolls)
	case *r.Decisions < 0:
		return bad("decisions", "%d: want 0 or more", *r.Decisions)
	case r.Stalled && !*r.Capped:
		return bad("stalled", "a stalled game is adjourned as a timed game, but capped is false")
	case len(*r.Players) != n:
		return bad("players", "%d players where variant %q seats %d", len(*r.Players), va.Name, n)
	}
	*rec = GameRecord{Variant: *r.Variant, Game: *r.Game, Seed: *r.Seed, Winner: *r.Winner, Rounds: *r.Rounds, Capped: *r.Capped,
		Stalled: r.Stalled, Rolls: *r.Rolls, Decisions: *r.Decisions, Players: make([]PlayerRecord, n)}
	for p, pl := range *r.Players {
		f := fmt.Sprintf("players[%d]", p)
		switch seat := va.seatAt(j, p); {
		case pl.Seat == nil:
			return bad(f+".seat", "missing")
		case pl.Bot == nil:
			return bad(f+".bot", "missing")
		case *pl.Seat != seat:
			return bad(f+".seat", "%d where game %d of variant %q seats %d", *pl.Seat, j, va.Name, seat)
		case *pl.Bot != va.Seats[seat].Bot:
			return bad(f+".bot", "%q where seat %d of variant %q is %q", *pl.Bot, seat, va.Name, va.Seats[seat].Bot)
		case e.Detail >= DetailStats && pl.SeatMetrics == nil:
			return bad(f, "no metrics at detail %s", e.Detail)
		}
		rec.Players[p] = PlayerRecord{Seat: *pl.Seat, Bot: *pl.Bot, Params: pl.Params, Measures: pl.Measures, Examples: pl.Examples, SeatMetrics: pl.SeatMetrics}
	}
	return nil
}

// scanResults checks the results already in path against the run and
// returns how many games they hold. A last line cut short (a killed run)
// is dropped with a warning; anything else out of place is an error.
func scanResults(path string, e *Experiment, info RunInfo, acc *summaryAcc, warn func(string)) (int, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("arena: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	var good int64
	for m := 0; ; m++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			if len(line) > 0 {
				warn(fmt.Sprintf("%s: dropped an unfinished last line (game %d of the shard will be played again)", path, m))
				return m, truncate(f, good)
			}
			return m, nil
		}
		if err != nil {
			return 0, fmt.Errorf("arena: %w", err)
		}
		var rec GameRecord
		if le := checkLine(line, e, info, m, &rec); le != nil {
			if _, err := r.Peek(1); err == io.EOF && le.garbled {
				warn(fmt.Sprintf("%s: dropped a damaged last line (game %d of the shard will be played again)", path, m))
				return m, truncate(f, good)
			}
			return 0, le.at(path, m+1)
		}
		if err := acc.add(line, &rec); err != nil {
			return 0, badDir("%s:%d: %v", path, m+1, err)
		}
		good += int64(len(line))
	}
}

func truncate(f *os.File, size int64) error {
	if err := f.Truncate(size); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// openTraces opens variant v's trace file for appending after cutting it
// back to the traces of the games already in the results (done games of
// the shard): a killed run may have written traces of games whose
// results it did not.
func (e *Experiment) openTraces(dir string, v int, info RunInfo, done int, warn func(string)) (*os.File, error) {
	vdir := filepath.Join(dir, VariantsDir, e.Variants[v].Name)
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	path := filepath.Join(vdir, TracesFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	// The done games of the variant are the first ones of the variant in
	// the shard's order; count them.
	want := 0
	for m := range done {
		if vv, _ := e.Game(e.ShardGame(info.Shard, info.Shards, m)); vv == v {
			want++
		}
	}
	r := bufio.NewReaderSize(f, 1<<16)
	var (
		good  int64
		games int
		last  = -1
	)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil && err != io.EOF {
			f.Close()
			return nil, fmt.Errorf("arena: %w", err)
		}
		complete := err == nil
		var key struct {
			Game *int `json:"game"`
		}
		if !complete || json.Unmarshal(line, &key) != nil || key.Game == nil {
			if len(line) > 0 {
				warn(fmt.Sprintf("%s: dropped an unfinished last line", path))
			}
			break
		}
		if *key.Game != last {
			if games == want {
				break // a game whose result was not written
			}
			games++
			last = *key.Game
		}
		good += int64(len(line))
	}
	if games < want {
		f.Close()
		return nil, badDir("%s: traces of %d games where the results hold %d", path, games, want)
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, fmt.Errorf("arena: %w", err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("arena: %w", err)
	}
	return f, nil
}

// gameOut is one played game, encoded.
type gameOut struct {
	rec     *GameRecord
	variant int
	line    []byte // results line
	traces  []byte // trace lines (detail full)
}

// gameWriter writes games in order. It buffers and writes traces before
// results, so that the results never name a game whose traces were not
// written: a killed run leaves at most surplus traces and a partial
// last line, both cut on resume.
type gameWriter struct {
	res    *os.File
	traces []*os.File
	rbuf   bytes.Buffer
	tbuf   []bytes.Buffer
	last   time.Time
}

// flushEvery bounds what a killed run loses.
const flushEvery = 250 * time.Millisecond

func (w *gameWriter) write(g gameOut) error {
	w.rbuf.Write(g.line)
	if len(w.traces) > 0 {
		if w.tbuf == nil {
			w.tbuf = make([]bytes.Buffer, len(w.traces))
		}
		w.tbuf[g.variant].Write(g.traces)
	}
	if w.rbuf.Len() > 1<<20 || time.Since(w.last) > flushEvery {
		return w.flush()
	}
	return nil
}

func (w *gameWriter) flush() error {
	w.last = time.Now()
	for i := range w.tbuf {
		if _, err := w.traces[i].Write(w.tbuf[i].Bytes()); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		w.tbuf[i].Reset()
	}
	if _, err := w.res.Write(w.rbuf.Bytes()); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	w.rbuf.Reset()
	return nil
}

// expWorker is one worker's tables (one per variant and seat rotation,
// so that players are reused from game to game) and collectors.
type expWorker struct {
	tables [][]Table
	seats  []Seat
	m      Metrics
	tr     tracer
	watch  func(*monopoly.Game)
	reg    Registry
}

func newExpWorker(e *Experiment, reg Registry) *expWorker {
	w := &expWorker{tables: make([][]Table, len(e.Variants)), reg: reg}
	for v := range e.Variants {
		n := 1
		if e.Variants[v].Rotate {
			n = len(e.Variants[v].Seats)
		}
		w.tables[v] = make([]Table, n)
	}
	switch e.Detail {
	case DetailStats:
		w.watch = w.m.Watch
	case DetailFull:
		w.watch = func(g *monopoly.Game) {
			ev := g.TakeEvents()
			w.m.Observe(g, ev)
			w.tr.observe(g, ev)
		}
	}
	return w
}

// close closes the players of the worker's tables (Table.Close).
func (w *expWorker) close() {
	for v := range w.tables {
		for i := range w.tables[v] {
			w.tables[v][i].Close()
		}
	}
}

// play plays game k of the experiment.
func (w *expWorker) play(e *Experiment, k int) (gameOut, error) {
	v, j := e.Game(k)
	va := &e.Variants[v]
	n := len(va.Seats)
	w.seats = w.seats[:0]
	for p := range n {
		w.seats = append(w.seats, va.Seats[va.seatAt(j, p)])
	}
	t := &w.tables[v][0]
	if va.Rotate {
		t = &w.tables[v][j%n]
	}
	seed := e.Seeds.Seed(j)
	w.m.Reset(n)
	if e.Detail == DetailFull {
		w.tr.reset(j)
	}
	res, err := t.play(Match{Rules: va.Rules, Seats: w.seats, Seed: seed, Game: j, Watch: w.watch, Words: e.Detail == DetailFull, Registry: w.reg})
	if err != nil {
		return gameOut{}, fmt.Errorf("arena: variant %s, game %d (seed %d): %w", va.Name, j, seed, err)
	}
	g := t.Game()
	rec := GameRecord{Variant: va.Name, Game: j, Seed: seed, Winner: -1, Rounds: res.Rounds, Capped: res.Capped, Stalled: res.Stalled,
		Rolls: res.Rolls, Decisions: res.Decisions, Players: make([]PlayerRecord, n)}
	if res.Winner >= 0 {
		rec.Winner = va.seatAt(j, res.Winner)
	}
	ms, exs := t.Measures(), t.Examples()
	var metrics []SeatMetrics
	if e.Detail >= DetailStats {
		w.m.Finish(g)
		metrics = make([]SeatMetrics, n)
	}
	for p := range n {
		rec.Players[p] = PlayerRecord{Seat: va.seatAt(j, p), Bot: w.seats[p].Bot, Params: w.seats[p].Params.Drawn(SeatSeed(seed, p))}
		if ms != nil {
			rec.Players[p].Measures = ms[p]
		}
		if exs != nil {
			rec.Players[p].Examples = exs[p]
		}
		rec.Players[p].Fallbacks, rec.Players[p].Retired = res.Accounts[p].Fallbacks, res.Accounts[p].Retirements > 0
		if metrics != nil {
			metrics[p] = w.m.Seat(p)
			rec.Players[p].SeatMetrics = &metrics[p]
		}
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return gameOut{}, fmt.Errorf("arena: %w", err)
	}
	out := gameOut{rec: &rec, variant: v, line: append(line, '\n')}
	if e.Detail == DetailFull {
		if err := w.tr.finish(g); err != nil {
			return gameOut{}, err
		}
		out.traces = bytes.Clone(w.tr.buf.Bytes())
	}
	return out, nil
}

// writeFileAtomic writes data to path through a temporary file, so that
// a crash leaves the old file or the new one.
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}
