package deal

import (
	"math"

	"github.com/gopoly/gopoly/stats"
)

// Discount is the factor applied to cumulative regrets before each new
// regret is added.
const Discount = 0.99

// Tables is the learner's state: for every information-set key, the
// discounted regret sums and counts per abstract action, the rolling
// buffer of recent policies (whose mean is the average policy), the
// number of policy updates and the counterfactual-reach counter. Keys are
// dense slots, so copying a Tables is a handful of slice copies.
type Tables struct {
	streaks int
	buffer  int

	regretSum []float64 // slot*NumAbstract + action
	regretN   []int64   // slot*NumAbstract + action
	buf       []float64 // (slot*buffer + i)*NumAbstract + action, a ring
	bufLen    []int32
	bufHead   []int32 // next position written in the ring
	avg       []float64
	updates   []int64 // policy updates (buffer appends)
	visits    []int64 // regret updates
	reach     []float64
}

// uniformOf[i] is the uniform policy over the i-th possible action set.
var uniformOf [masksPerKey][NumAbstract]float64

func init() {
	for i, m := range maskOfIndex {
		n := float64(m.Count())
		for a := Abstract(0); a < NumAbstract; a++ {
			if m.Has(a) {
				uniformOf[i][a] = 1 / n
			}
		}
	}
}

// NewTables returns empty tables for games with the given plays per
// streak and a policy buffer of the given size.
func NewTables(playsPerStreak, buffer int) *Tables {
	n := 2 * playsPerStreak * masksPerKey
	return &Tables{
		streaks:   playsPerStreak,
		buffer:    buffer,
		regretSum: make([]float64, n*NumAbstract),
		regretN:   make([]int64, n*NumAbstract),
		buf:       make([]float64, n*buffer*NumAbstract),
		bufLen:    make([]int32, n),
		bufHead:   make([]int32, n),
		avg:       make([]float64, n*NumAbstract),
		updates:   make([]int64, n),
		visits:    make([]int64, n),
		reach:     make([]float64, n),
	}
}

// Slots is the number of possible keys (288 for the paper's game).
func (t *Tables) Slots() int { return len(t.bufLen) }

// BufferSize is the policy buffer's capacity.
func (t *Tables) BufferSize() int { return t.buffer }

// CopyFrom makes t an exact copy of src (same shape) without allocating.
func (t *Tables) CopyFrom(src *Tables) {
	copy(t.regretSum, src.regretSum)
	copy(t.regretN, src.regretN)
	copy(t.buf, src.buf)
	copy(t.bufLen, src.bufLen)
	copy(t.bufHead, src.bufHead)
	copy(t.avg, src.avg)
	copy(t.updates, src.updates)
	copy(t.visits, src.visits)
	copy(t.reach, src.reach)
}

// Clone returns an independent copy.
func (t *Tables) Clone() *Tables {
	c := NewTables(t.streaks, t.buffer)
	c.CopyFrom(t)
	return c
}

// Slot returns the dense index of a key.
func (t *Tables) Slot(is InfoSet) int {
	return (int(is.Player)*t.streaks+int(is.Streak))*masksPerKey + int(maskIndex[is.Mask])
}

// Key returns the key of a slot.
func (t *Tables) Key(slot int) InfoSet {
	ps := slot / masksPerKey
	return InfoSet{Player: uint8(ps / t.streaks), Streak: uint8(ps % t.streaks), Mask: maskOfIndex[slot%masksPerKey]}
}

func vec(s []float64, i int) *[NumAbstract]float64 {
	return (*[NumAbstract]float64)(s[i*NumAbstract : (i+1)*NumAbstract])
}

// Latest returns the newest policy of a slot, or the uniform policy over
// its actions when it has none.
func (t *Tables) Latest(slot int) *[NumAbstract]float64 {
	n := int(t.bufLen[slot])
	if n == 0 {
		return &uniformOf[slot%masksPerKey]
	}
	i := (int(t.bufHead[slot]) + t.buffer - 1) % t.buffer
	return vec(t.buf, slot*t.buffer+i)
}

// Average returns the mean of a slot's policy buffer, or the uniform
// policy when the buffer is empty.
func (t *Tables) Average(slot int) *[NumAbstract]float64 {
	if t.bufLen[slot] == 0 {
		return &uniformOf[slot%masksPerKey]
	}
	return vec(t.avg, slot)
}

// HasPolicy reports whether a slot's buffer holds any policy.
func (t *Tables) HasPolicy(slot int) bool { return t.bufLen[slot] > 0 }

// Visits is the number of regret updates of a slot.
func (t *Tables) Visits(slot int) int64 { return t.visits[slot] }

// Updates is the number of policy updates of a slot.
func (t *Tables) Updates(slot int) int64 { return t.updates[slot] }

// Regret returns a slot's discounted regret sum and count for action a.
func (t *Tables) Regret(slot int, a Abstract) (sum float64, n int64) {
	return t.regretSum[slot*NumAbstract+int(a)], t.regretN[slot*NumAbstract+int(a)]
}

