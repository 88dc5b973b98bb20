package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

// slurmSpecFile writes slurmSpec to a new directory, and returns both.
func slurmSpecFile(t *testing.T) (dir, spec string) {
	t.Helper()
	dir = t.TempDir()
	spec = filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(spec, []byte(slurmSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, spec
}

// An experiment submitted to a real Slurm cluster (.ci/slurm starts one)
// as four array tasks, one of them requeued while it runs, merges to the
// same bytes as a single local run.
func TestSlurmSubmit(t *testing.T) {
	slurmCluster(t)
	dir, spec := slurmSpecFile(t)
	out := filepath.Join(dir, "cluster")
	// A process of the test binary acting as gopoly: the jobs inherit its
	// environment, and so run the same binary as gopoly.
	stdout, stderr, code := cliRun(t, "experiment", "submit", spec, "--slurm", "--out", out, "--tasks", "4")
	if code != 0 {
		t.Fatalf("submit: exit %d: %s", code, stderr)
	}
	var jobs slurmJobs
	data, err := os.ReadFile(filepath.Join(out, slurmDir, slurmRecord))
	if err != nil || json.Unmarshal(data, &jobs) != nil || len(jobs.Submissions) != 1 ||
		!strings.Contains(stdout, jobs.Submissions[0].Array) || !strings.Contains(stdout, jobs.Submissions[0].Merge) {
		t.Fatalf("submit printed %q; jobs.json %s (%v)", stdout, data, err)
	}
	array := jobs.Submissions[0].Array
	t.Cleanup(func() { exec.Command("scancel", array, jobs.Submissions[0].Merge).Run() })

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
			task := array + "_2"
			if b, err := exec.Command("scontrol", "requeue", task).CombinedOutput(); err != nil {
				t.Fatalf("scontrol requeue %s: %v: %s", task, err, b)
			}
			// A requeued task waits about two minutes unless told to
			// start sooner, which it takes once it is pending again. Not
			// at once: the requeue revoked the task's credential, and
			// slurmd, which keeps the revocation to the second, kills a
			// relaunch in that same second ("Job credential revoked"),
			// and the task ends failed.
			for i := 0; ; i++ {
				if taskState(t, task) == "pending" {
					if b, err := exec.Command("scontrol", "update", "JobId="+task, "StartTime=now+2").CombinedOutput(); err != nil {
						t.Fatalf("scontrol update %s StartTime=now+2: %v: %s", task, err, b)
					}
					break
				}
				if i == 300 {
					t.Fatalf("shard 2 is %q, not pending, 30 s after its requeue", taskState(t, task))
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
		if time.Now().After(deadline) || !active(st.Merge) && st.Merge != "done" {
			mergeFailed(t, out, st)
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

// mergeFailed fails the test with what Slurm and the jobs' logs say of
// a merge that ended without a result, the status first: CI shows the
// head of a failure's output.
func mergeFailed(t *testing.T, out string, st slurmStatus) {
	t.Helper()
	t.Errorf("merge %s; status %+v", st.Merge, st)
	if b, err := exec.Command("scontrol", "show", "job", st.MergeJob).CombinedOutput(); err == nil {
		t.Logf("scontrol show job %s:\n%s", st.MergeJob, b)
	}
	if ctl := os.Getenv("GOPOLY_SLURM_DIR"); ctl != "" {
		b, _ := os.ReadFile(filepath.Join(ctl, "slurmctld.log"))
		lines := strings.Split(string(b), "\n")
		t.Logf("slurmctld.log, last lines:\n%s", strings.Join(lines[max(0, len(lines)-40):], "\n"))
	}
	logs, _ := filepath.Glob(filepath.Join(out, slurmDir, "*.log"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		lines := strings.Split(string(b), "\n")
		t.Logf("%s, last lines:\n%s", l, strings.Join(lines[max(0, len(lines)-8):], "\n"))
	}
	t.FailNow()
}

// status runs experiment status --json on dir.
func status(t *testing.T, dir string) (st slurmStatus) {
	t.Helper()
	stdout, stderr, code := cliRun(t, "experiment", "status", dir, "--json")
	if code != 0 || json.Unmarshal([]byte(stdout), &st) != nil || len(st.Shards) != 4 {
		t.Fatalf("status: exit %d: %s %s", code, stdout, stderr)
	}
	return st
}

// taskState is the state Slurm gives a job or an array's task.
func taskState(t *testing.T, id string) string {
	t.Helper()
	states, _, err := jobStates([]string{id})
	if err != nil {
		t.Fatal(err)
	}
	return states[id]
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

// slurmCluster skips (or on CI fails) a test that needs a Slurm cluster
// when there is none.
func slurmCluster(t *testing.T) {
	t.Helper()
	if os.Getenv("GOPOLY_TEST_SLURM") == "" {
		citest.Missing(t, "CI without a Slurm cluster: .ci/run starts one with .ci/slurm",
			"no Slurm cluster: eval \"$(bash .ci/slurm start)\" starts one (as root)")
	}
}

// An experiment one of whose tasks is cancelled mid-run: status names
// the shard and the command that recovers, resubmit reruns it alone,
// and the merge is the bytes of a local run. The first submit finds no
// sbatch on its PATH and fails; the same command then succeeds.
func TestSlurmRecover(t *testing.T) {
	slurmCluster(t)
	dir, spec := slurmSpecFile(t)
	out := filepath.Join(dir, "cluster")
	submit := []string{"experiment", "submit", spec, "--slurm", "--out", out, "--tasks", "4", "--max-running", "2"}
	_, stderr, code := cliRunEnv(t, []string{"PATH=" + t.TempDir()}, submit...)
	if code == 0 || !strings.Contains(stderr, "sbatch not found on the PATH") {
		t.Fatalf("submit without sbatch: exit %d: %s", code, stderr)
	}
	if fileExists(filepath.Join(out, slurmDir, slurmRecord)) {
		t.Fatal("a failed submit wrote jobs.json")
	}
	if _, stderr, code := cliRun(t, submit...); code != 0 {
		t.Fatalf("submit again: exit %d: %s", code, stderr)
	}
	t.Cleanup(func() {
		var jobs slurmJobs
		data, _ := os.ReadFile(filepath.Join(out, slurmDir, slurmRecord))
		json.Unmarshal(data, &jobs)
		for _, s := range jobs.Submissions {
			exec.Command("scancel", s.Array, s.Merge).Run()
		}
	})
	// Edited after submitting, the spec changes nothing: the tasks read
	// the copy.
	if err := os.WriteFile(spec, []byte(strings.Replace(slurmSpec, "count: 30000", "count: 29000", 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	deadline := time.Now().Add(5 * time.Minute)
	var task string
	for task == "" {
		if time.Now().After(deadline) {
			t.Fatal("shard 1 never ran long enough to be cancelled")
		}
		st := status(t, out)
		switch s := st.Shards[1]; {
		case s.State == "running" && s.Games > 0 && s.Games < s.Of:
			task = s.Job
			if b, err := exec.Command("scancel", task).CombinedOutput(); err != nil {
				t.Fatalf("scancel %s: %v: %s", task, err, b)
			}
		case s.State == "done":
			t.Fatal("shard 1 finished before it could be cancelled: make the shards longer")
		}
		time.Sleep(100 * time.Millisecond)
	}
	for {
		stdout, stderr, code := cliRun(t, "experiment", "status", out)
		if code != 0 {
			t.Fatalf("status: exit %d: %s", code, stderr)
		}
		if strings.Contains(stdout, "to recover, run: gopoly experiment resubmit "+out) {
			if !regexp.MustCompile(`(?m)^1 +cancelled +` + task + ` `).MatchString(stdout) {
				t.Fatalf("status offers a recovery but does not say shard 1 (%s) was cancelled:\n%s", task, stdout)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status never offered a recovery after %s was cancelled:\n%s", task, stdout)
		}
		time.Sleep(200 * time.Millisecond)
	}
	stdout, stderr, code := cliRun(t, "experiment", "resubmit", out)
	if code != 0 || !strings.Contains(stdout, "resubmitted shard 1 as job array") {
		t.Fatalf("resubmit: exit %d: %s %s", code, stdout, stderr)
	}
	var st slurmStatus
	for st = status(t, out); st.Merge != "done"; st = status(t, out) {
		if time.Now().After(deadline) || !active(st.Merge) && st.Merge != "done" {
			mergeFailed(t, out, st)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(st.Jobs) != 2 || !slices.Equal(st.Jobs[1].Shards, []int{1}) || st.Shards[1].Job != st.Jobs[1].Array+"_1" || st.Recovery != "" {
		t.Errorf("status after the recovery: %+v", st)
	}
	if log, _ := os.ReadFile(filepath.Join(out, slurmDir, "shard-1.log")); strings.Count(string(log), "gopoly: shard 1/4") != 2 {
		t.Errorf("shard 1's log does not hold both its runs:\n%s", log)
	}
	if stdout, _, code := cliRun(t, "experiment", "resubmit", out); code != 0 || !strings.HasPrefix(stdout, "nothing to resubmit") {
		t.Errorf("resubmit of a finished run: exit %d: %s", code, stdout)
	}
	local := filepath.Join(dir, "local")
	if err := os.WriteFile(spec, []byte(slurmSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := cliRun(t, "experiment", "run", spec, "--out", local); code != 0 {
		t.Fatalf("local run: exit %d: %s", code, stderr)
	}
	sameTree(t, local, filepath.Join(out, resultDir))
}

// fakeSlurm makes a directory of stand-ins for sbatch, squeue, sacct and
// scancel, each a shell script, and returns it (for PATH) and the file
// where they log their arguments, one line a call. sbatch fails while
// the file "fail" is in the directory and gives ids 100, 101, ...
// otherwise; squeue answers with the file "queue" and fails without it.
// They run on a PATH of their own, so use no other command.
func fakeSlurm(t *testing.T) (bin, log string) {
	t.Helper()
	bin = t.TempDir()
	log = filepath.Join(bin, "calls")
	scripts := map[string]string{
		"sbatch": `echo "sbatch $*" >>"$D/calls"
if [ -e "$D/fail" ]; then echo "sbatch: error: invalid partition specified: nosuch" >&2; exit 1; fi
n=100; [ -e "$D/n" ] && read -r n <"$D/n"; echo $((n + 1)) >"$D/n"; echo "$n"`,
		"squeue": `echo "squeue $*" >>"$D/calls"; [ -e "$D/queue" ] || { echo "squeue: error: cannot reach slurmctld" >&2; exit 1; }
while read -r line; do echo "$line"; done <"$D/queue"`,
		"sacct":   `echo "sacct $*" >>"$D/calls"; echo "Slurm accounting storage is disabled" >&2; exit 1`,
		"scancel": `echo "scancel $*" >>"$D/calls"`,
	}
	for name, body := range scripts {
		text := "#!/bin/sh\nD=" + shellQuote(bin) + "\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the stand-ins of the Slurm commands")
	}
	return bin, log
}

// A submit whose sbatch fails leaves nothing submitted and no jobs.json,
// and the same command then succeeds; the array and the merge each get
// their own arguments, the array its throttle, the scripts the limits.
func TestSlurmSubmitRetry(t *testing.T) {
	bin, log := fakeSlurm(t)
	dir, spec := slurmSpecFile(t)
	out := filepath.Join(dir, "run")
	env := []string{"PATH=" + bin}
	args := []string{"experiment", "submit", spec, "--slurm", "--out", out, "--tasks", "3", "--max-running", "2",
		"--mem", "2G", "--time", "1:00:00", "--array-arg=--qos=long", "--merge-arg=--qos=short", "--sbatch-arg=--account=lab"}
	if err := os.WriteFile(filepath.Join(bin, "fail"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cliRunEnv(t, env, args...)
	if code != 1 || !strings.HasSuffix(strings.TrimSpace(stderr), "invalid partition specified: nosuch") {
		t.Fatalf("submit with sbatch failing: exit %d: %s", code, stderr)
	}
	if fileExists(filepath.Join(out, slurmDir, slurmRecord)) {
		t.Fatal("a failed submit wrote jobs.json")
	}
	os.Remove(filepath.Join(bin, "fail"))
	if stdout, stderr, code := cliRunEnv(t, env, args...); code != 0 || !strings.Contains(stdout, "job array 100 (3 tasks) and merge job 101") {
		t.Fatalf("submit again: exit %d: %s %s", code, stdout, stderr)
	}
	calls, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 3 {
		t.Fatalf("sbatch calls:\n%s", calls)
	}
	wantArray := "sbatch --parsable --array=0,1,2%2 --account=lab --qos=long " + filepath.Join(out, slurmDir, "array.sh")
	wantMerge := "sbatch --parsable --account=lab --qos=short --dependency=afterany:100 " + filepath.Join(out, slurmDir, "merge.sh") + " 100"
	if lines[1] != wantArray || lines[2] != wantMerge {
		t.Errorf("sbatch calls:\n%s\nwant\n%s\n%s", calls, wantArray, wantMerge)
	}
	script, _ := os.ReadFile(filepath.Join(out, slurmDir, "array.sh"))
	for _, want := range []string{"#SBATCH --open-mode=append\n", "#SBATCH --mem=2G\n", "#SBATCH --time=1:00:00\n", "#SBATCH --signal=B:USR1@120\n",
		shellQuote(filepath.Join(out, slurmDir, "cluster.yaml")), shellQuote(filepath.Join(out, slurmDir, "gopoly"))} {
		if !strings.Contains(string(script), want) {
			t.Errorf("array.sh lacks %q:\n%s", want, script)
		}
	}
	if copied, _ := os.ReadFile(filepath.Join(out, slurmDir, "cluster.yaml")); string(copied) != slurmSpec {
		t.Errorf("the spec's copy holds %q", copied)
	}
	// Submitted, the directory is not submitted again.
	if _, stderr, code := cliRunEnv(t, env, args...); code != 2 || !strings.Contains(stderr, "was submitted already") {
		t.Errorf("a second submit: exit %d: %s", code, stderr)
	}
}

// Bad submissions are refused before anything is written.
func TestSlurmSubmitRefuses(t *testing.T) {
	bin, log := fakeSlurm(t)
	dir := t.TempDir()
	spec := filepath.Join(dir, "three.yaml")
	if err := os.WriteFile(spec, []byte(strings.Replace(slurmSpec, "count: 30000", "count: 3", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tasks", "5"}, "--tasks 5: the spec has 3 seeds"},
		{[]string{"--sbatch-arg=--array=0-1%1"}, "throttle with --max-running"},
		{[]string{"--array-arg", "--array=3"}, "throttle with --max-running"},
		{[]string{"--max-running", "-1"}, "--max-running -1"},
	} {
		_, stderr, code := cliRunEnv(t, []string{"PATH=" + bin}, append([]string{"experiment", "submit", spec, "--slurm", "--out", out}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, stderr)
		}
	}
	if fileExists(out) || fileExists(log) {
		t.Error("a refused submit wrote or called something")
	}
}

// Without an answer from squeue, status says that it does not know,
// rather than guess from the files, and exits 1; with one, a task Slurm
// no longer lists is found ended, and the recovery named.
func TestSlurmStatusUnknown(t *testing.T) {
	bin, _ := fakeSlurm(t)
	dir := t.TempDir()
	jobs := slurmJobs{Tasks: 2, Submissions: []slurmSubmission{{Array: "7", Shards: []int{0, 1}, Merge: "8"}}}
	if err := os.MkdirAll(filepath.Join(dir, slurmDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeSlurmJobs(dir, jobs); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bin}
	stdout, stderr, code := cliRunEnv(t, env, "experiment", "status", dir)
	if code != 1 || !strings.Contains(stdout, "merge job 8: unknown (squeue failed: squeue: exit status 1: squeue: error: cannot reach slurmctld)") ||
		!regexp.MustCompile(`(?m)^0 +unknown +7_0`).MatchString(stdout) || strings.Contains(stdout, "to recover") {
		t.Errorf("status without squeue: exit %d: %s %s", code, stdout, stderr)
	}
	stdout, _, code = cliRunEnv(t, env, "experiment", "status", dir, "--json")
	var st slurmStatus
	if code != 1 || json.Unmarshal([]byte(stdout), &st) != nil || st.Shards[1].State != "unknown" || st.Error == "" {
		t.Errorf("status --json without squeue: exit %d: %s", code, stdout)
	}
	// squeue lists shard 0 running and has forgotten shard 1; sacct
	// keeps no accounts.
	if err := os.WriteFile(filepath.Join(bin, "queue"), []byte("7_0 RUNNING\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = cliRunEnv(t, env, "experiment", "status", dir)
	if code != 0 || !regexp.MustCompile(`(?m)^0 +running +7_0`).MatchString(stdout) || !regexp.MustCompile(`(?m)^1 +ended +7_1`).MatchString(stdout) ||
		!strings.Contains(stdout, "to recover, run: gopoly experiment resubmit "+dir) || !strings.Contains(stdout, "accounting storage is disabled") {
		t.Errorf("status with shard 1 forgotten: exit %d: %s %s", code, stdout, stderr)
	}
}

// sacct's states are read as squeue's: lower case, without the "by UID"
// of a cancellation or the "+" of a truncated field.
func TestParseStates(t *testing.T) {
	got := map[string]string{}
	n := parseStates(got, "12_3|CANCELLED by 1000\n12_4|TIMEOUT\n13|FAILED+\n\n", "|")
	want := map[string]string{"12_3": "cancelled", "12_4": "timeout", "13": "failed"}
	if n != 3 || !maps.Equal(got, want) {
		t.Errorf("parseStates: %d %v, want %v", n, got, want)
	}
}

// A merge told to wait while Slurm jobs are queued waits for incomplete
// shards as long as squeue holds a task of them pending or running, and
// gives up, naming the shards and the job, once none is; it merges
// nothing then.
func TestExperimentMergeWhileQueued(t *testing.T) {
	bin, log := fakeSlurm(t)
	dir := t.TempDir()
	shard := filepath.Join(dir, "shards", "0")
	out := filepath.Join(dir, "merged")
	queue := filepath.Join(bin, "queue")
	if err := os.WriteFile(queue, []byte("100_0 PENDING\n100_1 COMPLETED\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		stderr string
		code   int
	}
	done := make(chan result, 1)
	go func() {
		_, stderr, code := cliRunEnv(t, []string{"PATH=" + bin}, "experiment", "merge", "--while-queued", "100", shard, "--out", out)
		done <- result{stderr, code}
	}()
	squeues := func() int {
		calls, _ := os.ReadFile(log)
		return strings.Count(string(calls), "squeue -h -r -t all -j 100 ")
	}
	deadline := time.Now().Add(time.Minute)
	for squeues() < 2 {
		select {
		case r := <-done:
			t.Fatalf("the merge ended while task 100_0 was pending: exit %d: %s", r.code, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the merge asked squeue fewer than twice in a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := os.WriteFile(queue, []byte("100_0 CANCELLED\n100_1 COMPLETED\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.code == 0 || !strings.Contains(r.stderr, "1 shard of 1 not complete: "+shard+", and no task of Slurm job 100 is queued or running") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	if fileExists(out) {
		t.Error("the merge wrote its output")
	}
}
