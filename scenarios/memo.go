package scenarios

import "sync"

// memo keeps the values of a function of an order k (a moment's sum, a
// sup-outside value), safe for concurrent use: get reads the value kept
// for k, put keeps one while fewer than max are kept — past them a value
// is computed again at each call, so that orders asked without end (a
// profile read at every order a user types) cannot grow it. Two callers
// that miss the same k both compute it (the value is a function of k:
// either is the one kept). The zero memo is empty.
type memo[V any] struct {
	mu sync.Mutex
	m  map[float64]V
}

// get is the value kept for k, and whether there is one.
func (c *memo[V]) get(k float64) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// put keeps v for k where fewer than max values are kept (a value kept
// for k stays).
func (c *memo[V]) put(k float64, v V, max int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[float64]V{}
	}
	if _, ok := c.m[k]; !ok && len(c.m) < max {
		c.m[k] = v
	}
}
