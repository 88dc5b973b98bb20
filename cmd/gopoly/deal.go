package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/deal"
)

// newDealCmd returns the deal command, which groups the Monopoly Deal
// subcommands.
func newDealCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "deal",
		Short: "Two-player Monopoly Deal: train, evaluate and play a CFR agent",
		Long: `Two-player Monopoly Deal as in the paper "Monopoly Deal: A Benchmark
Environment for Bounded One-Sided Response Games": a Monte Carlo CFR
trainer over the intent abstraction, two baselines (random and
risk-aware), evaluation in both start settings, a terminal game against a
trained agent, and an engine benchmark.`,
	}
	cmd.AddCommand(newDealTrainCmd(), newDealEvalCmd(), newDealPlayCmd(), newDealBenchCmd())
	return cmd
}

// dealConfig returns the game configuration from --config (a JSON file)
// or --preset. Problems are bad input.
func dealConfig(preset, path string) (deal.Config, error) {
	if path == "" {
		cfg, err := deal.Preset(preset)
		if err != nil {
			return cfg, usageErr(err)
		}
		return cfg, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return deal.Config{}, usageErr(fmt.Errorf("deal: %w", err))
	}
	var cfg deal.Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, usageErr(fmt.Errorf("deal: config %s: %w", path, err))
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageErr(fmt.Errorf("%w (file %s)", err, path))
	}
	return cfg, nil
}

// dealAgent resolves --policy: a checkpoint file, or one of the names
// "bundled" for the bundled trained policy, "untrained", "random" and
// "risk-aware" for reference agents (under --preset). It returns the
// seat and the rules to play (the checkpoint's, or the preset's).
func dealAgent(policy, preset string) (deal.Seat, *deal.Rules, error) {
	cfg, err := dealConfig(preset, "")
	if err != nil {
		return deal.Seat{}, nil, err
	}
	seat, rules, err := deal.NewAgent(policy, cfg, func(path string) (string, error) {
		if path == "" {
			return "", fmt.Errorf("deal: --policy is required")
		}
		return path, nil
	})
	// The bundled policy failing to load is gopoly's fault, not the
	// command line's.
	if err != nil && policy != "bundled" {
		err = usageErr(err)
	}
	return seat, rules, err
}
