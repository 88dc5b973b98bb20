package deal

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// Mode is how training games are spread over the cores.
type Mode uint8

// Parallelism modes.
const (
	// BatchOrdered plays a batch of games on one snapshot of the tables,
	// then applies their updates in game order: deterministic whatever
	// the number of workers. The default.
	BatchOrdered Mode = iota
	// Sequential plays one game at a time, each seeing all earlier
	// updates; the rollouts of each decision are spread over the workers.
	Sequential
	// Unordered starts a game whenever a worker is free, on the tables
	// as they are, and applies its updates when it ends: fastest, not
	// deterministic.
	Unordered
)

// String returns the mode's flag value.
func (m Mode) String() string {
	switch m {
	case Sequential:
		return "sequential"
	case Unordered:
		return "unordered"
	}
	return "batch-ordered"
}

// ParseMode reads "sequential", "batch-ordered" or "unordered".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "sequential", "none":
		return Sequential, nil
	case "batch-ordered", "":
		return BatchOrdered, nil
	case "unordered":
		return Unordered, nil
	}
	return 0, fmt.Errorf("deal: unknown mode %q (want sequential, batch-ordered or unordered)", s)
}

// Params are the training parameters stored in checkpoints; a resumed
// run keeps them.
type Params struct {
	Sims     int      // rollouts per action (paper: 20)
	Epsilon  float64  // exploration rate of the real game (paper: 0.1)
	Buffer   int      // policies kept per key (paper: 10)
	Seed     uint64   // run seed: training game i uses Seed+i
	RealHand bool     // rollouts see the opponent's real hand (paper); false resamples it
	Resolver Resolver // the learner's resolver (paper: Greedy)
	Batch    int      // games per batch in batch-ordered mode
	// Abstraction keys the tables (paper: Intent).
	Abstraction Abstraction
}

// DefaultParams returns the paper's settings.
func DefaultParams() Params {
	return Params{Sims: 20, Epsilon: 0.1, Buffer: 10, Seed: 1, RealHand: true, Resolver: Greedy, Batch: 8}
}

func (p Params) validate() error {
	switch {
	case p.Sims < 1:
		return fmt.Errorf("deal: sims must be at least 1, got %d", p.Sims)
	case !(p.Epsilon >= 0 && p.Epsilon <= 1):
		return fmt.Errorf("deal: epsilon must be in [0, 1], got %v", p.Epsilon)
	case p.Buffer < 1 || p.Buffer > 1000:
		return fmt.Errorf("deal: buffer must be 1..1000, got %d", p.Buffer)
	case p.Batch < 1:
		return fmt.Errorf("deal: batch must be at least 1, got %d", p.Batch)
	}
	return nil
}

// Trainer runs the paper's Monte Carlo CFR with action-based rollouts.
type Trainer struct {
	rules  *Rules
	params Params
	tab    *Tables
	done   int

	// Mode and Workers may be changed between calls to Run.
	Mode    Mode
	Workers int
}

// NewTrainer starts training from empty tables.
func NewTrainer(cfg Config, p Params) (*Trainer, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	r, err := NewRules(cfg)
	if err != nil {
		return nil, err
	}
	return &Trainer{rules: r, params: p, tab: NewTablesOf(p.Abstraction, r.PlaysPerStreak(), p.Buffer), Workers: runtime.NumCPU()}, nil
}

// Rules returns the game rules being trained on.
func (t *Trainer) Rules() *Rules { return t.rules }

// Params returns the training parameters.
func (t *Trainer) Params() Params { return t.params }

// Done is the number of training games applied so far.
func (t *Trainer) Done() int { return t.done }

// Tables returns the learner's tables; they must not be modified while
// Run is running.
func (t *Trainer) Tables() *Tables { return t.tab }

// Policy snapshots the current average policy as a playable agent.
func (t *Trainer) Policy() *Policy { return NewPolicy(t.tab, t.params.Resolver) }

// event is one regret observation of a training game, replayed on the
// shared tables in game order. It names the key by number: a key met
// for the first time has a slot in the worker's copy that the shared
// tables give out only when the event is replayed.
type event struct {
	key    int32
	reach  float64
	regret [NumAbstract]float64
}

