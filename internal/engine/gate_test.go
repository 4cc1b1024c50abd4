package engine

import (
	"context"
	"errors"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
)

// waits returns a channel that receives once each time a goroutine blocks
// on g (the gate's test hook), so that a test knows, without reading a
// clock, that a run is paused.
func waits(g *Gate) <-chan struct{} {
	c := make(chan struct{}, 64)
	g.onWait = func() { c <- struct{}{} }
	return c
}

// TestGatePausesAndCancelWins: a paused run stops at its first checkpoint
// — its single worker is blocked in the gate, having delivered exactly that
// checkpoint — resumes to the same result it would have had, and a
// cancellation while paused returns context.Canceled.
func TestGatePausesAndCancelWins(t *testing.T) {
	r := resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 2000, Trials: 2, Solver: "test-gd", Workers: 1})
	ref, err := Run(context.Background(), r, nil)
	if err != nil {
		t.Fatal(err)
	}

	// Pause before the start: the single worker blocks at its first
	// checkpoint, so exactly one progress value is Put.
	g := NewGate()
	blocked := waits(g)
	g.Pause()
	mb := NewMailbox[Progress](1 << 10)
	done := make(chan *Report, 1)
	go func() {
		rep, err := Run(context.Background(), r, &Settings{Progress: mb, Gate: g})
		if err != nil {
			t.Error(err)
		}
		done <- rep
	}()
	<-blocked // the worker waits in the gate
	if vals, _ := mb.Take(); len(vals) != 1 {
		t.Fatalf("paused run produced %d progress values (%+v), want the first checkpoint only", len(vals), vals)
	}
	select {
	case <-done:
		t.Fatal("a paused run finished")
	default:
	}
	g.Resume()
	rep := <-done
	if rep.Excess.Mean != ref.Excess.Mean {
		t.Errorf("paused-and-resumed run: excess %g, uninterrupted %g", rep.Excess.Mean, ref.Excess.Mean)
	}

	// Cancel while paused.
	g.Pause()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := Run(ctx, r, &Settings{Progress: NewMailbox[Progress](16), Gate: g})
		errc <- err
	}()
	<-blocked
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if !g.Paused() {
		t.Error("gate reopened by a cancellation")
	}
}

// TestGateWait: a Wait blocked on a closed gate returns the context's
// error once the context is cancelled, nil once the gate opens; an open
// gate does not block. (The explorer's restart and quit rely on the
// first; the solvers then stop within their own 50 ms.)
func TestGateWait(t *testing.T) {
	g := NewGate()
	blocked := waits(g)
	g.Pause()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- g.Wait(ctx) }()
	<-blocked
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Wait after the cancellation: %v, want context.Canceled", err)
	}
	// Resume releases a waiter.
	go func() { errc <- g.Wait(context.Background()) }()
	<-blocked
	g.Resume()
	if err := <-errc; err != nil || g.Paused() {
		t.Errorf("after Resume: err %v, paused %v", err, g.Paused())
	}
	if err := g.Wait(context.Background()); err != nil {
		t.Errorf("open gate: %v", err)
	}
}

// TestGateChangedFiresOnEachChange: Changed's channel is closed by the
// next Pause or Resume that changes the gate, and not by one that does
// not (a second Pause).
func TestGateChangedFiresOnEachChange(t *testing.T) {
	g := NewGate()
	c := g.Changed()
	g.Resume() // already open: no change
	select {
	case <-c:
		t.Fatal("Changed fired on a Resume of an open gate")
	default:
	}
	g.Pause()
	<-c
	c = g.Changed()
	g.Pause()
	select {
	case <-c:
		t.Fatal("Changed fired on a Pause of a closed gate")
	default:
	}
	g.Resume()
	<-c
	if g.Paused() {
		t.Fatal("the gate is closed after Resume")
	}
}
