package arena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gopoly/gopoly/internal/atomicfile"
	"github.com/gopoly/gopoly/internal/dirlock"
)

// Files of a tuning run's output directory.
const (
	TuneSpecFile   = "tune.yaml"      // the spec as written
	TuneRunFile    = "tune.json"      // what the directory holds: TuneInfo
	ProgressFile   = "progress.jsonl" // one TuneCandidate per line, in the order played
	BestParamsFile = "best.yaml"      // the best knobs, as a --params file
	GenerationsDir = "generations"    // generations/G: generation G's experiment
	ValidationDir  = "validation"     // the validation's experiment
	ShardsDir      = "shards"         // EXPERIMENT/shards/i: shard i's games, merged into EXPERIMENT
)

// TuneInfo is tune.json: which tuning run a directory holds, and in how
// many shards it is played.
type TuneInfo struct {
	Tune        string `json:"tune"`
	Fingerprint string `json:"fingerprint"`
	Shards      int    `json:"shards"`
}

// TuneOptions say where and how to run a tuning.
type TuneOptions struct {
	Dir string
	// Shard and Shards: this process plays shard Shard of Shards of every
	// generation's experiment (Shards 0 means 1), each in its directory
	// EXPERIMENT/shards/Shard, and waits for the other shards' games,
	// played by other processes into the same directory, before the next
	// generation. Shard 0 merges each experiment and writes the outputs.
	Shard, Shards int
	Workers       int // 0: all cores
	// Progress, if set, is called after each game this process plays with
	// its games played and to play, those of earlier runs included.
	Progress func(done, total int)
	// Note, if set, receives notes: repairs of a killed run's files, and
	// a shard waiting for the others.
	Note func(msg string)
	// Poll is how often, at most, a shard looks for the other shards'
	// games (0: a second).
	Poll time.Duration
}

// TuneReport says what a tuning run did.
type TuneReport struct {
	Resumed int // experiments (generations and validation) found played
	Played  int // experiments played, in part or whole, now
	Games   int // games played now by this process
	Summary TuneSummary
}

// Run tunes into o.Dir: the generations, then the validation. A run
// stopped by ctx, or killed, is continued by calling Run again with the
// same spec: CMA-ES is told the results of the generations played and
// draws the same candidates again, and the experiment under way resumes
// where it stopped, so the run ends with the files of one never stopped.
// The outputs (progress.jsonl, best.yaml, summary.json, progress.png and
// .svg) are rewritten after each generation, and at a stop. A stopped
// run returns its report and ctx's error; a run stopped by a game that
// failed returns the game's error.
//
// o.Dir must be new, empty, or hold this tuning run already, in as many
// shards: anything else is refused (ErrBadDir), as is a directory
// another process writes (dirlock.ErrBusy). Shard 0 (or the only one)
// holds it locked while it runs; every shard's experiments are locked by
// the shard that plays them.
func (t *Tune) Run(ctx context.Context, o TuneOptions) (TuneReport, error) {
	var rep TuneReport
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Shards < 1 || o.Shard < 0 || o.Shard >= o.Shards {
		return rep, fmt.Errorf("arena: shard %d/%d: want 0 <= shard < shards", o.Shard, o.Shards)
	}
	if o.Poll == 0 {
		o.Poll = time.Second
	}
	if o.Note == nil {
		o.Note = func(string) {}
	}
	if err := checkTuneDir(o.Dir); err != nil {
		return rep, err
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return rep, fmt.Errorf("arena: %w", err)
	}
	lead := o.Shard == 0
	if lead {
		lock, err := dirlock.Exclusive(o.Dir)
		if err != nil {
			return rep, err
		}
		defer lock.Release()
	}
	if err := t.claim(o.Dir, o.Shards); err != nil {
		return rep, err
	}
	if lead {
		if err := writeFileAtomic(filepath.Join(o.Dir, TuneSpecFile), t.Source); err != nil {
			return rep, err
		}
	}

	r := &tuneRun{t: t, o: o, lead: lead, rep: &rep, total: t.shardGames(o.Shard, o.Shards)}
	err := r.run(ctx)
	rep.Summary = r.summary()
	if lead {
		if werr := r.write(true); err == nil {
			err = werr
		}
	}
	return rep, err
}

