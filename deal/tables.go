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
// number of policy updates and the counterfactual-reach counter. A key
// gets a dense slot the first time it is updated (the paper's 288 intent
// keys have theirs from the start, in key order), so copying a Tables is
// a handful of slice copies sized by the keys met, not by the keys that
// could exist.
type Tables struct {
	keyspace
	buffer int

	slotOf []int32 // key number (see keyNumber) → slot, -1 for none yet
	keyOf  []int32 // slot → key number

	regretSum []float64 // slot*NumAbstract + action
	regretN   []int64   // slot*NumAbstract + action
	buf       []float64 // (slot*buffer + i)*NumAbstract + action, a ring
	bufLen    []int32
	bufHead   []int32 // next position written in the ring
	avg       []float64
	updates   []int64 // policy updates (buffer appends)
	visits    []int64 // regret updates
	reach     []float64

	// version counts the changes of the tables. Tables made by CopyFrom
	// list in changed the slots updated since, so that revert copies back
	// those alone.
	version uint64
	copied  bool
	changed []int32
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

// NewTables returns empty tables of the paper's intent abstraction for
// games with the given plays per streak and a policy buffer of the given
// size.
func NewTables(playsPerStreak, buffer int) *Tables {
	return NewTablesOf(Intent, playsPerStreak, buffer)
}

// NewTablesOf returns empty tables keyed by abstraction a.
func NewTablesOf(a Abstraction, playsPerStreak, buffer int) *Tables {
	t := &Tables{keyspace: keyspace{abs: a, streaks: playsPerStreak, space: a.featureSpace()}, buffer: buffer}
	t.slotOf = make([]int32, t.keys())
	for i := range t.slotOf {
		t.slotOf[i] = -1
	}
	if a == Intent {
		for k := range t.slotOf {
			t.alloc(k)
		}
	}
	return t
}

// Abstraction is the abstraction the tables are keyed by.
func (t *Tables) Abstraction() Abstraction { return t.abs }

// Slots is the number of keys with a slot (all 288 of the paper's game
// under the intent abstraction).
func (t *Tables) Slots() int { return len(t.keyOf) }

// BufferSize is the policy buffer's capacity.
func (t *Tables) BufferSize() int { return t.buffer }

// alloc gives key number k the next slot, zeroed.
func (t *Tables) alloc(k int) int {
	s := len(t.keyOf)
	t.version++
	t.slotOf[k] = int32(s)
	t.keyOf = append(t.keyOf, int32(k))
	var zero [NumAbstract]float64
	t.regretSum = append(t.regretSum, zero[:]...)
	t.regretN = append(t.regretN, make([]int64, NumAbstract)...)
	for range t.buffer {
		t.buf = append(t.buf, zero[:]...)
	}
	t.bufLen = append(t.bufLen, 0)
	t.bufHead = append(t.bufHead, 0)
	t.avg = append(t.avg, zero[:]...)
	t.updates = append(t.updates, 0)
	t.visits = append(t.visits, 0)
	t.reach = append(t.reach, 0)
	return s
}

// CopyFrom makes t an exact copy of src (same abstraction and shape),
// reusing t's memory.
func (t *Tables) CopyFrom(src *Tables) {
	t.keyspace, t.buffer = src.keyspace, src.buffer
	t.slotOf = append(t.slotOf[:0], src.slotOf...)
	t.keyOf = append(t.keyOf[:0], src.keyOf...)
	t.regretSum = append(t.regretSum[:0], src.regretSum...)
	t.regretN = append(t.regretN[:0], src.regretN...)
	t.buf = append(t.buf[:0], src.buf...)
	t.bufLen = append(t.bufLen[:0], src.bufLen...)
	t.bufHead = append(t.bufHead[:0], src.bufHead...)
	t.avg = append(t.avg[:0], src.avg...)
	t.updates = append(t.updates[:0], src.updates...)
	t.visits = append(t.visits[:0], src.visits...)
	t.reach = append(t.reach[:0], src.reach...)
	t.version = src.version
	t.copied = true
	t.changed = t.changed[:0]
}

// revert makes t an exact copy of src again, t having been copied from
// src (CopyFrom) and src not having changed since; only the slots t
// updated since are copied, and the keys t met are forgotten.
func (t *Tables) revert(src *Tables) {
	const n = NumAbstract
	for _, s := range t.changed {
		if int(s) >= src.Slots() {
			continue
		}
		copy(t.regretSum[s*n:(s+1)*n], src.regretSum[s*n:])
		copy(t.regretN[s*n:(s+1)*n], src.regretN[s*n:])
		b := int(s) * t.buffer * n
		copy(t.buf[b:b+t.buffer*n], src.buf[b:])
		copy(t.avg[s*n:(s+1)*n], src.avg[s*n:])
		t.bufLen[s], t.bufHead[s] = src.bufLen[s], src.bufHead[s]
		t.updates[s], t.visits[s], t.reach[s] = src.updates[s], src.visits[s], src.reach[s]
	}
	t.changed = t.changed[:0]
	m := src.Slots()
	for _, k := range t.keyOf[m:] {
		t.slotOf[k] = -1
	}
	t.keyOf = t.keyOf[:m]
	t.regretSum, t.regretN = t.regretSum[:m*n], t.regretN[:m*n]
	t.buf, t.avg = t.buf[:m*t.buffer*n], t.avg[:m*n]
	t.bufLen, t.bufHead = t.bufLen[:m], t.bufHead[:m]
	t.updates, t.visits, t.reach = t.updates[:m], t.visits[:m], t.reach[:m]
	t.version = src.version
}

// Clone returns an independent copy.
func (t *Tables) Clone() *Tables {
	c := &Tables{}
	c.CopyFrom(t)
	return c
}

// keyspace numbers the keys of an abstraction densely.
type keyspace struct {
	abs     Abstraction
	streaks int
	space   int // feature values per intent key
}

// keyNumber is the intent key's number in the paper's order, times the
// feature values, plus the feature.
func (t keyspace) keyNumber(is InfoSet) int {
	return ((int(is.Player)*t.streaks+int(is.Streak))*masksPerKey+int(maskIndex[is.Mask]))*t.space + int(is.Feature)
}

// keys is the number of keys.
func (t keyspace) keys() int { return 2 * t.streaks * masksPerKey * t.space }

// keyOfNumber inverts keyNumber.
func (t keyspace) keyOfNumber(k int) InfoSet {
	f := k % t.space
	k /= t.space
	ps := k / masksPerKey
	return InfoSet{Player: uint8(ps / t.streaks), Streak: uint8(ps % t.streaks), Mask: maskOfIndex[k%masksPerKey], Abs: t.abs, Feature: uint16(f)}
}

// Slot returns the dense index of a key, giving it one if it has none.
func (t *Tables) Slot(is InfoSet) int { return t.slotFor(t.keyNumber(is)) }

// slotFor returns the slot of key number k, giving it one if it has none.
func (t *Tables) slotFor(k int) int {
	if s := t.slotOf[k]; s >= 0 {
		return int(s)
	}
	return t.alloc(k)
}

// find returns the slot of key number k, or -1: the read-only lookup of
// rollouts, which must not grow the tables.
func (t *Tables) find(k int) int { return int(t.slotOf[k]) }

// Key returns the key of a slot.
func (t *Tables) Key(slot int) InfoSet { return t.keyOfNumber(int(t.keyOf[slot])) }

// maskSlot is the index of a slot's action set among the possible ones.
func (t *Tables) maskSlot(slot int) int { return int(t.keyOf[slot]) / t.space % masksPerKey }

func vec(s []float64, i int) *[NumAbstract]float64 {
	return (*[NumAbstract]float64)(s[i*NumAbstract : (i+1)*NumAbstract])
}

// Latest returns the newest policy of a slot, or the uniform policy over
// its actions when it has none.
func (t *Tables) Latest(slot int) *[NumAbstract]float64 {
	n := int(t.bufLen[slot])
	if n == 0 {
		return &uniformOf[t.maskSlot(slot)]
	}
	i := (int(t.bufHead[slot]) + t.buffer - 1) % t.buffer
	return vec(t.buf, slot*t.buffer+i)
}

// Average returns the mean of a slot's policy buffer, or the uniform
// policy when the buffer is empty.
func (t *Tables) Average(slot int) *[NumAbstract]float64 {
	if t.bufLen[slot] == 0 {
		return &uniformOf[t.maskSlot(slot)]
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
	m := maskOfIndex[t.maskSlot(slot)]
	t.version++
	if t.copied {
		t.changed = append(t.changed, int32(slot))
	}
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

// Visited lists the slots with at least one regret update, in key order
// (not the order the keys were met), so sums over them do not depend on
// whether the tables were trained or loaded.
func (t *Tables) Visited() []int {
	var out []int
	for _, s := range t.slotOf {
		if s >= 0 && t.visits[s] > 0 {
			out = append(out, int(s))
		}
	}
	return out
}

// MaxExpectedRegret is the reach-weighted mean, over visited keys, of the
// largest mean regret (discounted sum / count) among the key's actions.
func (t *Tables) MaxExpectedRegret() float64 {
	num, den := 0.0, 0.0
	for _, s := range t.Visited() {
		m := maskOfIndex[t.maskSlot(s)]
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
