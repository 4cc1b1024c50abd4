package runs

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

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

// queuedPrescriber is a backend.QueuedPrescriber whose prescriptions wait
// in a queue the test holds: each call is counted, reports position 3,
// and computes once the test closes granted (backend.Local's answer).
type queuedPrescriber struct {
	backend.Local
	calls   chan context.Context
	granted chan struct{}
}

func (q *queuedPrescriber) PrescribeQueued(ctx context.Context, r spec.Resolved, report func(engine.Queue)) (*engine.Prescription, error) {
	q.calls <- ctx
	report(engine.Queue{Position: 3})
	select {
	case <-q.granted:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	report(engine.Queue{})
	return q.Local.Prescribe(ctx, r)
}

// TestPrescriberKeepsItsPlaceInTheQueue: behind a shared CPU queue, a
// second request for the same constants (a Spec that differs in the seed
// and the trials only, as a preset's load and its run's start give) keeps
// the call in flight and its place — the old call is not cancelled and no
// new one queues behind it — and its answer carries the latest Spec; a
// request for other constants cancels it and queues anew.
func TestPrescriberKeepsItsPlaceInTheQueue(t *testing.T) {
	qp := &queuedPrescriber{calls: make(chan context.Context, 4), granted: make(chan struct{})}
	p := NewPrescriber(context.Background(), qp)
	base := spec.Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, N: 10000, Trials: 3}
	rs, err := backend.Resolve(base)
	if err != nil {
		t.Fatal(err)
	}
	_, cmd := p.Request(rs)
	compute, _ := cmd().(tea.BatchMsg)
	if len(compute) != 2 {
		t.Fatalf("the request's commands: %d, want a poll and its computation", len(compute))
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- compute[1]() }()
	first := <-qp.calls
	again := base
	again.Seed, again.Trials = 7, 8
	rs2, err := backend.Resolve(again)
	if err != nil {
		t.Fatal(err)
	}
	ev, cmd2 := p.Request(rs2)
	pm, _ := ev.(PrescriptionMsg)
	if cmd2 != nil || !pm.Pending || pm.Queue == nil || pm.Queue.Position != 3 {
		t.Fatalf("the same constants asked again: command %v, pending %v, place %v; want the call in flight kept at its place 3", cmd2 != nil, pm.Pending, pm.Queue)
	}
	if first.Err() != nil {
		t.Fatal("the call in flight was cancelled by a request for the same constants")
	}
	close(qp.granted)
	out, _ := p.Update((<-done).(PrescDoneMsg)).(PrescriptionMsg)
	if out.Prescription == nil || out.Spec.Spec.Trials != 8 || out.Spec.Spec.Seed != 7 {
		t.Fatalf("the answer: %#v; want the prescription with the latest Spec (trials 8, seed 7)", out)
	}
	if len(qp.calls) != 0 {
		t.Fatalf("%d more calls queued for the same constants", len(qp.calls))
	}
	other := base
	other.N = 20000
	rs3, err := backend.Resolve(other)
	if err != nil {
		t.Fatal(err)
	}
	if _, cmd3 := p.Request(rs3); cmd3 == nil {
		t.Fatal("other constants were not computed")
	}
}
