package wire

import (
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/gopoly/gopoly/monopoly"
)

// TestSquareWordsForgetRules: the cache of squares' notation holds a
// rules object's words while it lives and lets go of them after; they
// are the words squareWord writes.
func TestSquareWordsForgetRules(t *testing.T) {
	var key weak.Pointer[monopoly.Rules]
	cached := func() bool { _, ok := squareWordCache.Load(key); return ok }
	func() {
		r, err := monopoly.DefaultRules().WithOverrides("test", []byte("max_rounds: 7"))
		if err != nil {
			t.Fatal(err)
		}
		for sq := range r.Squares {
			if got, want := (Notation{Rules: r}).square(sq), squareWord(r, sq); got != want {
				t.Errorf("square %d: %q, want %q", sq, got, want)
			}
		}
		if key = weak.Make(r); !cached() {
			t.Fatal("the rules' words are not cached")
		}
		runtime.KeepAlive(r)
	}()
	for range 50 {
		runtime.GC()
		if !cached() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Error("the words of collected rules are still cached")
}
