package tui

import (
	"testing"

	"dpso/internal/engine"
)

// TestPrescCacheLRU: the cache keeps the most recently used prescriptions:
// a hit protects its key from the next eviction.
func TestPrescCacheLRU(t *testing.T) {
	c := newPrescCache(2)
	a, b, d := &engine.Prescription{Solver: "a"}, &engine.Prescription{Solver: "b"}, &engine.Prescription{Solver: "d"}
	c.put("a", a)
	c.put("b", b)
	if p, ok := c.get("a"); !ok || p != a { // a is now the most recent
		t.Fatal("a missing")
	}
	c.put("d", d) // evicts b, the least recently used
	if _, ok := c.get("b"); ok {
		t.Error("b survived although it was the least recently used")
	}
	if _, ok := c.get("a"); !ok {
		t.Error("a was evicted although it was used after b")
	}
	if p, ok := c.get("d"); !ok || p != d {
		t.Error("d missing")
	}
	c.put("d", a) // a put of a present key replaces its value, evicts nothing
	if p, _ := c.get("d"); p != a || len(c.m) != 2 || len(c.order) != 2 {
		t.Errorf("after replacing d: %d entries, order %v", len(c.m), c.order)
	}
}
