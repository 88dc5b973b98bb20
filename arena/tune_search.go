package arena

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// search is gonum's CMA-ES (optimize.CmaEsChol) asked for one generation
// of candidates at a time and told their values all together.
//
// optimize.Minimize would call the objective once per candidate, from
// as many goroutines, without saying which of the generation's samples
// it is. A tuning run plays a whole generation as one experiment, its
// candidates numbered in the order CMA-ES drew them so that the files it
// writes do not depend on timing; so it speaks the protocol of
// optimize.Method.Run itself, in Minimize's place: the method sends a
// generation's evaluation tasks (their IDs are the samples' numbers),
// takes their results back, updates its distribution and sends a major
// iteration, which sent back has it draw the next generation.
//
// What CMA-ES draws depends only on its seed and the values it was
// told, so a run that stopped is resumed by telling a new search the
// values of the generations played: it draws the same candidates again.
type search struct {
	ops, res  chan optimize.Task
	pending   []optimize.Task
	converged bool
}

// defaultPopulation is CMA-ES's own population for dim dimensions.
func defaultPopulation(dim int) int {
	var cma optimize.CmaEsChol
	return cma.Init(dim, math.MaxInt)
}

// newSearch starts CMA-ES at x0 with pop candidates a generation, the
// initial step size step, its samples drawn from seed.
func newSearch(x0 []float64, pop int, step float64, seed uint64) *search {
	// CmaEsChol draws its samples from N(mean, A), A starting at
	// InitCholesky: that sets the first generation's spread, step in
	// every knob. Its step size only scales the updates of A; at 1 they
	// are CMA-ES's own for a distribution whose covariance is A.
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewDiagDense(len(x0), slices.Repeat([]float64{step * step}, len(x0)))) {
		panic("arena: a positive diagonal does not factorise")
	}
	cma := &optimize.CmaEsChol{InitStepSize: 1, InitCholesky: &chol, Population: pop, Src: rand.NewPCG(seed, 0xc3a5_c85c_97cb_3127)}
	n := cma.Init(len(x0), pop)
	s := &search{ops: make(chan optimize.Task, n), res: make(chan optimize.Task, n), pending: make([]optimize.Task, n)}
	tasks := make([]optimize.Task, n)
	for i := range tasks {
		tasks[i].Location = &optimize.Location{X: make([]float64, len(x0))}
	}
	copy(tasks[0].X, x0) // the mean of the first generation
	go cma.Run(s.ops, s.res, tasks)
	return s
}

// ask returns the candidates of the next generation, in the order drawn,
// or nil once CMA-ES has converged (its distribution shrunk to a point).
func (s *search) ask() [][]float64 {
	if s.converged {
		return nil
	}
	xs := make([][]float64, len(s.pending))
	for range s.pending {
		t := <-s.ops
		if t.Op != optimize.FuncEvaluation {
			panic("arena: CMA-ES sent " + t.Op.String() + " where a generation's candidates were due")
		}
		s.pending[t.ID] = t
		xs[t.ID] = slices.Clone(t.X)
	}
	return xs
}

// tell gives CMA-ES the values of the candidates ask returned (lower is
// better) and waits for it to update its distribution.
func (s *search) tell(f []float64) {
	for i, t := range s.pending {
		t.F = f[i]
		s.res <- t
	}
	switch t := <-s.ops; t.Op {
	case optimize.MajorIteration:
		s.res <- t // on to the next generation
	case optimize.MethodDone:
		s.converged = true
	default:
		panic("arena: CMA-ES sent " + t.Op.String() + " after a generation's values")
	}
}

// stop ends the search, as Minimize ends a method's run: a
// PostIteration, then the results channel closed, and what the method
// still sends is read until it closes its own.
func (s *search) stop() {
	s.res <- optimize.Task{Op: optimize.PostIteration}
	close(s.res)
	for range s.ops {
	}
}