// claim makes dir hold this tuning run, in shards shards: tune.json is
// made unless there, by whichever shard comes first, and must then name
// this run.
func (t *Tune) claim(dir string, shards int) error {
	have, err := readTuneInfo(dir)
	if errors.Is(err, os.ErrNotExist) {
		if err := checkTuneDir(dir); err != nil {
			return err
		}
		data, jerr := json.MarshalIndent(TuneInfo{Tune: t.Name, Fingerprint: t.fingerprint, Shards: shards}, "", "  ")
		if jerr != nil {
			return fmt.Errorf("arena: %w", jerr)
		}
		if err := createOnce(filepath.Join(dir, TuneRunFile), append(data, '\n')); err != nil {
			return err
		}
		have, err = readTuneInfo(dir)
	}
	switch {
	case err != nil:
		return err
	case have.Fingerprint != t.fingerprint:
		return badDir("%s holds tuning run %q from another spec (or other default rules): give another --out to start afresh, or that spec to go on", dir, have.Tune)
	case have.Shards != shards:
		split := func(n int) string {
			if n == 1 {
				return "unsharded"
			}
			return fmt.Sprintf("in %d shards (--shard i/%d)", n, n)
		}
		return badDir("%s holds tuning run %q played %s, not %s", dir, have.Tune, split(have.Shards), split(shards))
	}
	return nil
}

// checkTuneDir refuses a directory that holds anything but a tuning
// run: one without tune.json must be empty, unless another shard made
// tune.json meanwhile.
func checkTuneDir(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, TuneRunFile)); err == nil {
		return nil
	}
	err := checkEmpty(dir, "no tuning run")
	if _, serr := os.Stat(filepath.Join(dir, TuneRunFile)); err != nil && serr == nil {
		return nil
	}
	return err
}

