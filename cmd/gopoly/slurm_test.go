package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/internal/citest"
)

// slurmSpec is a small experiment of two variants whose shards each run
// a few seconds on one CPU: long enough to be requeued mid-run.
const slurmSpec = `name: cluster
seeds: {start: 1, count: 30000, step: 1}
detail: stats
variants:
  - name: baselines
    seats: [baseline, baseline, baseline, baseline]
  - name: mixed
    seats: [baseline, cautious, shark, turtle]
`

// An experiment submitted to a real Slurm cluster (.ci/slurm starts one)
// as four array tasks, one of them requeued while it runs, merges to the
// same bytes as a single local run.
func TestSlurmSubmit(t *testing.T) {
	if os.Getenv("GOPOLY_TEST_SLURM") == "" {
		citest.Missing(t, "CI without a Slurm cluster: .ci/run starts one with .ci/slurm",
			"no Slurm cluster: eval \"$(bash .ci/slurm start)\" starts one (as root)")
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(spec, []byte(slurmSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "cluster")
	// A process of the test binary acting as gopoly: the jobs inherit its
	// environment, and so run the same binary as gopoly.
	stdout, stderr, code := cliRun(t, "experiment", "submit", spec, "--slurm", "--out", out, "--tasks", "4")
	if code != 0 {
		t.Fatalf("submit: exit %d: %s", code, stderr)
	}
	var jobs slurmJobs
	data, err := os.ReadFile(filepath.Join(out, slurmDir, slurmRecord))
	if err != nil || json.Unmarshal(data, &jobs) != nil || !strings.Contains(stdout, jobs.Array) || !strings.Contains(stdout, jobs.Merge) {
		t.Fatalf("submit printed %q; jobs.json %s (%v)", stdout, data, err)
	}
	t.Cleanup(func() { exec.Command("scancel", jobs.Array, jobs.Merge).Run() })

	// Requeue shard 2 once it has played some games: Slurm kills it and
	// runs it again, and it resumes its shard.
	requeued := false
	deadline := time.Now().Add(5 * time.Minute)
	for !requeued {
		if time.Now().After(deadline) {
			t.Fatal("shard 2 never ran long enough to be requeued")
		}
		st := status(t, out)
		if s := st.Shards[2]; s.State == "running" && s.Games > 0 && s.Games < s.Of {
			task := jobs.Array + "_2"
			if b, err := exec.Command("scontrol", "requeue", task).CombinedOutput(); err != nil {
				t.Fatalf("scontrol requeue %s: %v: %s", task, err, b)
			}
			// A requeued task waits about two minutes unless told to
			// start now, which it takes once it is pending again.
			for i := 0; ; i++ {
				if squeue(jobs.Array)["2"] == "pending" {
					if b, err := exec.Command("scontrol", "update", "JobId="+task, "StartTime=now").CombinedOutput(); err != nil {
						t.Fatalf("scontrol update %s StartTime=now: %v: %s", task, err, b)
					}
					break
				}
				if i == 300 {
					t.Fatalf("shard 2 is %q, not pending, 30 s after its requeue", squeue(jobs.Array)["2"])
				}
				time.Sleep(100 * time.Millisecond)
			}
			requeued = true
		} else if s.State == "done" {
			t.Fatal("shard 2 finished before it could be requeued: make the shards longer")
		}
		time.Sleep(100 * time.Millisecond)
	}
	for st := status(t, out); st.Merge != "done"; st = status(t, out) {
		if time.Now().After(deadline) || st.Merge == "failed" {
			logs, _ := filepath.Glob(filepath.Join(out, slurmDir, "*.log"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				t.Logf("%s:\n%s", l, b)
			}
			t.Fatalf("merge %s; status %+v", st.Merge, st)
		}
		time.Sleep(200 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(out, slurmDir, "shard-2.log"))
	if !strings.Contains(string(log), "found there") {
		t.Errorf("shard 2 did not resume after its requeue:\n%s", log)
	}

	local := filepath.Join(dir, "local")
	if _, stderr, code := cliRun(t, "experiment", "run", spec, "--out", local); code != 0 {
		t.Fatalf("local run: exit %d: %s", code, stderr)
	}
	sameTree(t, local, filepath.Join(out, resultDir))
}

// status runs experiment status --json on dir.
func status(t *testing.T, dir string) (st struct {
	Shards []shardState `json:"shards"`
	Merge  string       `json:"merge"`
}) {
	t.Helper()
	stdout, stderr, code := cliRun(t, "experiment", "status", dir, "--json")
	if code != 0 || json.Unmarshal([]byte(stdout), &st) != nil || len(st.Shards) != 4 {
		t.Fatalf("status: exit %d: %s %s", code, stdout, stderr)
	}
	return st
}

// sameTree fails unless directories a and b hold the same files with the
// same bytes.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, path)
				m[rel], _ = os.ReadFile(path)
			}
			return nil
		})
		return m
	}
	fa, fb := files(a), files(b)
	if len(fa) == 0 || len(fa) != len(fb) {
		t.Errorf("%d files in %s, %d in %s", len(fa), a, len(fb), b)
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Errorf("%s differs (%d and %d bytes)", name, len(data), len(fb[name]))
		}
	}
}
