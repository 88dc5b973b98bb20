package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/deal"
	"github.com/gopoly/gopoly/internal/dirlock"
)

type dealTrainOpts struct {
	games, sims, buffer, maxTurns, workers, batch int
	checkpointEvery, metricsEvery, evalGames      int
	epsilon                                       float64
	seed                                          uint64
	mode, out, resolver, preset, config, plotExt  string
	abstraction                                   string
	honest, resume, asJSON                        bool
}

func newDealTrainCmd() *cobra.Command {
	var o dealTrainOpts
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train the Monte Carlo CFR agent by self-play",
		Long: `Trains the paper's Monte Carlo CFR agent by self-play: at every decision
each available abstract action is tried with --sims rollouts, regrets are
discounted and regret-matched with the paper's clamps, and the average of
the last --buffer policies is the trained agent.

Training game i uses seed --seed + i and is started by player i mod 2.
The default batch-ordered mode gives the same result for any --workers.
Every --metrics-every games the agent is evaluated against both baselines
(--eval-games games per setting) and a line is appended to
DIR/metrics.jsonl; the figures are drawn to DIR/metrics-*.png (or .svg).
Checkpoints go to DIR/checkpoint-NNNNNNN.json, and the final one is also
written as DIR/policy.json. --resume continues from the latest checkpoint
in DIR with its stored parameters; Ctrl-C (or SIGTERM) stops at the next
batch, saves a checkpoint and exits with code 130. DIR is locked while a
run writes it: a second run on it is refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runDealTrain(cmd, o) },
	}
	f := cmd.Flags()
	p := deal.DefaultParams()
	f.IntVar(&o.games, "games", 1000, "total training games (including those of a resumed run)")
	f.IntVar(&o.sims, "sims", p.Sims, "rollouts per action")
	f.Float64Var(&o.epsilon, "epsilon", p.Epsilon, "exploration rate in the training games")
	f.IntVar(&o.buffer, "buffer", p.Buffer, "policies kept per information set (the average policy is their mean)")
	f.IntVar(&o.maxTurns, "max-turns", deal.DefaultMaxTurns, "turn cap; a capped game is a draw")
	f.Uint64Var(&o.seed, "seed", p.Seed, "run seed: training game i uses seed+i")
	f.StringVar(&o.mode, "mode", "batch-ordered", "parallelism: sequential, batch-ordered (deterministic) or unordered (fastest, not deterministic)")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines (0: all cores)")
	f.IntVar(&o.batch, "batch", p.Batch, "games per batch in batch-ordered mode (part of the result, unlike --workers)")
	f.StringVar(&o.out, "out", "runs/deal", "output directory for checkpoints, metrics and figures")
	f.IntVar(&o.checkpointEvery, "checkpoint-every", 0, "also write a checkpoint every N games (at the next batch boundary); 0: only at the end")
	f.BoolVar(&o.resume, "resume", false, "continue from the latest checkpoint in --out")
	f.IntVar(&o.metricsEvery, "metrics-every", 50, "measure and log metrics every N games (0: only at the end)")
	f.IntVar(&o.evalGames, "eval-games", 200, "evaluation games per baseline and start setting at each metrics point")
	f.BoolVar(&o.honest, "honest", false, "rollouts resample the opponent's hidden hand instead of seeing it (the paper's rollouts see it)")
	f.StringVar(&o.resolver, "resolver", "greedy", "concrete-action resolver: greedy (the paper's) or smart (pays without needless overpayment)")
	f.StringVar(&o.abstraction, "abstraction", "intent", "information-set key: intent (the paper's) or situation (adds both players' sets, bank, exposure and the rent at stake)")
	f.StringVar(&o.preset, "preset", "paper", "game configuration: paper (83 cards), small or tiny")
	f.StringVar(&o.config, "config", "", "game configuration JSON file (overrides --preset)")
	f.StringVar(&o.plotExt, "plot-format", "png", "figure format: png or svg")
	f.BoolVar(&o.asJSON, "json", false, "print the final summary as JSON")
	return cmd
}

// dealTrainSummary is the final report of a training run.
type dealTrainSummary struct {
	Games          int           `json:"games"`
	GamesThisRun   int           `json:"games_this_run"`
	Interrupted    bool          `json:"interrupted"`
	Mode           string        `json:"mode"`
	Workers        int           `json:"workers"`
	WallSeconds    float64       `json:"wall_seconds"`
	CPUSeconds     float64       `json:"cpu_seconds"`
	TrainSeconds   float64       `json:"train_seconds"`
	Checkpoint     string        `json:"checkpoint"`
	Policy         string        `json:"policy,omitempty"`
	MetricsFile    string        `json:"metrics_file"`
	Figures        []string      `json:"figures"`
	Final          *deal.Metrics `json:"final"`
	SimsPerAction  int           `json:"sims_per_action"`
	Epsilon        float64       `json:"epsilon"`
	BufferSize     int           `json:"buffer_size"`
	MaxTurns       int           `json:"max_turns"`
	Seed           uint64        `json:"seed"`
	RealHand       bool          `json:"rollouts_see_real_hand"`
	Resolver       string        `json:"resolver"`
	Abstraction    string        `json:"abstraction"`
	Batch          int           `json:"batch"`
	GameConfigName string        `json:"game_config"`
}

func runDealTrain(cmd *cobra.Command, o dealTrainOpts) error {
	mode, err := deal.ParseMode(o.mode)
	if err != nil {
		return usageErr(err)
	}
	res, err := deal.ParseResolver(o.resolver)
	if err != nil {
		return usageErr(err)
	}
	abs, err := deal.ParseAbstraction(o.abstraction)
	if err != nil {
		return usageErr(err)
	}
	switch {
	case o.games < 0:
		return usageErr(fmt.Errorf("deal: --games must not be negative"))
	case o.metricsEvery < 0 || o.checkpointEvery < 0 || o.evalGames < 0:
		return usageErr(fmt.Errorf("deal: --metrics-every, --checkpoint-every and --eval-games must not be negative"))
	case o.plotExt != "png" && o.plotExt != "svg":
		return usageErr(fmt.Errorf("deal: --plot-format must be png or svg, got %q", o.plotExt))
	case o.workers < 0:
		return usageErr(fmt.Errorf("deal: --workers must not be negative"))
	}
	workers := o.workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	if err := checkOutDir(cmd, o.out); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("deal: %w", err)
	}
	// One run writes a directory at a time: two would mix their
	// checkpoints and metrics.
	lock, err := dirlock.Exclusive(o.out)
	if err != nil {
		return usageErr(fmt.Errorf("deal: --out: %w", err))
	}
	defer lock.Release()
	metricsPath := filepath.Join(o.out, "metrics.jsonl")
	latest, err := deal.LatestCheckpoint(o.out)
	if err != nil {
		return err
	}
	var tr *deal.Trainer
	if o.resume {
		if latest == "" {
			return usageErr(fmt.Errorf("deal: --resume: no checkpoint in %s", o.out))
		}
		ck, err := deal.LoadCheckpoint(latest)
		if err != nil {
			return usageErr(err)
		}
		if err := dealCheckResumeFlags(cmd, o, ck); err != nil {
			return usageErr(err)
		}
		if tr, err = deal.Resume(ck); err != nil {
			return usageErr(err)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "deal: resuming %s at %d games\n", latest, ck.GamesDone)
	} else {
		if _, statErr := os.Stat(metricsPath); latest != "" || statErr == nil {
			return usageErr(fmt.Errorf("deal: %s already holds a training run: use --resume, or another --out", o.out))
		}
		cfg, err := dealConfig(o.preset, o.config)
		if err != nil {
			return err
		}
		if o.config == "" || cmd.Flags().Changed("max-turns") {
			cfg.MaxTurns = o.maxTurns
		}
		p := deal.Params{Sims: o.sims, Epsilon: o.epsilon, Buffer: o.buffer, Seed: o.seed, RealHand: !o.honest, Resolver: res, Batch: o.batch, Abstraction: abs}
		if tr, err = deal.NewTrainer(cfg, p); err != nil {
			return usageErr(err)
		}
	}
	tr.Mode, tr.Workers = mode, workers

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stderr := cmd.ErrOrStderr()
	bar := newProgress(stderr, o.games, "training")
	if bar != nil {
		bar.Set(tr.Done())
	}
	start, cpu0 := time.Now(), cpuTime()
	var evalTime time.Duration
	var last *deal.Metrics
	startDone := tr.Done()
	record := func() error {
		t0 := time.Now()
		m := tr.Metrics(o.evalGames, workers)
		evalTime += time.Since(t0)
		m.WallSeconds = time.Since(start).Seconds()
		last = &m
		if err := deal.AppendMetrics(metricsPath, m); err != nil {
			return err
		}
		line := fmt.Sprintf("%d infosets, MER %.4f, vs random %.2f/%.2f, vs risk-aware %.2f/%.2f",
			m.Infosets, m.MaxExpectedRegret, m.WinRates.RandomFirst, m.WinRates.RandomAlternating,
			m.WinRates.RiskAwareFirst, m.WinRates.RiskAwareAlternating)
		if bar != nil {
			bar.Describe(fmt.Sprintf("%d infosets · vs random %.2f/%.2f · vs risk-aware %.2f/%.2f", m.Infosets,
				m.WinRates.RandomFirst, m.WinRates.RandomAlternating, m.WinRates.RiskAwareFirst, m.WinRates.RiskAwareAlternating))
		} else if !o.asJSON {
			fmt.Fprintf(stderr, "deal: %d/%d games: %s\n", m.Games, o.games, line)
		}
		return nil
	}
	saveCheckpoint := func() (string, error) {
		data, err := tr.MarshalCheckpoint()
		if err != nil {
			return "", err
		}
		path := filepath.Join(o.out, deal.CheckpointName(tr.Done()))
		return path, deal.WriteFileAtomic(path, data)
	}
	if startDone == 0 && o.metricsEvery > 0 && o.games > 0 {
		if err := record(); err != nil {
			return err
		}
	}
	after := func(prev, done int) error {
		if bar != nil {
			bar.Set(done)
		}
		if o.metricsEvery > 0 && done/o.metricsEvery != prev/o.metricsEvery && done != o.games {
			if err := record(); err != nil {
				return err
			}
		}
		if o.checkpointEvery > 0 && done/o.checkpointEvery != prev/o.checkpointEvery && done != o.games {
			if _, err := saveCheckpoint(); err != nil {
				return err
			}
		}
		return nil
	}
	runErr := tr.Run(ctx, o.games, after)
	interrupted := errors.Is(runErr, context.Canceled)
	if runErr != nil && !interrupted {
		return runErr
	}
	trainWall := time.Since(start) - evalTime
	if bar != nil {
		bar.Finish()
	}
	if last == nil || last.Games != tr.Done() {
		if err := record(); err != nil {
			return err
		}
	}
	ckPath, err := saveCheckpoint()
	if err != nil {
		return err
	}
	sum := dealTrainSummary{
		Games: tr.Done(), GamesThisRun: tr.Done() - startDone, Interrupted: interrupted,
		Mode: mode.String(), Workers: workers, Checkpoint: ckPath, MetricsFile: metricsPath, Final: last,
		TrainSeconds: trainWall.Seconds(),
	}
	p := tr.Params()
	sum.SimsPerAction, sum.Epsilon, sum.BufferSize, sum.Seed = p.Sims, p.Epsilon, p.Buffer, p.Seed
	sum.RealHand, sum.Resolver, sum.Batch, sum.Abstraction = p.RealHand, p.Resolver.String(), p.Batch, p.Abstraction.String()
	sum.MaxTurns, sum.GameConfigName = tr.Rules().MaxTurns(), tr.Rules().Config().Name
	if !interrupted {
		data, _ := os.ReadFile(ckPath)
		sum.Policy = filepath.Join(o.out, "policy.json")
		if err := deal.WriteFileAtomic(sum.Policy, data); err != nil {
			return err
		}
	}
	ms, err := deal.ReadMetrics(metricsPath)
	if err != nil {
		return err
	}
	if sum.Figures, err = dealPlotMetrics(o.out, o.plotExt, ms); err != nil {
		return err
	}
	sum.WallSeconds = time.Since(start).Seconds()
	sum.CPUSeconds = (cpuTime() - cpu0).Seconds()
	if o.asJSON {
		if err := writeJSON(cmd.OutOrStdout(), sum); err != nil {
			return err
		}
	} else {
		dealPrintTrainSummary(cmd.OutOrStdout(), sum)
	}
	if interrupted {
		return &exitError{code: 130, err: fmt.Errorf("deal: interrupted at %d games; continue with --resume --out %s", tr.Done(), o.out)}
	}
	return nil
}

// dealCheckResumeFlags refuses flags that would silently change a resumed
// run's parameters.
func dealCheckResumeFlags(cmd *cobra.Command, o dealTrainOpts, ck *deal.Checkpoint) error {
	f := cmd.Flags()
	p := ck.Params
	res, _ := deal.ParseResolver(o.resolver)
	abs, _ := deal.ParseAbstraction(o.abstraction)
	conflicts := []struct {
		flag      string
		same      bool
		have, was any
	}{
		{"sims", o.sims == p.Sims, o.sims, p.Sims},
		{"epsilon", o.epsilon == p.Epsilon, o.epsilon, p.Epsilon},
		{"buffer", o.buffer == p.Buffer, o.buffer, p.Buffer},
		{"seed", o.seed == p.Seed, o.seed, p.Seed},
		{"batch", o.batch == p.Batch, o.batch, p.Batch},
		{"max-turns", o.maxTurns == ck.Config.MaxTurns, o.maxTurns, ck.Config.MaxTurns},
		{"honest", o.honest == !p.RealHand, o.honest, !p.RealHand},
		{"resolver", res == p.Resolver, o.resolver, p.Resolver},
		{"abstraction", abs == p.Abstraction, o.abstraction, p.Abstraction},
		{"preset", o.preset == ck.Config.Name, o.preset, ck.Config.Name},
		{"config", false, o.config, "the checkpoint's game_config"},
	}
	for _, c := range conflicts {
		if f.Changed(c.flag) && !c.same {
			return fmt.Errorf("deal: --%s %v differs from the checkpoint's %v; a resumed run keeps its parameters", c.flag, c.have, c.was)
		}
	}
	return nil
}

func dealPrintTrainSummary(w io.Writer, s dealTrainSummary) {
	fmt.Fprintf(w, "Monopoly Deal CFR training: %d games (%d this run), %s mode, %s\n", s.Games, s.GamesThisRun, s.Mode, plural(s.Workers, "worker"))
	fmt.Fprintf(w, "  settings:   %d rollouts/action, epsilon %g, buffer %d, cap %d turns, seed %d, batch %d, %s, %s, rollouts see real hand: %v\n",
		s.SimsPerAction, s.Epsilon, s.BufferSize, s.MaxTurns, s.Seed, s.Batch, s.Abstraction, s.Resolver, s.RealHand)
	fmt.Fprintf(w, "  time:       %.1fs wall (%.1fs training, the rest evaluation), %.1fs CPU\n", s.WallSeconds, s.TrainSeconds, s.CPUSeconds)
	if m := s.Final; m != nil {
		fmt.Fprintf(w, "  infosets:   %d visited, max expected regret %.4f\n", m.Infosets, m.MaxExpectedRegret)
		if m.EvalGames > 0 {
			fmt.Fprintf(w, "  win rate (%d games per setting)    agent first   alternating\n", m.EvalGames)
			fmt.Fprintf(w, "    vs random                          %.3f         %.3f\n", m.WinRates.RandomFirst, m.WinRates.RandomAlternating)
			fmt.Fprintf(w, "    vs risk-aware                      %.3f         %.3f\n", m.WinRates.RiskAwareFirst, m.WinRates.RiskAwareAlternating)
		}
	}
	fmt.Fprintf(w, "  checkpoint: %s\n", s.Checkpoint)
	if s.Policy != "" {
		fmt.Fprintf(w, "  policy:     %s\n", s.Policy)
	}
	fmt.Fprintf(w, "  metrics:    %s\n", s.MetricsFile)
	for _, f := range s.Figures {
		fmt.Fprintf(w, "  figure:     %s\n", f)
	}
}