// createOnce writes a new file at path, whole, unless one is there
// already (made by another process meanwhile), which it leaves.
func createOnce(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), atomicfile.TempPrefix+"*")
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if err := os.Link(f.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// readTuneInfo reads a directory's tune.json: a key missing, or a value
// no run writes, is an error naming it (ErrBadDir).
func readTuneInfo(dir string) (TuneInfo, error) {
	path := filepath.Join(dir, TuneRunFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return TuneInfo{}, err
	}
	var f struct {
		Tune        *string `json:"tune"`
		Fingerprint *string `json:"fingerprint"`
		Shards      *int    `json:"shards"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return TuneInfo{}, jsonFileError(path, data, err)
	}
	for _, k := range []struct {
		key string
		set bool
	}{{"tune", f.Tune != nil}, {"fingerprint", f.Fingerprint != nil}, {"shards", f.Shards != nil}} {
		if !k.set {
			return TuneInfo{}, badDir("%s:%d: %s: missing", path, jsonKeyLine(data, k.key), k.key)
		}
	}
	if *f.Shards < 1 {
		return TuneInfo{}, badDir("%s:%d: shards: %d: want 1 or more", path, jsonKeyLine(data, "shards"), *f.Shards)
	}
	return TuneInfo{Tune: *f.Tune, Fingerprint: *f.Fingerprint, Shards: *f.Shards}, nil
}

// shardSeeds returns how many of count seeds shard i of n plays: those
// j with j mod n = i.
func shardSeeds(count, i, n int) int {
	if i >= count {
		return 0
	}
	return (count - i + n - 1) / n
}

// shardGames returns how many games shard i of n plays in the whole run,
// should no generation end it early.
func (t *Tune) shardGames(i, n int) int {
	return t.Generations*t.Population*shardSeeds(t.Games, i, n) + 2*shardSeeds(t.ValidationGames, i, n)
}

// tuneRun is a tuning run under way.
type tuneRun struct {
	t     *Tune
	o     TuneOptions
	lead  bool // writes the outputs and merges the shards
	rep   *TuneReport
	done  int // games of this shard played, in this run and before
	total int

	gens       []generationResult
	converged  bool
	validation []score   // start, best
	plotted    time.Time // when the figures were last drawn
}

// score is a tuned bot's wins out of its games.
type score struct{ wins, games int }

// generationResult is a generation's candidates and their scores.
type generationResult struct {
	knobs  []knobSet
	scores []score
}

// objective is what CMA-ES minimises for a candidate at x in the unit
// cube that scored s: its win share, negated, and the penalty for lying
// outside the bounds.
func (s score) objective(x []float64) float64 {
	return -float64(s.wins)/float64(s.games) + tunePenalty*outside(x)
}

// tunePenalty weighs how far a point lies outside the bounds (outside)
// against the win share: at a tenth of the bounds' width outside, a
// candidate pays a hundredth of all games.
const tunePenalty = 1.0

func (r *tuneRun) run(ctx context.Context) error {
	t := r.t
	s := newSearch(t.toUnit(t.startKnobs()), t.Population, t.Step, t.Seed)
	defer s.stop()
	for g := range t.Generations {
		xs := s.ask()
		if xs == nil {
			r.converged = true
			break
		}
		knobs := make([]knobSet, len(xs))
		for i, x := range xs {
			knobs[i] = t.fromUnit(x)
		}
		e, err := t.generation(g, knobs)
		if err != nil {
			return err
		}
		scores, err := r.play(ctx, e, filepath.Join(r.o.Dir, GenerationsDir, fmt.Sprintf("%03d", g)))
		if err != nil {
			return err
		}
		r.gens = append(r.gens, generationResult{knobs: knobs, scores: scores})
		f := make([]float64, len(xs))
		for i, sc := range scores {
			f[i] = sc.objective(xs[i])
		}
		s.tell(f)
		if r.lead {
			if err := r.write(false); err != nil {
				return err
			}
		}
	}
	if t.ValidationGames == 0 || len(r.gens) == 0 {
		return nil
	}
	best, _, _ := r.best()
	e, err := t.validation(r.gens[best.gen].knobs[best.cand])
	if err != nil {
		return err
	}
	r.validation, err = r.play(ctx, e, filepath.Join(r.o.Dir, ValidationDir))
	return err
}

// play plays this process's shard of e into dir (dir/shards/i when the
// run is sharded), waits for the other shards' games, and returns every
// variant's score, those of all shards summed.
func (r *tuneRun) play(ctx context.Context, e *Experiment, dir string) ([]score, error) {
	n, i := r.o.Shards, r.o.Shard
	shardDir := func(j int) string {
		if n == 1 {
			return dir
		}
		return filepath.Join(dir, ShardsDir, strconv.Itoa(j))
	}
	sum, ok, stale, err := shardDone(shardDir(i), e, i, n)
	switch {
	case err != nil:
		return nil, err
	case ok && !stale:
		r.rep.Resumed++
		r.done += e.ShardGames(i, n)
	default:
		// Not played whole, or killed before its summaries were
		// rewritten: a run plays what is left and rewrites them.
		r.rep.Played++
		base := r.done
		rep, err := e.Run(ctx, RunOptions{Dir: shardDir(i), Shard: i, Shards: n, Workers: r.o.Workers, noPlots: true, Warn: r.o.Note,
			Progress: func(done, _ int) {
				r.done = base + done
				if r.o.Progress != nil {
					r.o.Progress(r.done, r.total)
				}
			}})
		r.rep.Games += rep.Played
		// Stopped when the games under way were the last: played whole.
		if err != nil && !(rep.Complete && ctx.Err() != nil) {
			return nil, err
		}
		r.done, sum = base+rep.Info.Games, rep.Summary
	}
	sums := []ExperimentSummary{sum}
	if n > 1 {
		if sums, err = r.await(ctx, e, dir, shardDir); err != nil {
			return nil, err
		}
	}
	scores := make([]score, len(e.Variants))
	for _, s := range sums {
		for v, vs := range s.Variants {
			scores[v].wins += vs.Seats[0].Wins
			scores[v].games += vs.Games
		}
	}
	if r.lead && n > 1 {
		if _, err := ReadRunInfo(dir); errors.Is(err, os.ErrNotExist) {
			dirs := make([]string, n)
			for j := range dirs {
				dirs[j] = shardDir(j)
			}
			if _, _, err := mergeExperiment(dirs, dir, false); err != nil {
				return nil, err
			}
		}
	}
	return scores, nil
}

// await waits until every shard of e in dir has played its games, and
// returns their summaries by shard.
func (r *tuneRun) await(ctx context.Context, e *Experiment, dir string, shardDir func(int) string) ([]ExperimentSummary, error) {
	n := r.o.Shards
	sums := make([]ExperimentSummary, n)
	have := make([]bool, n)
	noted := false
	// Shards of one generation end at about the same time: look again
	// soon, then less and less often, up to every Poll.
	wait := min(50*time.Millisecond, r.o.Poll)
	for {
		var waiting []int
		for j := range n {
			if have[j] {
				continue
			}
			s, ok, _, err := shardDone(shardDir(j), e, j, n)
			if err != nil {
				return nil, err
			}
			if sums[j], have[j] = s, ok; !ok {
				waiting = append(waiting, j)
			}
		}
		if waiting == nil {
			return sums, nil
		}
		if !noted {
			noted = true
			r.o.Note(fmt.Sprintf("%s: waiting for the games of shard %v of %d", dir, waiting, n))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, r.o.Poll)
	}
}

// shardDone returns the summary of shard j of n of e in dir, whether
// the shard has played all its games, and whether its summary.json is
// stale (a run killed before it rewrote it). A directory another
// process is writing is not done; one that holds anything but the shard
// of e is an error.
func shardDone(dir string, e *Experiment, j, n int) (s ExperimentSummary, done, stale bool, err error) {
	info, err := ReadRunInfo(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return s, false, false, nil
	case err != nil:
		return s, false, false, err
	case info.Fingerprint != e.Fingerprint():
		return s, false, false, badDir("%s holds another experiment than the %s this tuning run plays there (made by another gopoly, which drew other candidates?): give another --out to start afresh",
			dir, e.Name)
	case info.Shard != j || info.Shards != n:
		return s, false, false, badDir("%s holds shard %d/%d of %s, not %d/%d", dir, info.Shard, info.Shards, e.Name, j, n)
	}
	if _, err := os.Stat(filepath.Join(dir, ResultsFile)); errors.Is(err, os.ErrNotExist) {
		return s, false, false, nil // killed before its first game
	}
	lock, err := dirlock.Shared(dir)
	if errors.Is(err, dirlock.ErrBusy) {
		return s, false, false, nil
	}
	if err != nil {
		return s, false, false, err
	}
	defer lock.Release()
	s, why, err := LoadSummary(dir, e, info)
	if err != nil {
		return s, false, false, err
	}
	games := 0
	for _, v := range s.Variants {
		games += v.Games
	}
	return s, games == info.Games, why != "", nil
}

// candidateAt names a candidate: its generation and number.
type candidateAt struct{ gen, cand int }

// best returns the candidate that won the largest share of its games,
// the first such, with its score; ok is false before any generation.
func (r *tuneRun) best() (at candidateAt, sc score, ok bool) {
	for g, gr := range r.gens {
		for c, s := range gr.scores {
			// wins/games > best wins/best games, without division.
			if !ok || s.wins*sc.games > sc.wins*s.games {
				at, sc, ok = candidateAt{g, c}, s, true
			}
		}
	}
	return at, sc, ok
}
