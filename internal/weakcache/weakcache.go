// Package weakcache keeps what is computed from an object for as long as
// that object lives: a cache keyed by the object's address would keep
// every object a long-running server ever loaded (rules objects, above
// all, which every game of a server may bring its own of).
package weakcache

import (
	"runtime"
	"sync"
	"weak"
)

// Cache holds one value per live *K. Its zero value is ready.
type Cache[K, V any] struct {
	m sync.Map // weak.Pointer[K] → *entry[V]
}

type entry[V any] struct {
	once sync.Once
	v    V
}

// Get returns the value of k, computing it on first use: callers at the
// same time share one computation. The value goes when k is collected.
func (c *Cache[K, V]) Get(k *K, compute func(*K) V) V {
	key := weak.Make(k)
	e, ok := c.m.Load(key)
	if !ok {
		var loaded bool
		if e, loaded = c.m.LoadOrStore(key, new(entry[V])); !loaded {
			runtime.AddCleanup(k, func(key weak.Pointer[K]) { c.m.Delete(key) }, key)
		}
	}
	en := e.(*entry[V])
	en.once.Do(func() { en.v = compute(k) })
	return en.v
}

// Has reports whether the cache holds a value for k.
func (c *Cache[K, V]) Has(k *K) bool {
	_, ok := c.m.Load(weak.Make(k))
	return ok
}
