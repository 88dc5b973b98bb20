package rulescache

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/gopoly/gopoly/monopoly"
)

func newRules(t *testing.T) *monopoly.Rules {
	r, err := monopoly.DefaultRules().WithOverrides("test", []byte("max_rounds: 7"))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestOncePerRules: concurrent first uses compute once; other rules get
// their own value.
func TestOncePerRules(t *testing.T) {
	var c Cache[int]
	var calls atomic.Int32
	compute := func(r *monopoly.Rules) int { calls.Add(1); return len(r.Squares) + int(calls.Load())*1000 }
	r1, r2 := newRules(t), newRules(t)
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Go(func() { got[i] = c.Get(r1, compute) })
	}
	wg.Wait()
	for _, v := range got {
		if v != got[0] {
			t.Fatalf("values %v", got)
		}
	}
	if v := c.Get(r2, compute); v == got[0] || calls.Load() != 2 {
		t.Errorf("second rules: %d (first %d), %d computations", v, got[0], calls.Load())
	}
}

// TestForgets: the value goes once its rules are collected.
func TestForgets(t *testing.T) {
	var c Cache[[]string]
	var key weak.Pointer[monopoly.Rules]
	func() {
		r := newRules(t)
		c.Get(r, func(r *monopoly.Rules) []string { return make([]string, len(r.Squares)) })
		if !c.Has(r) {
			t.Fatal("not cached")
		}
		key = weak.Make(r)
	}()
	for range 50 {
		runtime.GC()
		if _, ok := c.m.Load(key); !ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Error("the value of collected rules is still cached")
}
