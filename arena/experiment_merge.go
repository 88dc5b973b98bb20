package arena

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopoly/gopoly/internal/dirlock"
)

// OpenExperimentDir reads the experiment an output directory holds: its
// run.json and the spec copied into it, which must still give the same
// fingerprint (the same bots and default rules).
func OpenExperimentDir(dir string) (*Experiment, RunInfo, error) {
	info, err := ReadRunInfo(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, info, badDir("%s: no %s: not an experiment directory", dir, RunFile)
	}
	if err != nil {
		return nil, info, err
	}
	e, err := LoadExperiment(filepath.Join(dir, SpecFile))
	if err != nil {
		return nil, info, err
	}
	if e.Fingerprint() != info.Fingerprint {
		return e, info, badDir("%s: its spec no longer gives the experiment it was run with (the default rules or the spec changed)", dir)
	}
	return e, info, e.checkRunGames(dir, info)
}

// MergeExperiment combines the shard directories dirs (every shard of
// one run, each complete) into out, which then holds what one unsharded
// run writes: the same results, traces, summaries and plots, byte for
// byte. out must be new, empty, or hold a merge (or a whole run) of this
// experiment already. The shards' specs give the same experiment (the
// same fingerprint) but may differ in comments, layout or description:
// out gets shard 0's, so that the order of dirs does not matter. The
// shards are locked against writers while they are read, and out
// against any other process while it is written.
func MergeExperiment(dirs []string, out string) (*Experiment, RunInfo, error) {
	return mergeExperiment(dirs, out, true)
}

