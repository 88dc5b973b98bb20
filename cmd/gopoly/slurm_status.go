package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
)

// shardState is one shard of a submission as status shows it.
type shardState struct {
	Shard int `json:"shard"`
	// State is done (its games all in its directory), a state of its
	// task while Slurm runs it (pending, running, ...), how its task
	// ended if it is not done (cancelled, failed, timeout, ...; ended
	// when Slurm keeps no record of it), or unknown when the scheduler
	// could not be asked.
	State string `json:"state"`
	Job   string `json:"job,omitempty"` // its latest task, ARRAY_SHARD
	Games int    `json:"games"`         // games in its directory
	Of    int    `json:"of"`            // games of the shard; 0 before it starts
	Rerun bool   `json:"rerun"`         // neither done nor queued: resubmit runs it
}

// shardProgress returns the games in a shard's directory and its games
// (ok false before it started).
func shardProgress(dir string) (games, of int, ok bool) {
	info, err := arena.ReadRunInfo(dir)
	if err != nil {
		return 0, 0, false
	}
	return countLines(filepath.Join(dir, arena.ResultsFile)), info.Games, true
}

// shardComplete reports whether dir holds every game of its shard.
func shardComplete(dir string) bool {
	games, of, ok := shardProgress(dir)
	return ok && games == of
}

// slurmStatus is what status reports (and --json prints).
type slurmStatus struct {
	ArrayJob string            `json:"array_job"` // of the latest submission
	MergeJob string            `json:"merge_job"`
	Jobs     []slurmSubmission `json:"submissions"`
	Shards   []shardState      `json:"shards"`
	Done     int               `json:"done"`
	// Merge is the latest merge job's state: as for a shard, with done
	// when it completed and DIR/result holds the merge.
	Merge  string `json:"merge"`
	Result bool   `json:"result"` // DIR/result holds a complete merge
	// Error says why the scheduler could not be asked ("" if it was);
	// Note, what it could not say.
	Error    string `json:"scheduler_error,omitempty"`
	Note     string `json:"note,omitempty"`
	Recovery string `json:"recovery,omitempty"` // the command that recovers, if one is needed
}

// activeStates are the states of a Slurm job that will still run or
// is running: the others are how it ended.
var activeStates = []string{"pending", "running", "configuring", "completing", "requeued", "requeue_hold", "requeue_fed",
	"resv_del_hold", "suspended", "stopped", "signaling", "stage_out", "resizing"}

func active(state string) bool { return slices.Contains(activeStates, state) }

// jobStates returns the states Slurm knows of the given jobs, by job id
// ("123" or, for an array's task, "123_4"), in lower case. squeue tells
// the jobs it still holds, ended ones included for a few minutes; sacct,
// those it has forgotten, where the cluster keeps accounts (the note
// says when it does not). An error means squeue could not be asked.
func jobStates(ids []string) (states map[string]string, note string, err error) {
	if states, err = queued(ids); err != nil {
		return nil, "", err
	}
	var forgotten []string
	for _, id := range ids {
		if states[id] == "" {
			forgotten = append(forgotten, id)
		}
	}
	if len(forgotten) == 0 {
		return states, "", nil
	}
	var out, errOut bytes.Buffer
	c := exec.Command("sacct", "-n", "-P", "-X", "-j", strings.Join(forgotten, ","), "-o", "JobID,State")
	c.Stdout, c.Stderr = &out, &errOut
	if err := c.Run(); err != nil {
		return states, fmt.Sprintf("Slurm no longer lists %s, and %v: the shards' files tell whether they are done",
			strings.Join(forgotten, ", "), commandErr("sacct", err, errOut.Bytes())), nil
	}
	parseStates(states, out.String(), "|")
	return states, "", nil
}

// queued returns the states squeue holds of the given jobs and of every
// task of their arrays, by job id ("123" or "123_4"), in lower case: the
// jobs still queued or running, and those that ended a few minutes ago.
func queued(ids []string) (map[string]string, error) {
	states := map[string]string{}
	var jobs []string // squeue is asked about whole arrays
	for _, id := range ids {
		job, _, _ := strings.Cut(id, "_")
		if !slices.Contains(jobs, job) {
			jobs = append(jobs, job)
		}
	}
	for _, job := range jobs {
		var out, errOut bytes.Buffer
		c := exec.Command("squeue", "-h", "-r", "-t", "all", "-j", job, "-o", "%i %T")
		c.Stdout, c.Stderr = &out, &errOut
		if err := c.Run(); err != nil {
			// squeue refuses a job id it no longer holds.
			if strings.Contains(errOut.String(), "Invalid job id") {
				continue
			}
			return nil, commandErr("squeue", err, errOut.Bytes())
		}
		parseStates(states, out.String(), " ")
	}
	return states, nil
}

