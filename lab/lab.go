// Package lab runs experiments in the background for the interactive
// front ends (the MCP server, the browser): start a spec, follow its
// progress, cancel it keeping the games played, read its results. Each
// run is an arena experiment directory under the lab's directory, so its
// results outlive the process; a run a restart interrupted is found again
// as stopped and can be resumed, to the same files as a run never stopped.
package lab

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/gopoly/gopoly/arena"
)

// States of a run.
const (
	StateRunning   = "running"   // playing now
	StateComplete  = "complete"  // every game played
	StateCancelled = "cancelled" // stopped by Cancel; the games played are kept
	StateFailed    = "failed"    // stopped by an error (a bot's illegal action); the games before it are kept
	StateStopped   = "stopped"   // not running and not complete: the process stopped under it
)

// Status is where a run stands.
type Status struct {
	ID         string    `json:"id"`
	Experiment string    `json:"experiment"` // the spec's name
	State      string    `json:"state"`
	Done       int       `json:"done"`  // games played
	Total      int       `json:"total"` // games of the experiment
	Error      string    `json:"error,omitempty"`
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished,omitzero"`
}

// statusFile is the lab's own record in a run's directory, beside
// arena's files: how the run last ended.
const statusFile = "lab.json"

// ErrNotFound is returned for an id the lab does not hold.
var ErrNotFound = errors.New("lab: no such experiment run")

// ErrBusy is returned for a run that is running, when the request needs it
// stopped (Resume, Delete).
var ErrBusy = errors.New("lab: the experiment run is running")

// ErrNoPlot is returned for a plot name that is not one of Plots: bad
// input, not a plot missing from a run.
var ErrNoPlot = errors.New("lab: no such plot")

// Manager holds the runs of one directory.
type Manager struct {
	dir     string
	workers int
	players arena.Registry

	mu      sync.Mutex
	running map[string]*run
	watch   map[int]func(Status)
	watchN  int
	wg      sync.WaitGroup
}

type run struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once the run has recorded how it ended
	status Status
}

// NewManager opens the lab in dir, creating it; workers is how many
// cores each run uses (0: all); players is the registry its runs seat
// bots from (nil: agent.Lookup, programs included), which a server
// passes so that its clients' runs seat what its sessions seat.
func NewManager(dir string, workers int, players arena.Registry) (*Manager, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lab: %w", err)
	}
	return &Manager{dir: dir, workers: workers, players: players, running: map[string]*run{}, watch: map[int]func(Status){}}, nil
}

// Watch calls f with a run's status whenever it starts, makes progress
// (every 100 games and at the end), or stops, until the returned function
// is called. f must not block.
func (m *Manager) Watch(f func(Status)) (stop func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.watchN
	m.watchN++
	m.watch[k] = f
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.watch, k)
	}
}

func (m *Manager) notify(s Status) {
	m.mu.Lock()
	watch := slices.Collect(maps.Values(m.watch))
	m.mu.Unlock()
	for _, f := range watch {
		f(s)
	}
}

// Start parses the spec (YAML, as `gopoly experiment run` reads it;
// file names it in errors) and starts running it in the background.
func (m *Manager) Start(file string, spec []byte) (Status, error) {
	e, err := arena.ParseExperiment(file, spec)
	if err != nil {
		return Status{}, err
	}
	var b [6]byte
	rand.Read(b[:])
	id := slug(e.Name) + "-" + hex.EncodeToString(b[:])
	return m.start(id, e, time.Now().UTC(), 0)
}

// Resume starts again a run that is stopped, cancelled or failed, from
// the games it has.
func (m *Manager) Resume(id string) (Status, error) {
	s, err := m.Status(id)
	switch {
	case err != nil:
		return Status{}, err
	case s.State == StateRunning:
		return s, ErrBusy
	case s.State == StateComplete:
		return s, nil
	}
	e, _, err := arena.OpenExperimentDir(m.path(id))
	if err != nil {
		return Status{}, fmt.Errorf("lab: %s: %w", id, err)
	}
	return m.start(id, e, s.Started, s.Done)
}

