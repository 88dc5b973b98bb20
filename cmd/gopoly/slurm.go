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
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
)

// A Slurm submission lays out its directory so:
//
//	DIR/slurm/array.sh, merge.sh   the batch scripts
//	DIR/slurm/jobs.json            what was submitted (slurmJobs)
//	DIR/slurm/shard-I.log          each task's output
//	DIR/shards/I                   shard I of the experiment
//	DIR/result                     the merge: the bytes of a single run
const (
	slurmDir    = "slurm"
	shardsDir   = "shards"
	resultDir   = "result"
	slurmRecord = "jobs.json"
)

// slurmJobs is DIR/slurm/jobs.json.
type slurmJobs struct {
	Spec   string `json:"spec"`
	Tasks  int    `json:"tasks"`
	Array  string `json:"array_job"`
	Merge  string `json:"merge_job"`
	Gopoly string `json:"gopoly"`
}

// newExperimentSubmitCmd returns gopoly experiment submit: an experiment
// as a Slurm job array of shards and a merge job after it.
func newExperimentSubmitCmd() *cobra.Command {
	var (
		slurm                   bool
		out, partition, timeLim string
		gopoly                  string
		tasks, workers          int
		sbatchArgs              []string
	)
	cmd := &cobra.Command{
		Use:   "submit SPEC.yaml --slurm --out DIR",
		Short: "Run an experiment on a Slurm cluster: a job array of shards, then a merge",
		Long: `Writes and submits, with sbatch, a job array whose task i runs
  gopoly experiment run SPEC --shard i/N --out DIR/shards/i
and a merge job that runs once every task has succeeded (afterok):
  gopoly experiment merge DIR/shards/* --out DIR/result
DIR/result then holds the same bytes as a single run of the spec. DIR must
be on storage every node sees, as must SPEC and the gopoly binary (this
one unless --gopoly names another path). Each task's output goes to
DIR/slurm/shard-i.log. A task that is killed or requeued resumes its shard
where it stopped. gopoly experiment status DIR shows how far it is.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case !slurm:
				return usageErr(errors.New("experiment submit: say which scheduler: --slurm (for Kubernetes, see experiment manifest)"))
			case out == "":
				return usageErr(errors.New("experiment submit: --out DIR is required: shared storage for the shards and the result"))
			case tasks < 1:
				return usageErr(fmt.Errorf("experiment submit: --tasks %d: want 1 or more", tasks))
			case workers < 1:
				return usageErr(fmt.Errorf("experiment submit: --workers %d: want 1 or more", workers))
			}
			spec, err := filepath.Abs(args[0])
			if err != nil {
				return usageErr(err)
			}
			if _, err := arena.LoadExperiment(spec); err != nil {
				return usageErr(err)
			}
			if gopoly == "" {
				if gopoly, err = os.Executable(); err != nil {
					return fmt.Errorf("experiment submit: finding this program: %w (give --gopoly)", err)
				}
			}
			dir, err := filepath.Abs(out)
			if err != nil {
				return usageErr(err)
			}
			if err := checkOutDir(cmd, dir); err != nil {
				return err
			}
			if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
				return usageErr(fmt.Errorf("experiment submit: --out %s is not empty: give a new directory", dir))
			}
			jobs, err := submitSlurm(dir, spec, gopoly, tasks, workers, partition, timeLim, sbatchArgs)
			if err != nil {
				return fmt.Errorf("experiment submit: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "submitted job array %s (%d tasks) and merge job %s\nfollow it with: gopoly experiment status %s\n",
				jobs.Array, jobs.Tasks, jobs.Merge, shellQuote(dir))
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&slurm, "slurm", false, "submit to Slurm with sbatch")
	f.StringVar(&out, "out", "", "output directory on shared storage (new or empty)")
	f.IntVar(&tasks, "tasks", 4, "array tasks, one shard each")
	f.IntVar(&workers, "workers", 1, "CPUs per task (each task plays its shard on this many workers)")
	f.StringVar(&partition, "partition", "", "Slurm partition (default: the cluster's)")
	f.StringVar(&timeLim, "time", "", "time limit of each task, as sbatch --time takes it")
	f.StringVar(&gopoly, "gopoly", "", "path of the gopoly binary on the nodes (default: this program)")
	f.StringArrayVar(&sbatchArgs, "sbatch-arg", nil, "another argument for sbatch, for both jobs (repeatable), e.g. --sbatch-arg=--account=lab")
	return cmd
}

// submitSlurm writes the batch scripts into dir and submits them.
func submitSlurm(dir, spec, gopoly string, tasks, workers int, partition, timeLim string, extra []string) (slurmJobs, error) {
	jobs := slurmJobs{Spec: spec, Tasks: tasks, Gopoly: gopoly}
	sd := filepath.Join(dir, slurmDir)
	if err := os.MkdirAll(filepath.Join(dir, shardsDir), 0o755); err != nil {
		return jobs, err
	}
	if err := os.MkdirAll(sd, 0o755); err != nil {
		return jobs, err
	}
	q := shellQuote
	// Every task runs its shard; a rerun of the same command resumes it,
	// which is what a requeued task does.
	array := fmt.Sprintf(`#!/bin/bash
#SBATCH --job-name=gopoly-shards
#SBATCH --array=0-%d
#SBATCH --cpus-per-task=%d
#SBATCH --output=%s
#SBATCH --requeue
exec %s experiment run %s --shard "${SLURM_ARRAY_TASK_ID}/%d" --workers %d --out %s/"${SLURM_ARRAY_TASK_ID}"
`, tasks-1, workers, q(filepath.Join(sd, "shard-%a.log")), q(gopoly), q(spec), tasks, workers, q(filepath.Join(dir, shardsDir)))
	var shards []string
	for i := range tasks {
		shards = append(shards, q(filepath.Join(dir, shardsDir, strconv.Itoa(i))))
	}
	merge := fmt.Sprintf(`#!/bin/bash
#SBATCH --job-name=gopoly-merge
#SBATCH --output=%s
exec %s experiment merge %s --out %s
`, q(filepath.Join(sd, "merge.log")), q(gopoly), strings.Join(shards, " "), q(filepath.Join(dir, resultDir)))
	for name, text := range map[string]string{"array.sh": array, "merge.sh": merge} {
		if err := os.WriteFile(filepath.Join(sd, name), []byte(text), 0o755); err != nil {
			return jobs, err
		}
	}
	var common []string
	if partition != "" {
		common = append(common, "--partition="+partition)
	}
	if timeLim != "" {
		common = append(common, "--time="+timeLim)
	}
	common = append(common, extra...)
	var err error
	if jobs.Array, err = sbatch(append(common, filepath.Join(sd, "array.sh"))...); err != nil {
		return jobs, err
	}
	if jobs.Merge, err = sbatch(append(common, "--dependency=afterok:"+jobs.Array, "--kill-on-invalid-dep=yes", filepath.Join(sd, "merge.sh"))...); err != nil {
		return jobs, fmt.Errorf("%w (the array job %s is submitted: cancel it with scancel %s)", err, jobs.Array, jobs.Array)
	}
	data, _ := json.MarshalIndent(jobs, "", "  ")
	return jobs, os.WriteFile(filepath.Join(sd, slurmRecord), append(data, '\n'), 0o644)
}

// sbatch submits a script and returns the job id.
func sbatch(args ...string) (string, error) {
	var out, errOut bytes.Buffer
	c := exec.Command("sbatch", append([]string{"--parsable"}, args...)...)
	c.Stdout, c.Stderr = &out, &errOut
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("sbatch: %v: %s", err, strings.TrimSpace(errOut.String()))
	}
	// --parsable prints "id" or "id;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	if id == "" {
		return "", errors.New("sbatch printed no job id")
	}
	return id, nil
}

// shardState is one shard of a submission as status shows it.
type shardState struct {
	Shard int    `json:"shard"`
	State string `json:"state"` // done, running, pending, failed, waiting
	Games int    `json:"games"` // games in its directory
	Of    int    `json:"of"`    // games of the shard; 0 before it starts
}

// newExperimentStatusCmd returns gopoly experiment status: how far a
// Slurm submission is.
func newExperimentStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status DIR",
		Short: "Show the shards of a submitted experiment: done, running, pending, failed",
		Long: `Reads a directory made by experiment submit and asks Slurm (squeue) about
its jobs: for each shard whether it is done, running, pending or failed,
with its games so far, and whether the merge has run. A failed shard is
rerun with scontrol requeue JOB_TASK (it resumes), or by hand with the
command of DIR/slurm/array.sh.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			data, err := os.ReadFile(filepath.Join(dir, slurmDir, slurmRecord))
			if err != nil {
				return usageErr(fmt.Errorf("experiment status: %s was not made by experiment submit: %w", dir, err))
			}
			var jobs slurmJobs
			if err := json.Unmarshal(data, &jobs); err != nil || jobs.Tasks < 1 {
				return usageErr(fmt.Errorf("experiment status: %s: damaged (%v)", filepath.Join(dir, slurmDir, slurmRecord), err))
			}
			queued := squeue(jobs.Array)
			shards := make([]shardState, jobs.Tasks)
			done := 0
			for i := range shards {
				s := shardState{Shard: i, State: queued[strconv.Itoa(i)]}
				sdir := filepath.Join(dir, shardsDir, strconv.Itoa(i))
				if info, err := arena.ReadRunInfo(sdir); err == nil {
					s.Of = info.Games
					s.Games = countLines(filepath.Join(sdir, arena.ResultsFile))
				}
				switch {
				case s.Of > 0 && s.Games == s.Of && s.State == "":
					s.State = "done"
					done++
				case s.State == "":
					s.State = "failed"
				}
				shards[i] = s
			}
			merge := "waiting"
			switch st := squeue(jobs.Merge)[""]; {
			case st != "":
				merge = st
			case fileExists(filepath.Join(dir, resultDir, arena.SummaryFile)):
				merge = "done"
			case done == jobs.Tasks:
				merge = "failed"
			}
			out := cmd.OutOrStdout()
			if asJSON {
				b, _ := json.MarshalIndent(map[string]any{"array_job": jobs.Array, "merge_job": jobs.Merge, "shards": shards, "merge": merge}, "", "  ")
				fmt.Fprintf(out, "%s\n", b)
				return nil
			}
			fmt.Fprintf(out, "job array %s: %d of %d shards done; merge job %s: %s\n", jobs.Array, done, jobs.Tasks, jobs.Merge, merge)
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "SHARD\tSTATE\tGAMES")
			for _, s := range shards {
				games := "-"
				if s.Of > 0 {
					games = fmt.Sprintf("%d of %d", s.Games, s.Of)
				}
				fmt.Fprintf(w, "%d\t%s\t%s\n", s.Shard, s.State, games)
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return cmd
}

// squeue returns the states of a job's tasks that Slurm still holds, by
// array task id ("" for a job that is not an array), in lower case:
// pending, running, ... A job Slurm no longer lists has no entry.
func squeue(job string) map[string]string {
	states := map[string]string{}
	out, err := exec.Command("squeue", "-h", "-r", "-j", job, "-o", "%K %T").Output()
	if err != nil {
		return states
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		task, state, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		if task == "N/A" {
			task = ""
		}
		states[task] = strings.ToLower(state)
	}
	return states
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
		if err == io.EOF || err != nil {
			return n
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
