package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
)

// A Slurm submission lays out its directory so:
//
//	DIR/slurm/array.sh, merge.sh   the batch scripts
//	DIR/slurm/SPEC.yaml            the spec the tasks read: a copy, so
//	                               that editing the original changes nothing
//	DIR/slurm/gopoly               the binary the tasks run: a copy, unless
//	                               --gopoly names one on the nodes
//	DIR/slurm/jobs.json            what was submitted, every time (slurmJobs)
//	DIR/slurm/shard-I.log          each task's output, appended to
//	DIR/shards/I                   shard I of the experiment
//	DIR/result                     the merge: the bytes of a single run
const (
	slurmDir    = "slurm"
	shardsDir   = "shards"
	resultDir   = "result"
	slurmRecord = "jobs.json"
)

// slurmJobs is DIR/slurm/jobs.json: the settings of a submission, which
// resubmit reuses, and every submission made, oldest first.
type slurmJobs struct {
	Spec    string       `json:"spec"`   // the copy the tasks read
	Source  string       `json:"source"` // the spec as given
	Tasks   int          `json:"tasks"`
	Gopoly  string       `json:"gopoly"`
	Version buildVersion `json:"version"` // of the program that submitted
	// MaxRunning is the array's throttle (%N; 0: none); ArrayArgs,
	// MergeArgs and BothArgs are sbatch's arguments for the array, the
	// merge and both.
	MaxRunning  int               `json:"max_running,omitempty"`
	ArrayArgs   []string          `json:"array_args,omitempty"`
	MergeArgs   []string          `json:"merge_args,omitempty"`
	BothArgs    []string          `json:"sbatch_args,omitempty"`
	Submissions []slurmSubmission `json:"submissions"`
}

// slurmSubmission is one sbatch of the array (the shards it ran, which
// are its task ids) and of the merge after it.
type slurmSubmission struct {
	Array  string    `json:"array_job,omitempty"`
	Shards []int     `json:"shards"`
	Merge  string    `json:"merge_job"`
	At     time.Time `json:"at"`
}

// slurmOptions are the flags of experiment submit, checked.
type slurmOptions struct {
	tasks, workers, maxRunning int
	gopoly, partition, timeLim string
	mem                        string
	stopBefore                 time.Duration
	both, array, merge         []string
}