// start runs e as run id, done of its games already played (a resumed
// run: its status says so from the start, not 0 until the next game).
func (m *Manager) start(id string, e *arena.Experiment, started time.Time, done int) (Status, error) {
	if err := e.Seatable(m.players); err != nil {
		return Status{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel, done: make(chan struct{}),
		status: Status{ID: id, Experiment: e.Name, State: StateRunning, Done: done, Total: e.Games(), Started: started}}
	m.mu.Lock()
	if _, busy := m.running[id]; busy {
		m.mu.Unlock()
		cancel()
		return Status{}, ErrBusy
	}
	m.running[id] = r
	s := r.status
	m.wg.Add(1)
	m.mu.Unlock()
	m.notify(s)
	go m.play(ctx, r, e)
	return s, nil
}

// record writes how a run stands into its directory, so that a later
// process knows when it started and how it ended.
func (m *Manager) record(s Status) {
	if data, err := json.Marshal(s); err == nil {
		os.WriteFile(filepath.Join(m.path(s.ID), statusFile), data, 0o644)
	}
}

// play runs the experiment and records how it ended.
func (m *Manager) play(ctx context.Context, r *run, e *arena.Experiment) {
	defer m.wg.Done()
	defer close(r.done)
	id := r.status.ID
	rep, err := e.Run(ctx, arena.RunOptions{Dir: m.path(id), Workers: m.workers, Registry: m.players,
		Progress: func(done, total int) {
			if done == 1 {
				m.record(r.snapshot(&m.mu)) // the directory exists now
			}
			m.mu.Lock()
			r.status.Done = done
			s := r.status
			m.mu.Unlock()
			if done%100 == 0 || done == total {
				m.notify(s)
			}
		}})
	m.mu.Lock()
	s := &r.status
	s.Done, s.Finished = rep.Resumed+rep.Played, time.Now().UTC()
	switch {
	case err == nil && rep.Complete:
		s.State = StateComplete
	case errors.Is(err, context.Canceled):
		s.State = StateCancelled
	case err != nil:
		s.State, s.Error = StateFailed, err.Error()
	default:
		s.State = StateStopped
	}
	final := *s
	m.mu.Unlock()
	m.record(final)
	m.mu.Lock()
	delete(m.running, id)
	m.mu.Unlock()
	m.notify(final)
}

// snapshot returns r's status under mu.
func (r *run) snapshot(mu *sync.Mutex) Status {
	mu.Lock()
	defer mu.Unlock()
	return r.status
}

// Cancel stops a running run; the games it played are kept. Cancelling a
// run that is not running changes nothing.
func (m *Manager) Cancel(id string) (Status, error) {
	m.mu.Lock()
	r, ok := m.running[id]
	m.mu.Unlock()
	if ok {
		r.cancel()
		<-r.done
	}
	return m.Status(id)
}

// Status returns where run id stands.
func (m *Manager) Status(id string) (Status, error) {
	if !validID(id) {
		return Status{}, ErrNotFound
	}
	m.mu.Lock()
	if r, ok := m.running[id]; ok {
		s := r.status
		m.mu.Unlock()
		return s, nil
	}
	m.mu.Unlock()
	dir := m.path(id)
	if _, err := os.Stat(dir); err != nil {
		return Status{}, ErrNotFound
	}
	e, info, err := arena.OpenExperimentDir(dir)
	if err != nil {
		return Status{}, fmt.Errorf("lab: %s: %w", id, err)
	}
	s := Status{ID: id, Experiment: e.Name, State: StateStopped, Total: info.Games}
	if data, err := os.ReadFile(filepath.Join(dir, statusFile)); err == nil {
		json.Unmarshal(data, &s) // a damaged record leaves the state stopped
		s.ID = id
	}
	if sum, _, err := arena.LoadSummary(dir, e, info); err == nil {
		s.Done = 0
		for _, v := range sum.Variants {
			s.Done += v.Games
		}
	}
	if s.Done == s.Total {
		s.State = StateComplete
	} else if s.State == StateComplete || s.State == StateRunning {
		s.State = StateStopped // a record the files do not bear out
	}
	return s, nil
}

// List returns every run, newest first.
func (m *Manager) List() ([]Status, error) {
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return nil, fmt.Errorf("lab: %w", err)
	}
	var out []Status
	for _, d := range entries {
		if !d.IsDir() || !validID(d.Name()) {
			continue
		}
		if s, err := m.Status(d.Name()); err == nil {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b Status) int { return b.Started.Compare(a.Started) })
	return out, nil
}

// Summary returns the summary of run id's games so far.
func (m *Manager) Summary(id string) (arena.ExperimentSummary, error) {
	if _, err := m.Status(id); err != nil {
		return arena.ExperimentSummary{}, err
	}
	e, info, err := arena.OpenExperimentDir(m.path(id))
	if err != nil {
		return arena.ExperimentSummary{}, fmt.Errorf("lab: %s: %w", id, err)
	}
	return arena.SummarizeResults(m.path(id), e, info)
}

// Results returns run id's results.jsonl as written so far: one game a
// line, in game order.
func (m *Manager) Results(id string) ([]byte, error) {
	if _, err := m.Status(id); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(m.path(id), arena.ResultsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // no game finished yet
	}
	return data, err
}

// Spec returns the spec run id was started from.
func (m *Manager) Spec(id string) ([]byte, error) {
	if _, err := m.Status(id); err != nil {
		return nil, err
	}
	e, _, err := arena.OpenExperimentDir(m.path(id))
	if err != nil {
		return nil, fmt.Errorf("lab: %s: %w", id, err)
	}
	return e.Source, nil
}

// Plots are the plot files a run's directory holds, by name.
var Plots = []string{"winrates.svg", "winrates.png"}

// Plot returns a plot of run id's games (one of Plots), written when the
// run stopped.
func (m *Manager) Plot(id, name string) ([]byte, error) {
	if _, err := m.Status(id); err != nil {
		return nil, err
	}
	if !slices.Contains(Plots, name) {
		return nil, fmt.Errorf("%w %q (plots: %v)", ErrNoPlot, name, Plots)
	}
	data, err := os.ReadFile(filepath.Join(m.path(id), name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	return data, err
}

// Delete removes a run that is not running, and its files.
func (m *Manager) Delete(id string) error {
	s, err := m.Status(id)
	if err != nil {
		return err
	}
	if s.State == StateRunning {
		return ErrBusy
	}
	return os.RemoveAll(m.path(id))
}

// Close cancels every run and waits for them to record how they ended.
func (m *Manager) Close() {
	m.mu.Lock()
	for _, r := range m.running {
		r.cancel()
	}
	m.mu.Unlock()
	m.wg.Wait()
}

func (m *Manager) path(id string) string { return filepath.Join(m.dir, id) }

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,80}$`)

// validID keeps ids to names that cannot leave the lab's directory.
func validID(id string) bool { return idPattern.MatchString(id) }

// slug makes an experiment's name part of an id.
func slug(name string) string {
	var b []byte
	for _, c := range []byte(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c-'A'+'a')
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
		if len(b) == 40 {
			break
		}
	}
	for len(b) > 0 && b[len(b)-1] == '-' {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return "experiment"
	}
	return string(b)
}
