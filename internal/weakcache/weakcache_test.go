package weakcache

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

// rules stands for the rules objects the cache serves: a fresh one per
// call, so that each has its own address.
type rules struct{ Squares []string }

func newRules() *rules { return &rules{Squares: make([]string, 40)} }

// TestOncePerRules: concurrent first uses compute once; other rules get
// their own value.
func TestOncePerRules(t *testing.T) {
	var c Cache[rules, int]
	var calls atomic.Int32
	compute := func(r *rules) int { calls.Add(1); return len(r.Squares) + int(calls.Load())*1000 }
	r1, r2 := newRules(), newRules()
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
	var c Cache[rules, []string]
	var key weak.Pointer[rules]
	func() {
		r := newRules()
		c.Get(r, func(r *rules) []string { return make([]string, len(r.Squares)) })
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
