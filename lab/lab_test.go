package lab

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/arena"
)

const spec = `name: Lab_Test
seeds: {start: 1, count: %d, step: 1}
detail: summary
rules: {max_rounds: 100}
variants:
  - name: baselines
    seats: [baseline, baseline, baseline, baseline]
  - name: mixed
    seats: [baseline, random, baseline, random]
`

func specOf(seeds int) []byte { return fmt.Appendf(nil, spec, seeds) }

// ended returns a channel that receives run id's status once it stops
// running.
func ended(m *Manager) <-chan Status {
	c := make(chan Status, 16)
	m.Watch(func(s Status) {
		if s.State != StateRunning {
			c <- s
		}
	})
	return c
}

func wait(t *testing.T, c <-chan Status) Status {
	t.Helper()
	select {
	case s := <-c:
		return s
	case <-time.After(60 * time.Second):
		t.Fatal("the run did not end")
	}
	return Status{}
}

func lines(b []byte) int { return bytes.Count(b, []byte("\n")) }

// A run plays every game in the background and leaves its results, its
// summary and its spec in the lab's directory.
func TestRunToCompletion(t *testing.T) {
	m, err := NewManager(t.TempDir(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := ended(m)
	s, err := m.Start("lab.yaml", specOf(20))
	if err != nil {
		t.Fatal(err)
	}
	if s.State != StateRunning || s.Total != 40 || !strings.HasPrefix(s.ID, "lab-test-") {
		t.Fatalf("started as %+v", s)
	}
	end := wait(t, done)
	if end.State != StateComplete || end.Done != 40 {
		t.Fatalf("ended as %+v", end)
	}
	if got, _ := m.Status(s.ID); got.State != StateComplete || got.Done != 40 || got.Started.IsZero() {
		t.Fatalf("status %+v", got)
	}
	res, err := m.Results(s.ID)
	if err != nil || lines(res) != 40 {
		t.Fatalf("%d result lines, %v", lines(res), err)
	}
	sum, err := m.Summary(s.ID)
	if err != nil || len(sum.Variants) != 2 || sum.Variants[0].Games+sum.Variants[1].Games != 40 {
		t.Fatalf("summary %+v, %v", sum, err)
	}
	if src, err := m.Spec(s.ID); err != nil || !bytes.Equal(src, specOf(20)) {
		t.Fatalf("spec %q, %v", src, err)
	}
}

// A cancelled run keeps the games it played, a new manager on the same
// directory finds it, and resuming it ends with the results of a run never
// stopped.
func TestCancelRestartResume(t *testing.T) {
	dir := t.TempDir()
	m, err := NewManager(dir, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	progress := make(chan Status, 64)
	m.Watch(func(s Status) {
		if s.State == StateRunning && s.Done > 0 {
			select {
			case progress <- s:
			default:
			}
		}
	})
	s, err := m.Start("lab.yaml", specOf(1000))
	if err != nil {
		t.Fatal(err)
	}
	wait(t, progress)
	c, err := m.Cancel(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.State != StateCancelled || c.Done == 0 || c.Done >= c.Total {
		t.Fatalf("cancelled as %+v", c)
	}
	if res, _ := m.Results(s.ID); lines(res) != c.Done {
		t.Fatalf("%d result lines for %d games done", lines(res), c.Done)
	}
	m.Close()

	// A process that stopped under a run leaves it recorded as running:
	// the next one reads it as stopped.
	os.WriteFile(filepath.Join(dir, s.ID, statusFile), []byte(`{"state":"running"}`), 0o644)
	m2, err := NewManager(dir, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := m2.List()
	if err != nil || len(list) != 1 || list[0].ID != s.ID || list[0].State != StateStopped || list[0].Done != c.Done {
		t.Fatalf("list %+v, %v", list, err)
	}
	done := ended(m2)
	if _, err := m2.Resume(s.ID); err != nil {
		t.Fatal(err)
	}
	if end := wait(t, done); end.State != StateComplete || end.Done != 2000 {
		t.Fatalf("resumed run ended as %+v", end)
	}
	resumed, _ := m2.Results(s.ID)

	// The same spec, never stopped.
	whole := filepath.Join(t.TempDir(), "whole")
	e, err := arena.ParseExperiment("lab.yaml", specOf(1000))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(t.Context(), arena.RunOptions{Dir: whole, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(whole, arena.ResultsFile))
	if !bytes.Equal(resumed, want) {
		t.Fatal("the cancelled and resumed run's results differ from a run never stopped")
	}
	if err := m2.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := m2.Status(s.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted run: %v", err)
	}
}

// Bad input is refused with a clear error and starts nothing.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	m, err := NewManager(dir, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Start("bad.yaml", []byte("name: x\nseeds: {start: 1, count: 2, step: 1}\nvariants:\n  - {name: a, seats: [nobody]}\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:4") {
		t.Fatalf("bad spec: %v", err)
	}
	for _, id := range []string{"../etc", "", "x/../../y", "UPPER", strings.Repeat("a", 90)} {
		if _, err := m.Status(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("id %q: %v", id, err)
		}
		if err := m.Delete(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("delete %q: %v", id, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("bad input left %d entries", len(entries))
	}
}
