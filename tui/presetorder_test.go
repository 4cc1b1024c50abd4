package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/presets"
)

// orderRunner is the fake runner behind a shared CPU queue for its
// prescriptions too (backend.QueuedPrescriber, as dpso serve's pool is):
// while gate is not nil, a prescription reports every place the test
// sends on reports and is computed once the test closes gate; every
// prescription and run is logged in the order it is asked for.
type orderRunner struct {
	*fakeRunner
	gate    chan struct{}
	reports chan engine.Queue

	mu  sync.Mutex
	log []string
}

func (o *orderRunner) note(s string) {
	o.mu.Lock()
	o.log = append(o.log, s)
	o.mu.Unlock()
}

func (o *orderRunner) events() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.log, ", ")
}

func (o *orderRunner) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return o.PrescribeQueued(ctx, r, func(engine.Queue) {})
}

func (o *orderRunner) PrescribeQueued(ctx context.Context, r spec.Resolved, report func(engine.Queue)) (*engine.Prescription, error) {
	o.note("constants asked")
	if o.gate != nil {
	wait:
		for {
			select {
			case q := <-o.reports:
				report(q)
			case <-o.gate:
				break wait
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	report(engine.Queue{})
	p, err := o.fakeRunner.Prescribe(ctx, r)
	o.note("constants came")
	return p, err
}

func (o *orderRunner) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	o.note("run asked")
	return o.fakeRunner.Run(ctx, c, set)
}

// TestPresetRunWaitsForItsConstants: a preset's run is asked for only
// after its Spec's constants have come, and the screen says so at every
// step, by events: the constants queued (the status bar's "queued
// (position 1): the constants, then" its run, beside the theorem panel's
// queued constants), then computed, then the run — for preset 1's
// comparison on the chart and preset 4's clipping sweep on its screen.
// A key that starts another run while the constants are still coming
// drops the preset's (one run, the key's).
func TestPresetRunWaitsForItsConstants(t *testing.T) {
	for _, i := range []int{0, 3} {
		p := presets.All[i]
		t.Run(p.Title, func(t *testing.T) {
			o := &orderRunner{fakeRunner: &fakeRunner{points: 3}, reports: make(chan engine.Queue)}
			opts := testOpts(t, o.fakeRunner, 100*time.Millisecond)
			opts.Runner = o
			opts.Preset = 2 // the explorer opens on another preset: no constants of the loaded one are cached
			m := newTestModelOpts(t, opts, nil, 120, 32)
			o.mu.Lock()
			o.log = nil
			o.mu.Unlock()
			o.gate = make(chan struct{})
			cmd := m.loadPreset(i, true)
			pump(t, m, cmd, func() bool {
				return o.events() == "constants asked" && strings.Contains(statusLine(m), "◌ computing the constants, then ")
			})
			o.reports <- engine.Queue{Position: 1}
			pump(t, m, nil, func() bool { return strings.Contains(statusLine(m), "◌ queued (position 1): the constants, then ") })
			if th := stripANSI(m.formula.View()); !strings.Contains(th, "◌ queued (position 1) for a CPU slot") {
				t.Errorf("the status bar says the constants are queued, the theorem panel does not:\n%s", th)
			}
			if m.run() != nil || o.events() != "constants asked" {
				t.Fatalf("a run (%v) is asked for while its constants are queued: %s", m.run() != nil, o.events())
			}
			o.reports <- engine.Queue{}
			pump(t, m, nil, func() bool { return strings.Contains(statusLine(m), "◌ computing the constants, then ") })
			close(o.gate)
			pump(t, m, nil, func() bool { return settled(m) })
			if got, want := o.events(), "constants asked, constants came, run asked"; got != want {
				t.Errorf("events %q, want %q", got, want)
			}
			if want := m.screenIndex(p.Screen); m.active != want {
				t.Errorf("the preset's run is shown on screen %d, want %d", m.active, want)
			}
		})
	}
	t.Run("r while the constants come", func(t *testing.T) {
		o := &orderRunner{fakeRunner: &fakeRunner{points: 3}, reports: make(chan engine.Queue)}
		opts := testOpts(t, o.fakeRunner, 100*time.Millisecond)
		opts.Runner = o
		opts.Preset = 2
		m := newTestModelOpts(t, opts, nil, 120, 32)
		o.gate = make(chan struct{})
		pump(t, m, m.loadPreset(0, true), func() bool { return strings.Contains(statusLine(m), "◌ computing the constants, then ") })
		keyUntil(t, m, "r", func() bool { return m.run() != nil })
		close(o.gate)
		pump(t, m, nil, func() bool { return settled(m) && prescReady(m) })
		if got := o.events(); strings.Count(got, "run asked") != 1 || strings.Contains(statusLine(m), "then") {
			t.Errorf("after r: events %q (want one run: the preset's is dropped), status %q", got, statusLine(m))
		}
	})
}
