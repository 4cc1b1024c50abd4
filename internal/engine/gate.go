package engine

import (
	"context"
	"sync"
)

// Gate pauses runs: while it is closed (Pause), every solver goroutine of
// a Run, Compare or Sweep given the gate (Settings.Gate) blocks at its next
// checkpoint, inside the checkpoint callback, until Resume or until the
// context is cancelled. Cancellation always wins: a paused run
// whose context is cancelled returns at once (and then stops within the
// solvers' 50 ms), so "restart" and "quit" never wait for "resume".
//
// The gate blocks only the solvers' own goroutines, never a Mailbox: the
// consumer keeps reading whatever was Put before the pause.
type Gate struct {
	mu     sync.Mutex
	paused bool
	open   chan struct{} // closed while the gate is open
	// changed is closed by the next Pause or Resume that changes the
	// gate (Changed).
	changed chan struct{}
	// onWait, if set (by tests), is called each time a goroutine blocks on
	// the closed gate.
	onWait func()
}

// NewGate returns an open gate.
func NewGate() *Gate {
	g := &Gate{open: make(chan struct{}), changed: make(chan struct{})}
	close(g.open)
	return g
}

// Changed returns a channel that is closed when the gate next opens or
// closes: a caller that holds resources for the run (dpso serve's CPU
// slots) gives them back while it is paused. Read Paused after it fires.
func (g *Gate) Changed() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.changed
}

// flip ends the current Changed channel (g.mu held).
func (g *Gate) flip() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// Pause closes the gate: runs block at their next checkpoint.
func (g *Gate) Pause() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.paused {
		g.paused = true
		g.open = make(chan struct{})
		g.flip()
	}
}

// Resume opens the gate and releases every blocked run.
func (g *Gate) Resume() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.paused {
		g.paused = false
		close(g.open)
		g.flip()
	}
}

// Paused reports whether the gate is closed.
func (g *Gate) Paused() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paused
}

// Wait blocks while the gate is closed; it returns nil once it is open, or
// ctx's error as soon as ctx is cancelled.
func (g *Gate) Wait(ctx context.Context) error {
	g.mu.Lock()
	open, paused, hook := g.open, g.paused, g.onWait
	g.mu.Unlock()
	if paused && hook != nil {
		hook()
	}
	select {
	case <-open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