// anyQueued reports whether squeue holds a task of one of jobs queued or
// running (a requeued task is pending again).
func anyQueued(jobs []string) (bool, error) {
	states, err := queued(jobs)
	for _, st := range states {
		if active(st) {
			return true, nil
		}
	}
	return false, err
}

// parseStates adds lines "ID<sep>STATE" to states, the state lower case
// and cut at its first space (sacct writes "CANCELLED by 1000"), and
// returns how many it added.
func parseStates(states map[string]string, text, sep string) int {
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		id, state, ok := strings.Cut(strings.TrimSpace(line), sep)
		if !ok || id == "" {
			continue
		}
		state, _, _ = strings.Cut(strings.TrimSpace(state), " ")
		states[id] = strings.ToLower(strings.TrimSuffix(state, "+"))
		n++
	}
	return n
}

// slurmState reads a submission's directory and asks Slurm about every
// job it ever submitted for it.
func slurmState(dir string, jobs slurmJobs) slurmStatus {
	latest := jobs.Submissions[len(jobs.Submissions)-1]
	st := slurmStatus{ArrayJob: latest.Array, MergeJob: latest.Merge, Jobs: jobs.Submissions}
	// The task that last ran each shard: later submissions rerun it.
	task := map[int]string{}
	for _, s := range jobs.Submissions {
		for _, sh := range s.Shards {
			task[sh] = s.Array + "_" + strconv.Itoa(sh)
		}
	}
	var ids []string
	for i := range jobs.Tasks {
		ids = append(ids, task[i])
	}
	ids = append(ids, latest.Merge)
	states, note, err := jobStates(ids)
	if err != nil {
		st.Error = err.Error()
	}
	st.Note = note
	anyActive := false
	for i := range jobs.Tasks {
		s := shardState{Shard: i, Job: task[i]}
		sdir := filepath.Join(dir, shardsDir, strconv.Itoa(i))
		var started bool
		s.Games, s.Of, started = shardProgress(sdir)
		complete := started && s.Games == s.Of
		q := states[s.Job]
		switch {
		case st.Error != "" && !complete:
			s.State = "unknown"
		case active(q):
			s.State = q
			anyActive = true
		case complete:
			s.State = "done"
			st.Done++
		case q != "" && q != "completed":
			s.State, s.Rerun = q, true
		default:
			s.State, s.Rerun = "ended", true
		}
		st.Shards = append(st.Shards, s)
	}
	st.Result = fileExists(filepath.Join(dir, resultDir, arena.SummaryFile))
	switch q := states[latest.Merge]; {
	case st.Error != "":
		st.Merge = "unknown"
	case active(q):
		st.Merge = q
	case q == "completed" && st.Result, q == "" && st.Result:
		st.Merge = "done"
	case q == "" || q == "completed":
		st.Merge = "ended"
	default:
		st.Merge = q
	}
	needed := slices.ContainsFunc(st.Shards, func(s shardState) bool { return s.Rerun }) ||
		!anyActive && st.Error == "" && !active(st.Merge) && !st.Result
	if needed {
		st.Recovery = "gopoly experiment resubmit " + shellQuote(dir)
	}
	return st
}