// newExperimentSubmitCmd returns gopoly experiment submit: an experiment
// as a Slurm job array of shards and a merge job after it.
func newExperimentSubmitCmd() *cobra.Command {
	var (
		slurm bool
		out   string
		o     slurmOptions
	)
	cmd := &cobra.Command{
		Use:   "submit SPEC.yaml --slurm --out DIR",
		Short: "Run an experiment on a Slurm cluster: a job array of shards, then a merge",
		Long: `Writes and submits, with sbatch, a job array whose task i runs
  gopoly experiment run SPEC --shard i/N --out DIR/shards/i
and a merge job that runs once every task has ended (afterany) and waits
while a task is queued again (requeued):
  gopoly experiment merge DIR/shards/* --out DIR/result
DIR/result then holds the same bytes as a single run of the spec. DIR must
be on storage every node sees. The tasks read a copy of the spec in
DIR/slurm and run a copy of this program there (unless --gopoly names the
binary on the nodes), so that editing or rebuilding either changes nothing.
Each task appends its output to DIR/slurm/shard-i.log. A task that is
killed or requeued resumes its shard where it stopped; with --time, each
task stops cleanly --stop-before its limit and requeues itself.
If sbatch fails, nothing is left submitted and the same command can be
run again. gopoly experiment status DIR shows how far it is, and
gopoly experiment resubmit DIR reruns the shards that failed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bad := func(format string, a ...any) error {
				return usageErr(fmt.Errorf("experiment submit: "+format, a...))
			}
			switch {
			case !slurm:
				return bad("say which scheduler: --slurm (for Kubernetes, see experiment manifest)")
			case out == "":
				return bad("--out DIR is required: shared storage for the shards and the result")
			case o.tasks < 1:
				return bad("--tasks %d: want 1 or more", o.tasks)
			case o.workers < 1:
				return bad("--workers %d: want 1 or more", o.workers)
			case o.maxRunning < 0:
				return bad("--max-running %d: want 0 (no limit) or more", o.maxRunning)
			case !sbatchValue.MatchString(o.mem) || !sbatchValue.MatchString(o.timeLim):
				return bad("--mem %q, --time %q: want values as sbatch takes them, such as 4G and 2-00:00:00", o.mem, o.timeLim)
			case o.stopBefore < 0 || o.stopBefore%time.Second != 0:
				return bad("--stop-before %s: want whole seconds, 0 or more", o.stopBefore)
			}
			for _, a := range [][]string{o.both, o.array, o.merge} {
				for _, s := range a {
					if s == "--array" || strings.HasPrefix(s, "--array=") || s == "-a" || strings.HasPrefix(s, "-a=") {
						return bad("%s: the array's tasks are the shards; throttle with --max-running N", s)
					}
				}
			}
			e, err := arena.LoadExperiment(args[0])
			if err != nil {
				return usageErr(err)
			}
			if o.tasks > e.Seeds.Count {
				return bad("--tasks %d: the spec has %d seeds, and a shard plays whole seeds: give --tasks %d or fewer", o.tasks, e.Seeds.Count, e.Seeds.Count)
			}
			dir, err := filepath.Abs(out)
			if err != nil {
				return usageErr(err)
			}
			if err := checkOutDir(cmd, dir); err != nil {
				return err
			}
			if err := retryableDir(dir); err != nil {
				return bad("%v", err)
			}
			jobs, err := submitSlurm(dir, e, o)
			if err != nil {
				return fmt.Errorf("experiment submit: %w", err)
			}
			s := jobs.Submissions[0]
			fmt.Fprintf(cmd.OutOrStdout(), "submitted job array %s (%d tasks) and merge job %s\nfollow it with: gopoly experiment status %s\n",
				s.Array, jobs.Tasks, s.Merge, shellQuote(dir))
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&slurm, "slurm", false, "submit to Slurm with sbatch")
	f.StringVar(&out, "out", "", "output directory on shared storage (new or empty)")
	f.IntVar(&o.tasks, "tasks", 4, "array tasks, one shard each (at most the spec's seeds)")
	f.IntVar(&o.workers, "workers", 1, "CPUs per task (each task plays its shard on this many workers)")
	f.IntVar(&o.maxRunning, "max-running", 0, "tasks running at once (the array's %N; 0: no limit)")
	f.StringVar(&o.partition, "partition", "", "Slurm partition (default: the cluster's)")
	f.StringVar(&o.timeLim, "time", "", "time limit of each task, as sbatch --time takes it")
	f.DurationVar(&o.stopBefore, "stop-before", 2*time.Minute, "with --time: how long before its limit a task stops cleanly and requeues itself")
	f.StringVar(&o.mem, "mem", "", "memory of each task, as sbatch --mem takes it (default: the cluster's)")
	f.StringVar(&o.gopoly, "gopoly", "", "path of the gopoly binary on the nodes (default: a copy of this program in DIR/slurm)")
	f.StringArrayVar(&o.both, "sbatch-arg", nil, "another argument for sbatch, for both jobs (repeatable), e.g. --sbatch-arg=--account=lab")
	f.StringArrayVar(&o.array, "array-arg", nil, "another argument for sbatch, for the array only (repeatable)")
	f.StringArrayVar(&o.merge, "merge-arg", nil, "another argument for sbatch, for the merge only (repeatable)")
	return cmd
}

// sbatchValue is what --mem and --time may hold: they go into the
// script's #SBATCH lines as they are.
var sbatchValue = regexp.MustCompile(`^[A-Za-z0-9:.-]*$`)

// retryableDir refuses an --out that holds anything but what a submit
// whose sbatch failed leaves: the scripts and copies in DIR/slurm without
// jobs.json, and no shard. That is written again, so that the same
// command can be run again.
func retryableDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // new: checkOutDir saw to the rest
	}
	for _, en := range entries {
		switch en.Name() {
		case slurmDir:
			if fileExists(filepath.Join(dir, slurmDir, slurmRecord)) {
				return fmt.Errorf("--out %s was submitted already: follow it with gopoly experiment status %s, rerun its failed shards with gopoly experiment resubmit %[2]s", dir, shellQuote(dir))
			}
		case shardsDir:
			if s, _ := os.ReadDir(filepath.Join(dir, shardsDir)); len(s) > 0 {
				return fmt.Errorf("--out %s holds shards but no %s: give a new directory", dir, filepath.Join(slurmDir, slurmRecord))
			}
		default:
			return fmt.Errorf("--out %s is not empty: give a new directory", dir)
		}
	}
	return nil
}

// submitSlurm writes the copies and the batch scripts into dir and
// submits them. When sbatch fails, nothing stays submitted and no
// jobs.json is written.
func submitSlurm(dir string, e *arena.Experiment, o slurmOptions) (slurmJobs, error) {
	bi, ok := debug.ReadBuildInfo()
	jobs := slurmJobs{Source: e.File, Tasks: o.tasks, Gopoly: o.gopoly, Version: readBuildVersion(bi, ok), MaxRunning: o.maxRunning}
	sd := filepath.Join(dir, slurmDir)
	for _, d := range []string{sd, filepath.Join(dir, shardsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return jobs, err
		}
	}
	if abs, err := filepath.Abs(e.File); err == nil {
		jobs.Source = abs
	}
	jobs.Spec = filepath.Join(sd, filepath.Base(e.File))
	if err := os.WriteFile(jobs.Spec, e.Source, 0o644); err != nil {
		return jobs, err
	}
	if jobs.Gopoly == "" {
		self, err := os.Executable()
		if err != nil {
			return jobs, fmt.Errorf("finding this program: %w (give --gopoly)", err)
		}
		jobs.Gopoly = filepath.Join(sd, "gopoly")
		if err := copyFile(self, jobs.Gopoly, 0o755); err != nil {
			return jobs, fmt.Errorf("copying this program into %s: %w (or give --gopoly)", sd, err)
		}
	}
	if o.partition != "" {
		jobs.BothArgs = append(jobs.BothArgs, "--partition="+o.partition)
	}
	jobs.BothArgs = append(jobs.BothArgs, o.both...)
	jobs.ArrayArgs, jobs.MergeArgs = o.array, o.merge
	scripts := map[string]string{"array.sh": arrayScript(dir, jobs, o), "merge.sh": mergeScript(dir, jobs)}
	for name, text := range scripts {
		if err := os.WriteFile(filepath.Join(sd, name), []byte(text), 0o755); err != nil {
			return jobs, err
		}
	}
	all := make([]int, o.tasks)
	for i := range all {
		all[i] = i
	}
	s, err := submitShards(dir, &jobs, all, nil)
	if err != nil {
		return jobs, err
	}
	jobs.Submissions = append(jobs.Submissions, s)
	return jobs, writeSlurmJobs(dir, jobs)
}

// arrayScript is DIR/slurm/array.sh. Its task ids are shard numbers, so
// that sbatch --array=2,5 array.sh reruns shards 2 and 5, which resume.
// With a time limit, Slurm sends USR1 to the script --stop-before it;
// the script then stops the shard (TERM: it keeps its games) and
// requeues its task, which resumes when it starts again.
func arrayScript(dir string, jobs slurmJobs, o slurmOptions) string {
	q := shellQuote
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n#SBATCH --job-name=gopoly-shards\n#SBATCH --cpus-per-task=%d\n#SBATCH --output=%s\n#SBATCH --open-mode=append\n#SBATCH --requeue\n",
		o.workers, q(filepath.Join(dir, slurmDir, "shard-%a.log")))
	if o.mem != "" {
		fmt.Fprintf(&b, "#SBATCH --mem=%s\n", o.mem)
	}
	if o.timeLim != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", o.timeLim)
		if o.stopBefore > 0 {
			fmt.Fprintf(&b, "#SBATCH --signal=B:USR1@%d\n", int(o.stopBefore/time.Second))
		}
	}
	fmt.Fprintf(&b, `shard="${SLURM_ARRAY_TASK_ID:?run as a job array whose task ids are shards: sbatch --array=I %s}"
echo "gopoly: shard $shard/%d, job ${SLURM_JOB_ID:-}, $(date -u +%%FT%%TZ)"
limit=0
trap 'limit=1; kill -TERM "$pid" 2>/dev/null' USR1
%s experiment run %s --shard "$shard/%d" --workers %d --out %s/"$shard" &
pid=$!
while :; do
  wait "$pid"
  rc=$?
  kill -0 "$pid" 2>/dev/null || break
done
if [ "$limit" = 1 ] && [ "$rc" != 0 ]; then
  echo "gopoly: shard $shard stopped before the time limit; requeueing it to resume"
  scontrol requeue "$SLURM_JOB_ID"
fi
exit "$rc"
`, q(filepath.Join(dir, slurmDir, "array.sh")), jobs.Tasks, q(jobs.Gopoly), q(jobs.Spec), jobs.Tasks, o.workers, q(filepath.Join(dir, shardsDir)))
	return b.String()
}

// mergeScript is DIR/slurm/merge.sh: it names every shard, so that the
// same script merges after any resubmission, and takes as arguments the
// array jobs it runs after. Slurm may take a task being requeued for a
// failed one: an afterok dependency then never holds and the merge never
// runs (on Slurm 22.05, one requeue in 30 tried), so the merge
// runs after the arrays end however they end (afterany), and waits while
// any of their tasks is queued again.
func mergeScript(dir string, jobs slurmJobs) string {
	q := shellQuote
	var shards []string
	for i := range jobs.Tasks {
		shards = append(shards, q(filepath.Join(dir, shardsDir, strconv.Itoa(i))))
	}
	return fmt.Sprintf("#!/bin/bash\n#SBATCH --job-name=gopoly-merge\n#SBATCH --output=%s\n#SBATCH --open-mode=append\nIFS=,\nexec %s experiment merge --while-queued=\"$*\" %s --out %s\n",
		q(filepath.Join(dir, slurmDir, "merge.log")), q(jobs.Gopoly), strings.Join(shards, " "), q(filepath.Join(dir, resultDir)))
}

// submitShards submits an array of the given shards (none: only the
// merge) and a merge after it and after the jobs in after. If the merge
// cannot be submitted, the array is cancelled, so that nothing is left
// running that no record names.
func submitShards(dir string, jobs *slurmJobs, shards []int, after []string) (slurmSubmission, error) {
	s := slurmSubmission{Shards: shards, At: time.Now().UTC().Truncate(time.Second)}
	sd := filepath.Join(dir, slurmDir)
	if len(shards) > 0 {
		ids := make([]string, len(shards))
		for i, sh := range shards {
			ids[i] = strconv.Itoa(sh)
		}
		spec := "--array=" + strings.Join(ids, ",")
		if jobs.MaxRunning > 0 {
			spec += "%" + strconv.Itoa(jobs.MaxRunning)
		}
		args := append(append(append([]string{spec}, jobs.BothArgs...), jobs.ArrayArgs...), filepath.Join(sd, "array.sh"))
		var err error
		if s.Array, err = sbatch(args...); err != nil {
			return s, err
		}
		after = append(after, s.Array)
	}
	args := append(append([]string{}, jobs.BothArgs...), jobs.MergeArgs...)
	if len(after) > 0 {
		args = append(args, "--dependency=afterany:"+strings.Join(after, ":"))
	}
	var err error
	if s.Merge, err = sbatch(append(append(args, filepath.Join(sd, "merge.sh")), after...)...); err != nil {
		if s.Array != "" {
			if out, cerr := exec.Command("scancel", s.Array).CombinedOutput(); cerr != nil {
				return s, fmt.Errorf("%w; the array job %s is submitted and scancel failed (%v: %s): cancel it by hand", err, s.Array, cerr, bytes.TrimSpace(out))
			}
			err = fmt.Errorf("%w (the array job %s is cancelled)", err, s.Array)
		}
		return s, err
	}
	return s, nil
}

// writeSlurmJobs writes DIR/slurm/jobs.json whole, through a temporary
// file, so that a crash leaves the old record or the new one.
func writeSlurmJobs(dir string, jobs slurmJobs) error {
	data, err := json.MarshalIndent(jobs, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, slurmDir, slurmRecord)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// readSlurmJobs reads DIR/slurm/jobs.json.
func readSlurmJobs(cmd *cobra.Command, dir string) (slurmJobs, error) {
	var jobs slurmJobs
	path := filepath.Join(dir, slurmDir, slurmRecord)
	data, err := os.ReadFile(path)
	if err != nil {
		return jobs, usageErr(fmt.Errorf("%s: %s was not made by experiment submit: %w", cmdName(cmd), dir, err))
	}
	if err := json.Unmarshal(data, &jobs); err != nil || jobs.Tasks < 1 || len(jobs.Submissions) == 0 {
		if err == nil {
			err = errors.New("no tasks or no submission")
		}
		return jobs, usageErr(fmt.Errorf("%s: %s: damaged (%v)", cmdName(cmd), path, err))
	}
	return jobs, nil
}

// sbatch submits a script and returns the job id.
func sbatch(args ...string) (string, error) {
	var out, errOut bytes.Buffer
	c := exec.Command("sbatch", append([]string{"--parsable"}, args...)...)
	c.Stdout, c.Stderr = &out, &errOut
	if err := c.Run(); err != nil {
		return "", commandErr("sbatch", err, errOut.Bytes())
	}
	// --parsable prints "id" or "id;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	if id == "" {
		return "", errors.New("sbatch printed no job id")
	}
	return id, nil
}

// commandErr says why a Slurm command failed: not found, or its exit and
// what it printed on stderr.
func commandErr(name string, err error, stderr []byte) error {
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("%s not found on the PATH: run this on a Slurm login node", name)
	}
	if msg := strings.TrimSpace(string(stderr)); msg != "" {
		return fmt.Errorf("%s: %v: %s", name, err, msg)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// copyFile copies src to dst with mode perm, through a temporary file.
func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// countLines counts the complete lines of a file (0 if it is missing).
func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	buf := make([]byte, 64<<10)
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err != nil {
			return n
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