// mergeExperiment is MergeExperiment, with the figures only when plots
// is set.
func mergeExperiment(dirs []string, out string, plots bool) (*Experiment, RunInfo, error) {
	if len(dirs) == 0 {
		return nil, RunInfo{}, badDir("no shard directories to merge")
	}
	var (
		exps   []*Experiment // by shard
		first  RunInfo
		byIdx  []string
		shards int
	)
	for _, d := range dirs {
		de, info, err := OpenExperimentDir(d)
		if err != nil {
			return nil, RunInfo{}, err
		}
		lock, err := dirlock.Shared(d)
		if err != nil {
			return nil, RunInfo{}, err
		}
		defer lock.Release()
		if exps == nil {
			first, shards = info, info.Shards
			byIdx, exps = make([]string, shards), make([]*Experiment, shards)
		} else if info.Fingerprint != first.Fingerprint {
			return nil, RunInfo{}, badDir("%s holds another experiment than %s (%q from another spec)", d, dirs[0], info.Experiment)
		}
		if info.Shards != shards {
			return nil, RunInfo{}, badDir("%s is shard %d of %d, %s shard %d of %d: shards of different splits", d, info.Shard, info.Shards, dirs[0], first.Shard, first.Shards)
		}
		if prev := byIdx[info.Shard]; prev != "" {
			return nil, RunInfo{}, badDir("shard %d/%d given twice: %s and %s", info.Shard, shards, prev, d)
		}
		byIdx[info.Shard], exps[info.Shard] = d, de
	}
	var missing []string
	for i, d := range byIdx {
		if d == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, shards))
		}
	}
	if missing != nil {
		return nil, RunInfo{}, badDir("missing shard %s", strings.Join(missing, ", "))
	}
	e := exps[0]
	// Each shard must be complete and in order.
	for i, d := range byIdx {
		info := RunInfo{Fingerprint: first.Fingerprint, Shard: i, Shards: shards, Games: e.ShardGames(i, shards), Layout: ShardLayout}
		n, err := countShard(filepath.Join(d, ResultsFile), e, info)
		if err != nil {
			return nil, RunInfo{}, err
		}
		if n < info.Games {
			return nil, RunInfo{}, badDir("%s: shard %d/%d has %d of its %d games: finish it first (gopoly experiment run %s --out %s --shard %d/%d)",
				d, i, shards, n, info.Games, filepath.Join(d, SpecFile), d, i, shards)
		}
	}

	whole := RunInfo{Experiment: e.Name, Fingerprint: first.Fingerprint, Shard: 0, Shards: 1, Games: e.Games(), Layout: ShardLayout}
	lock, err := prepareMergeDir(out, whole, dirs)
	if err != nil {
		return nil, RunInfo{}, err
	}
	defer lock.Release()
	if err := writeFileAtomic(filepath.Join(out, SpecFile), e.Source); err != nil {
		return nil, RunInfo{}, err
	}
	// Results: the games of seed j, one per variant, come from shard
	// j mod shards, whose lines are in order; so take a seed's lines from
	// each shard in turn.
	readers := make([]*lineReader, shards)
	for i, d := range byIdx {
		r, err := openLines(filepath.Join(d, ResultsFile))
		if err != nil {
			return nil, RunInfo{}, err
		}
		defer r.close()
		readers[i] = r
	}
	err = writeThrough(filepath.Join(out, ResultsFile), func(w *bufio.Writer) error {
		for k := range e.Games() {
			_, j := e.Game(k)
			line, err := readers[j%shards].next()
			if err != nil {
				return err
			}
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, RunInfo{}, err
	}
	if e.Detail == DetailFull {
		for v := range e.Variants {
			if err := mergeTraces(e, v, byIdx, out); err != nil {
				return nil, RunInfo{}, err
			}
		}
	}
	sum, err := SummarizeResults(out, e, whole)
	if err != nil {
		return nil, RunInfo{}, err
	}
	if err := WriteSummaries(out, e, sum, plots); err != nil {
		return nil, RunInfo{}, err
	}
	// run.json last: a merge cut short leaves a directory that says so.
	data, err := json.MarshalIndent(whole, "", "  ")
	if err != nil {
		return nil, RunInfo{}, fmt.Errorf("arena: %w", err)
	}
	return e, whole, writeFileAtomic(filepath.Join(out, RunFile), append(data, '\n'))
}

// countShard checks a shard's results line by line and counts them.
func countShard(path string, e *Experiment, info RunInfo) (int, error) {
	r, err := openLines(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer r.close()
	for m := 0; ; m++ {
		line, err := r.peek()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return 0, err
		}
		r.skip()
		var rec GameRecord
		if le := checkLine(line, e, info, m, &rec); le != nil {
			return 0, le.at(path, m+1)
		}
	}
}

// prepareMergeDir makes out ready for a merge, and locks it: new, empty,
// or holding this experiment whole already (which the merge replaces). A
// shard directory cannot be the output, but the shards may lie inside it
// (OUT/shards/i merged into OUT, as a cluster lays them out) under a name
// the merge does not write.
func prepareMergeDir(out string, whole RunInfo, dirs []string) (*dirlock.Lock, error) {
	abs, _ := filepath.Abs(out)
	keep := map[string]bool{}
	for _, d := range dirs {
		da, _ := filepath.Abs(d)
		if da == abs {
			return nil, badDir("the output %s is one of the shards", out)
		}
		rel, err := filepath.Rel(abs, da)
		if err != nil || !filepath.IsLocal(rel) {
			continue // not inside out
		}
		top, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		switch top {
		case SpecFile, RunFile, ResultsFile, SummaryFile, VariantsDir, "winrates.png", "winrates.svg":
			return nil, badDir("the shard %s is inside the output %s, where the merge writes %s", d, out, top)
		}
		keep[top] = true
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	lock, err := dirlock.Exclusive(out)
	if err != nil {
		return nil, err
	}
	have, err := ReadRunInfo(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		err = checkEmptyBut(out, "no merge of this experiment", keep)
	case err == nil && (have.Fingerprint != whole.Fingerprint || have.Shards != 1):
		err = badDir("%s holds %s, not a merge of this experiment: give another --out", out, describeRun(have))
	case err == nil:
		// Replace the previous merge: first what says it is complete.
		if err = os.Remove(filepath.Join(out, RunFile)); err != nil {
			err = fmt.Errorf("arena: %w", err)
		}
	}
	if err != nil {
		lock.Release()
		return nil, err
	}
	return lock, nil
}

// describeRun names what a run.json says a directory holds.
func describeRun(info RunInfo) string {
	if info.Shards > 1 {
		return fmt.Sprintf("shard %d/%d of experiment %q", info.Shard, info.Shards, info.Experiment)
	}
	return fmt.Sprintf("experiment %q", info.Experiment)
}

// mergeTraces writes variant v's traces from the shards in game order.
// Game j of the variant is in shard j mod shards, where its turns are
// consecutive lines.
func mergeTraces(e *Experiment, v int, byIdx []string, out string) error {
	name := e.Variants[v].Name
	readers := make([]*lineReader, len(byIdx))
	for i, d := range byIdx {
		r, err := openLines(filepath.Join(d, VariantsDir, name, TracesFile))
		if errors.Is(err, os.ErrNotExist) {
			continue // a shard without games: more shards than seeds
		}
		if err != nil {
			return err
		}
		defer r.close()
		readers[i] = r
	}
	if err := os.MkdirAll(filepath.Join(out, VariantsDir, name), 0o755); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return writeThrough(filepath.Join(out, VariantsDir, name, TracesFile), func(w *bufio.Writer) error {
		for j := range e.Seeds.Count {
			i := j % len(byIdx)
			r := readers[i]
			if r == nil {
				return badDir("%s: no traces of variant %s", byIdx[i], name)
			}
			n := 0
			for {
				line, err := r.peek()
				if err == io.EOF {
					break
				}
				if err != nil {
					return err
				}
				var key struct {
					Game *int `json:"game"`
				}
				if json.Unmarshal(line, &key) != nil || key.Game == nil {
					return badDir("%s: a damaged trace line", r.path)
				}
				if *key.Game != j {
					break
				}
				r.skip()
				if _, err := w.Write(line); err != nil {
					return err
				}
				n++
			}
			if n == 0 {
				return badDir("%s: no trace of game %d of variant %s", r.path, j, name)
			}
		}
		return nil
	})
}

// writeThrough writes a file through a buffer and a temporary name.
func writeThrough(path string, fill func(w *bufio.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		if errors.Is(err, ErrBadDir) {
			return err
		}
		return fmt.Errorf("arena: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// lineReader reads whole lines (with their newline), one ahead.
type lineReader struct {
	path   string
	f      *os.File
	r      *bufio.Reader
	peeked []byte
	err    error
	have   bool
}

func openLines(path string) (*lineReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &lineReader{path: path, f: f, r: bufio.NewReaderSize(f, 1<<16)}, nil
}

func (l *lineReader) peek() ([]byte, error) {
	if !l.have {
		line, err := l.r.ReadBytes('\n')
		switch {
		case err == io.EOF && len(line) > 0:
			err = badDir("%s: unfinished last line", l.path)
		case err != nil && err != io.EOF:
			err = fmt.Errorf("arena: %w", err)
		}
		l.peeked, l.err, l.have = line, err, true
	}
	return l.peeked, l.err
}

func (l *lineReader) skip() { l.have = false }

func (l *lineReader) next() ([]byte, error) {
	line, err := l.peek()
	if err == nil {
		l.skip()
	}
	if err == io.EOF {
		return nil, badDir("%s: fewer lines than expected", l.path)
	}
	return line, err
}

func (l *lineReader) close() { l.f.Close() }