// Random streams derived from a training game's seed.
const (
	streamTrain    = 0xbb67ae8584caa73b
	streamDecision = 0x3c6ef372fe94f82b
	streamRollout  = 0xa54ff53a5f1d36f1
	streamMetrics  = 0x510e527fade682d1
)

// worker plays training games on a private copy of the tables.
type worker struct {
	t       *Trainer
	tab     *Tables
	events  []event
	helpers int // extra goroutines for the rollouts of one decision
	synced  bool
	base    uint64 // the shared tables' version when last synced
}

// sync makes the worker's tables a copy of the shared ones. Within a
// batch the shared tables do not change, so undoing the last game's
// updates is enough; the Situation tables hold thousands of keys, and a
// full copy per game would cost more than a tenth of training.
func (w *worker) sync() {
	if w.synced && w.base == w.t.tab.version {
		w.tab.revert(w.t.tab)
		return
	}
	w.tab.CopyFrom(w.t.tab)
	w.synced, w.base = true, w.t.tab.version
}

func (t *Trainer) newWorker(helpers int) *worker {
	return &worker{t: t, tab: NewTablesOf(t.params.Abstraction, t.rules.PlaysPerStreak(), t.params.Buffer), helpers: helpers}
}

// play runs training game i on w.tab, recording its regret updates in
// w.events (which it also applies to w.tab as it goes).
func (w *worker) play(i int) Result {
	p := &w.t.params
	seed := p.Seed + uint64(i)
	g := New(w.t.rules, seed, i&1)
	var rng rand.PCG
	rng.Seed(seed, streamTrain)
	reach := [2]float64{1, 1}
	w.events = w.events[:0]
	for d := uint64(0); !g.Over(); d++ {
		is := g.Key(p.Abstraction)
		key := w.tab.keyNumber(is)
		slot := w.tab.Slot(is)
		me := int(is.Player)
		m := is.Mask
		ev := event{key: int32(key), reach: reach[me]}
		if m.Count() > 1 {
			policy := *w.tab.Latest(slot)
			var value [NumAbstract]float64
			w.values(&g, me, m, Mix(seed^streamDecision)+d, &value)
			expected := 0.0
			for a := range value {
				expected += policy[a] * value[a]
			}
			for a := Abstract(0); a < NumAbstract; a++ {
				if m.Has(a) {
					ev.regret[a] = value[a] - expected
				}
			}
		}
		w.events = append(w.events, ev)
		w.tab.Update(slot, &ev.regret, ev.reach)

		latest := w.tab.Latest(slot)
		n := m.Count()
		var ab Abstract
		if float01(&rng) < p.Epsilon {
			ab = m.Nth(intn(&rng, n))
		} else {
			ab = sample(latest, m, &rng)
		}
		reach[1-me] *= p.Epsilon/float64(n) + (1-p.Epsilon)*latest[ab]
		a, _ := g.Resolve(ab, p.Resolver)
		g.apply(a)
	}
	return g.Result()
}

// values estimates each available action's value for player me by the
// mean utility of Sims rollouts after it. Rollout k of the j-th action
// draws from its own seed, so the estimate does not depend on how the
// rollouts are spread over goroutines.
func (w *worker) values(g *Game, me int, m Mask, dseed uint64, out *[NumAbstract]float64) {
	sims := w.t.params.Sims
	var acts [NumAbstract]Action
	var abs [NumAbstract]Abstract
	n := 0
	for x := m; x != 0; x &= x - 1 {
		ab := Abstract(trailing(x))
		acts[n], _ = g.Resolve(ab, w.t.params.Resolver)
		abs[n] = ab
		n++
	}
	tasks := n * sims
	run := func(part, parts int, sum *[NumAbstract]int) {
		for k := part; k < tasks; k += parts {
			j := k / sims
			sum[j] += w.rollout(g, me, acts[j], Mix(dseed*uint64(NumAbstract*sims+1)+uint64(k)))
		}
	}
	var sum [NumAbstract]int
	if w.helpers == 0 || tasks < 4 {
		run(0, 1, &sum)
	} else {
		parts := w.helpers + 1
		sums := make([][NumAbstract]int, parts)
		var wg sync.WaitGroup
		for h := 1; h < parts; h++ {
			wg.Go(func() { run(h, parts, &sums[h]) })
		}
		run(0, parts, &sums[0])
		wg.Wait()
		for _, s := range sums {
			for j := range sum {
				sum[j] += s[j]
			}
		}
	}
	for j := 0; j < n; j++ {
		out[abs[j]] = float64(sum[j]) / float64(sims)
	}
}