// Reach returns a slot's accumulated counterfactual reach probability.
func (t *Tables) Reach(slot int) float64 { return t.reach[slot] }

// Buffer returns a slot's policies, oldest first.
func (t *Tables) Buffer(slot int) [][NumAbstract]float64 {
	n := int(t.bufLen[slot])
	out := make([][NumAbstract]float64, n)
	start := (int(t.bufHead[slot]) - n + t.buffer) % t.buffer
	for i := range out {
		out[i] = *vec(t.buf, slot*t.buffer+(start+i)%t.buffer)
	}
	return out
}

// Update applies one regret observation to a slot: discount and add the
// regrets of its actions, count the visit, add the reach, then regret-match
// with the clamps and, if some action has positive weight, push the
// normalised policy into the buffer.
func (t *Tables) Update(slot int, regret *[NumAbstract]float64, reach float64) {
	m := maskOfIndex[slot%masksPerKey]
	t.visits[slot]++
	t.reach[slot] += reach
	sum := vec(t.regretSum, slot)
	n := t.regretN[slot*NumAbstract : (slot+1)*NumAbstract]
	var p [NumAbstract]float64
	cardPositive := false
	for a := Abstract(0); a < NumAbstract; a++ {
		if !m.Has(a) {
			continue
		}
		sum[a] = Discount*sum[a] + regret[a]
		n[a]++
		if sum[a] > 0 && a != Other {
			p[a] = sum[a]
			cardPositive = cardPositive || a.IsCardPlay()
		}
	}
	if cardPositive {
		// Passive moves only when no card play is worth anything.
		p[Pass], p[Yield] = 0, 0
	}
	total := 0.0
	for _, x := range p {
		total += x
	}
	if !(total > 0) {
		return
	}
	for a := range p {
		p[a] /= total
	}
	t.push(slot, &p)
}

// push appends a policy to a slot's ring and refreshes its average.
func (t *Tables) push(slot int, p *[NumAbstract]float64) {
	head := int(t.bufHead[slot])
	*vec(t.buf, slot*t.buffer+head) = *p
	t.bufHead[slot] = int32((head + 1) % t.buffer)
	if int(t.bufLen[slot]) < t.buffer {
		t.bufLen[slot]++
	}
	t.updates[slot]++
	t.refreshAverage(slot)
}

// refreshAverage recomputes the mean from scratch, oldest first, so that
// tables restored from a checkpoint average bit-for-bit like the original.
func (t *Tables) refreshAverage(slot int) {
	n := int(t.bufLen[slot])
	avg := vec(t.avg, slot)
	*avg = [NumAbstract]float64{}
	start := (int(t.bufHead[slot]) - n + t.buffer) % t.buffer
	for i := 0; i < n; i++ {
		p := vec(t.buf, slot*t.buffer+(start+i)%t.buffer)
		for a := range avg {
			avg[a] += p[a]
		}
	}
	for a := range avg {
		avg[a] /= float64(n)
	}
}

// Visited lists the slots with at least one regret update.
func (t *Tables) Visited() []int {
	var out []int
	for s, v := range t.visits {
		if v > 0 {
			out = append(out, s)
		}
	}
	return out
}

// MaxExpectedRegret is the reach-weighted mean, over visited keys, of the
// largest mean regret (discounted sum / count) among the key's actions.
func (t *Tables) MaxExpectedRegret() float64 {
	num, den := 0.0, 0.0
	for _, s := range t.Visited() {
		m := maskOfIndex[s%masksPerKey]
		best := math.Inf(-1)
		for _, a := range m.Actions() {
			sum, n := t.Regret(s, a)
			if n > 0 {
				best = max(best, sum/float64(n))
			}
		}
		num += best * t.reach[s]
		den += t.reach[s]
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// UpdateQuantiles returns the 0, 25, 50, 75 and 100th percentiles of the
// policy-update counts over visited keys.
func (t *Tables) UpdateQuantiles() [5]float64 {
	var xs []float64
	for _, s := range t.Visited() {
		xs = append(xs, float64(t.updates[s]))
	}
	var q [5]float64
	for i, f := range []float64{0, 0.25, 0.5, 0.75, 1} {
		q[i] = stats.Quantile(xs, f)
	}
	return q
}

// MedianProbabilities returns, for each abstract action, the median of its
// average-policy probability over the keys where it has positive mass
// (NaN when there is none).
func (t *Tables) MedianProbabilities() [NumAbstract]float64 {
	var per [NumAbstract][]float64
	for s := range t.bufLen {
		if t.bufLen[s] == 0 {
			continue
		}
		for a, p := range t.Average(s) {
			if p > 0 {
				per[a] = append(per[a], p)
			}
		}
	}
	var out [NumAbstract]float64
	for a := range out {
		out[a] = math.NaN()
		if len(per[a]) > 0 {
			out[a] = stats.Median(per[a])
		}
	}
	return out
}