// newExperimentStatusCmd returns gopoly experiment status: how far a
// Slurm submission is.
func newExperimentStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status DIR",
		Short: "Show the shards of a submitted experiment: done, running, pending, failed",
		Long: `Reads a directory made by experiment submit and asks Slurm about every job
ever submitted for it (squeue; sacct for jobs squeue has forgotten): for
each shard whether it is done, pending or running, or how its task ended
(cancelled, failed, timeout; stopped when Slurm keeps no record), with its
games so far, and the state of the latest merge job. When shards or the
merge need running again, it prints the command that does it:
gopoly experiment resubmit DIR. When squeue cannot be asked, what is not
done is "unknown" and status exits 1.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			jobs, err := readSlurmJobs(cmd, args[0])
			if err != nil {
				return err
			}
			st := slurmState(args[0], jobs)
			out := cmd.OutOrStdout()
			if asJSON {
				b, _ := json.MarshalIndent(st, "", "  ")
				fmt.Fprintf(out, "%s\n", b)
			} else if err := printSlurmStatus(out, st); err != nil {
				return err
			}
			if st.Error != "" {
				return fmt.Errorf("experiment status: the scheduler could not be asked: %s", st.Error)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return cmd
}

func printSlurmStatus(out io.Writer, st slurmStatus) error {
	merge := st.Merge
	if st.Error != "" {
		merge = "unknown (squeue failed: " + st.Error + ")"
	}
	if st.Result && st.Merge != "done" && st.Error == "" {
		merge += " (" + resultDir + " holds a merge made otherwise)"
	}
	fmt.Fprintf(out, "job array %s: %d of %d shards done; merge job %s: %s\n", st.ArrayJob, st.Done, len(st.Shards), st.MergeJob, merge)
	if len(st.Jobs) > 1 {
		fmt.Fprintf(out, "(%d submissions; each shard shows its latest task)\n", len(st.Jobs))
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SHARD\tSTATE\tTASK\tGAMES")
	for _, s := range st.Shards {
		games := "-"
		if s.Of > 0 || s.State == "done" {
			games = fmt.Sprintf("%d of %d", s.Games, s.Of)
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", s.Shard, s.State, s.Job, games)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if st.Note != "" {
		fmt.Fprintln(out, "note:", st.Note)
	}
	if st.Recovery != "" {
		fmt.Fprintln(out, "to recover, run:", st.Recovery)
	}
	return nil
}

// newExperimentResubmitCmd returns gopoly experiment resubmit: the
// recovery of a Slurm submission.
func newExperimentResubmitCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "resubmit DIR",
		Short: "Submit again the shards of a Slurm submission that are not done, and a merge after them",
		Long: `Asks Slurm, as status does, about a directory made by experiment submit,
and submits an array of the shards that are neither done nor queued (they
resume where they stopped) with the settings of the first submission, and
a merge job after it and after any shard still queued. With every shard
done but no merge, it submits the merge alone. The new job ids are added
to DIR/slurm/jobs.json, which keeps the earlier ones; a merge job of an
earlier submission still waiting is cancelled.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := filepath.Abs(args[0])
			if err != nil {
				return usageErr(err)
			}
			jobs, err := readSlurmJobs(cmd, dir)
			if err != nil {
				return err
			}
			st := slurmState(dir, jobs)
			if st.Error != "" {
				return fmt.Errorf("experiment resubmit: the scheduler could not be asked, nothing submitted: %s", st.Error)
			}
			out := cmd.OutOrStdout()
			if st.Recovery == "" {
				fmt.Fprintf(out, "nothing to resubmit: merge job %s is %s\n", st.MergeJob, st.Merge)
				return nil
			}
			var rerun []int
			var after []string
			for _, s := range st.Shards {
				switch {
				case s.Rerun:
					rerun = append(rerun, s.Shard)
				case s.State != "done":
					after = append(after, s.Job)
				}
			}
			if active(st.Merge) {
				// It waits on a task that failed and never runs.
				if b, err := exec.Command("scancel", st.MergeJob).CombinedOutput(); err != nil {
					return fmt.Errorf("experiment resubmit: %w", commandErr("scancel", err, b))
				}
			}
			s, err := submitShards(dir, &jobs, rerun, after)
			if err != nil {
				return fmt.Errorf("experiment resubmit: %w", err)
			}
			jobs.Submissions = append(jobs.Submissions, s)
			if err := writeSlurmJobs(dir, jobs); err != nil {
				return fmt.Errorf("experiment resubmit: jobs %s and %s are submitted but not recorded: %w", s.Array, s.Merge, err)
			}
			if len(rerun) > 0 {
				names := make([]string, len(rerun))
				for i, r := range rerun {
					names[i] = strconv.Itoa(r)
				}
				word := "shards"
				if len(rerun) == 1 {
					word = "shard"
				}
				fmt.Fprintf(out, "resubmitted %s %s as job array %s; ", word, strings.Join(names, ", "), s.Array)
			} else {
				fmt.Fprint(out, "every shard is done; ")
			}
			fmt.Fprintf(out, "merge job %s after it\nfollow it with: gopoly experiment status %s\n", s.Merge, shellQuote(dir))
			return nil
		},
	}
}