// rollout plays one simulated future after action a by player me and
// returns me's utility. Me follows its latest policies, the opponent its
// average policies (uniform where a key was never updated).
func (w *worker) rollout(g *Game, me int, a Action, seed uint64) int {
	c := *g
	c.Reseed(seed)
	if !w.t.params.RealHand {
		c.ResampleHidden(me)
	}
	c.apply(a)
	var rng rand.PCG
	rng.Seed(seed, streamRollout)
	tab := w.tab
	res := w.t.params.Resolver
	situation := w.t.params.Abstraction == Situation
	for c.phase != PhaseOver {
		is := c.InfoSet()
		ab := is.Mask.Nth(0)
		if is.Mask&(is.Mask-1) != 0 {
			if situation {
				is.Feature = c.situationOf(int(is.Player))
			}
			pol := &uniformOf[maskIndex[is.Mask]]
			if slot := tab.find(tab.keyNumber(is)); slot >= 0 {
				if int(is.Player) == me {
					pol = tab.Latest(slot)
				} else {
					pol = tab.Average(slot)
				}
			}
			ab = sample(pol, is.Mask, &rng)
		}
		act, _ := c.Resolve(ab, res)
		c.apply(act)
	}
	return c.Result().Utility(me)
}

// apply replays a finished game's updates on the shared tables.
func (t *Trainer) apply(events []event) {
	for i := range events {
		e := &events[i]
		t.tab.Update(t.tab.slotFor(int(e.key)), &e.regret, e.reach)
	}
}

// AfterFunc is called by Run whenever games were applied, with the number
// done before and after; the tables are consistent and quiescent during
// the call. An error stops training.
type AfterFunc func(prev, done int) error

// Run trains until `until` games are done (counting those done before),
// calling after as games complete (after each batch in batch-ordered
// mode, each game otherwise). It stops early, at a batch boundary, when
// ctx is cancelled.
func (t *Trainer) Run(ctx context.Context, until int, after AfterFunc) error {
	if after == nil {
		after = func(int, int) error { return nil }
	}
	workers := t.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	switch t.Mode {
	case Sequential:
		return t.runBatches(ctx, until, 1, 1, workers-1, after)
	case Unordered:
		return t.runUnordered(ctx, until, workers, after)
	}
	return t.runBatches(ctx, until, t.params.Batch, workers, 0, after)
}

// runBatches plays aligned windows [kB, (k+1)B) of game indices on a
// snapshot, then applies their updates in index order.
func (t *Trainer) runBatches(ctx context.Context, until, batch, workers, helpers int, after AfterFunc) error {
	pool := make([]*worker, workers)
	for i := range pool {
		pool[i] = t.newWorker(helpers)
	}
	for t.done < until {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := t.done
		end := min(until, (start/batch+1)*batch)
		results := make([][]event, end-start)
		var next atomic.Int64
		next.Store(int64(start))
		var wg sync.WaitGroup
		for _, w := range pool[:min(workers, end-start)] {
			wg.Go(func() {
				for {
					i := int(next.Add(1) - 1)
					if i >= end {
						return
					}
					w.sync()
					w.play(i)
					results[i-start] = append([]event(nil), w.events...)
				}
			})
		}
		wg.Wait()
		for _, ev := range results {
			t.apply(ev)
		}
		t.done = end
		if err := after(start, end); err != nil {
			return err
		}
	}
	return nil
}

// runUnordered lets every worker start a new game as soon as it is free
// and apply its updates as soon as it ends.
func (t *Trainer) runUnordered(ctx context.Context, until, workers int, after AfterFunc) error {
	var mu sync.Mutex
	next := t.done
	var firstErr error
	var wg sync.WaitGroup
	for range workers {
		w := t.newWorker(0)
		wg.Go(func() {
			for {
				mu.Lock()
				if next >= until || firstErr != nil || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				i := next
				next++
				w.sync()
				mu.Unlock()
				w.play(i)
				mu.Lock()
				t.apply(w.events)
				t.done++
				if firstErr == nil {
					if err := after(t.done-1, t.done); err != nil {
						firstErr = err
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
