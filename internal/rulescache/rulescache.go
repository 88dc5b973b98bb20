// Package rulescache keeps what is computed from a rules object for as
// long as that object lives: a cache keyed by the rules' address would
// keep every rules object a long-running server ever loaded.
package rulescache

import (
	"runtime"
	"sync"
	"weak"

	"github.com/gopoly/gopoly/monopoly"
)

// Cache holds one value per live rules object. Its zero value is ready.
type Cache[V any] struct {
	m sync.Map // weak.Pointer[monopoly.Rules] → *entry[V]
}

type entry[V any] struct {
	once sync.Once
	v    V
}

// Get returns the value of r, computing it on first use: callers at the
// same time share one computation. The value goes when r is collected.
func (c *Cache[V]) Get(r *monopoly.Rules, compute func(*monopoly.Rules) V) V {
	key := weak.Make(r)
	e, ok := c.m.Load(key)
	if !ok {
		var loaded bool
		if e, loaded = c.m.LoadOrStore(key, new(entry[V])); !loaded {
			runtime.AddCleanup(r, func(key weak.Pointer[monopoly.Rules]) { c.m.Delete(key) }, key)
		}
	}
	en := e.(*entry[V])
	en.once.Do(func() { en.v = compute(r) })
	return en.v
}

// Has reports whether the cache holds a value for r.
func (c *Cache[V]) Has(r *monopoly.Rules) bool {
	_, ok := c.m.Load(weak.Make(r))
	return ok
}
