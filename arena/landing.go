package arena

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gopoly/gopoly/monopoly"
)

// JailPolicy is how the players of a landing measurement leave jail.
type JailPolicy uint8

// Jail policies.
const (
	// JailLeave uses a Get Out of Jail Free card when one is held, else
	// pays the fine, at the first chance (rolling for doubles only when
	// the fine cannot be paid).
	JailLeave JailPolicy = iota
	// JailStay always rolls for doubles, so the player leaves on doubles
	// or when the last failure forces the fine.
	JailStay
)

var jailPolicyNames = [...]string{"leave", "stay"}

// String returns the policy's name, as ParseJailPolicy reads it.
func (p JailPolicy) String() string {
	if int(p) < len(jailPolicyNames) {
		return jailPolicyNames[p]
	}
	return fmt.Sprintf("JailPolicy(%d)", p)
}

// ParseJailPolicy returns the policy named s ("leave" or "stay").
func ParseJailPolicy(s string) (JailPolicy, error) {
	for i, n := range jailPolicyNames {
		if n == s {
			return JailPolicy(i), nil
		}
	}
	return 0, fmt.Errorf("arena: jail policy %q: want leave or stay", s)
}

// LandingChunks is how many independent games a landing measurement is
// split into. It is fixed, not derived from the number of workers, so that
// the counts do not depend on how many workers play the chunks.
const LandingChunks = 64

// LandingConfig describes a landing measurement.
type LandingConfig struct {
	Rules   *monopoly.Rules
	Rolls   int64 // rolls to count in all
	Jail    JailPolicy
	Seed    uint64
	Workers int // 0: all cores
	// Progress, if not nil, is called with the rolls of each chunk as it
	// finishes (from any goroutine).
	Progress func(rolls int64)
}

// LandingResult counts where rolls ended.
type LandingResult struct {
	Rolls  int64
	Jail   JailPolicy
	Counts []int64 // per square; on the jail square, only rolls that ended just visiting
	InJail int64   // rolls that ended in jail
}

// Probability returns the fraction of all rolls that ended on square sq
// (just visiting, for the jail square).
func (r LandingResult) Probability(sq int) float64 {
	if r.Rolls == 0 {
		return 0
	}
	return float64(r.Counts[sq]) / float64(r.Rolls)
}

// InJailProbability returns the fraction of all rolls that ended in jail.
func (r LandingResult) InJailProbability() float64 {
	if r.Rolls == 0 {
		return 0
	}
	return float64(r.InJail) / float64(r.Rolls)
}

// Landing measures the long-run probability that a roll ends on each
// square, with the real engine and players that never buy, never bid and
// never trade, so that nothing but the dice, the cards and the jail policy
// moves them. Every roll resolution counts once: its final square, or in
// jail. The rolls are split into LandingChunks chunks, each played by its
// own games seeded from Seed and the chunk, so the result depends on
// Seed and Rolls only.
//
// A cancelled context stops the measurement once the chunks under way are
// done; Landing then returns the counts of the chunks finished before the
// first one not finished (their rolls in Rolls, a result that depends on
// Seed, Rolls and how many chunks they are) with the context's error.
func Landing(ctx context.Context, c LandingConfig) (LandingResult, error) {
	if c.Rules == nil {
		return LandingResult{}, fmt.Errorf("arena: landing needs rules")
	}
	if c.Rolls < 1 {
		return LandingResult{}, fmt.Errorf("arena: rolls must be at least 1")
	}
	if int(c.Jail) >= len(jailPolicyNames) {
		return LandingResult{}, fmt.Errorf("arena: unknown jail policy %d", c.Jail)
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, LandingChunks)
	nsq := len(c.Rules.Squares)
	type tally struct {
		rolls  int64 // 0: the chunk was not played
		counts []int64
		inJail int64
	}
	tallies := make([]tally, LandingChunks)
	var next atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= LandingChunks {
					return
				}
				quota := c.Rolls / LandingChunks
				if int64(i) < c.Rolls%LandingChunks {
					quota++
				}
				if quota == 0 {
					continue // fewer rolls than chunks
				}
				t := tally{rolls: quota, counts: make([]int64, nsq)}
				var err error
				t.inJail, err = monopoly.LandingCounts(c.Rules, c.Jail == JailLeave, GameSeed(c.Seed, i), quota, t.counts)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("arena: landing chunk %d: %w", i, err)
					}
					mu.Unlock()
					return
				}
				tallies[i] = t
				if c.Progress != nil {
					c.Progress(quota)
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return LandingResult{}, firstErr
	}
	res := LandingResult{Jail: c.Jail, Counts: make([]int64, nsq)}
	for i, t := range tallies {
		if t.rolls == 0 && int64(i) < c.Rolls {
			// Not played: stopped, and the chunks after it are not
			// counted either, so that the result is a prefix.
			return res, ctx.Err()
		}
		res.Rolls += t.rolls
		for sq, n := range t.counts {
			res.Counts[sq] += n
		}
		res.InJail += t.inJail
	}
	return res, nil
}
