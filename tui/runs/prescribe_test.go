package runs

import (
	"context"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/backend"
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

// TestPrescriberDropsStaleAnswers: a late answer to an older request is
// cached but not forwarded; the latest request's answer is.
func TestPrescriberDropsStaleAnswers(t *testing.T) {
	p := NewPrescriber(context.Background(), backend.Local{})
	rs, err := backend.Resolve(spec.Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, N: 10000, Trials: 3})
	if err != nil {
		t.Fatal(err)
	}
	ev, cmd := p.Request(rs)
	if pm, ok := ev.(PrescriptionMsg); !ok || !pm.Pending || cmd == nil {
		t.Fatalf("the first request: %#v, command %v", ev, cmd != nil)
	}
	done := cmd().(PrescDoneMsg)
	first, _ := p.Update(done).(PrescriptionMsg)
	if first.Prescription == nil || first.Key != PrescKey(rs) {
		t.Fatalf("the latest request's answer: %#v", first)
	}
	if out := p.Update(PrescDoneMsg{id: p.id - 1, key: "stale", p: first.Prescription}); out != nil {
		t.Error("a stale prescription was forwarded")
	}
	if _, ok := p.cache.get("stale"); !ok {
		t.Error("a stale prescription was not cached")
	}
}
