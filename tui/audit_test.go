package tui

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/audit"
	"dpso/solvers"
	"dpso/tui/backend"
)

// auditSettled reports whether the current run is an audit that ended and
// whose progress reader delivered its last message.
func auditSettled(m *Model) bool {
	return settled(m) && m.run().family == auditKind
}

// TestGoldenAudit: the audit screen of example1's oracle (clip-gaussian,
// ε = 1, seed 0: the real audit at fakeAuditTrials runs per input, the
// same numbers every time) and its negative control, at 80×24 (the
// compact layout: the panel is the first side tab) and 132×42, and a
// shuffle oracle's audit (no violation, the noise wasted).
func TestGoldenAudit(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {132, 42}} {
		size := itoa(sz[0]) + "x" + itoa(sz[1])
		m := newTestModel(t, &fakeRunner{points: 6}, &example1, sz[0], sz[1])
		keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().phase == phaseDone })
		golden(t, "screen-audit-"+size, m.render())
		keyUntil(t, m, "n", func() bool { return auditSettled(m) && m.run().control && m.run().phase == phaseDone })
		golden(t, "screen-audit-control-"+size, m.render())
	}
	// dp-sgd's noise comes from its accountant: the screen says what the
	// oracle audit is not.
	dp := example1
	dp.Solver = "dp-sgd"
	m := newTestModel(t, &fakeRunner{points: 6}, &dp, 132, 42)
	keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().phase == phaseDone })
	if v := screenText(m); !strings.Contains(v, "not dp-sgd's (ε', δ)") {
		t.Errorf("the audit screen with dp-sgd on the form:\n%s", v)
	}
	sh := example1
	sh.Oracle = "shuffle-clip"
	m = newTestModel(t, &fakeRunner{points: 6}, &sh, 132, 42)
	keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().phase == phaseDone })
	golden(t, "screen-audit-shuffle-132x42", m.render())
}

// TestAuditScreenMessages: the audit screen reports its outcomes as
// messages — shown without an audit of the form's oracle and ε it asks for
// one (runRequestMsg), n asks for the negative control, then toggles
// between the two without running again; at ε = ∞ there is nothing to
// audit, and n says so on the status bar.
func TestAuditScreenMessages(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 2}, &example1, 132, 42)
	res := m.form.Resolved()
	s := newAuditScreen(m.common)
	s.SetSize(84, 23)
	s.Update(specMsg{spec: res})
	// A run request is compared by the job it makes on the form's Spec.
	type request struct {
		what    string
		control bool
	}
	want := func(what string, cmd tea.Cmd, msg tea.Msg) {
		t.Helper()
		var got tea.Msg
		if cmd != nil {
			got = cmd()
		}
		if rq, ok := got.(runRequestMsg); ok {
			j, why := rq.make(res)
			got = request{what: j.what + why, control: j.control}
		}
		if got != msg {
			t.Errorf("%s: message %#v, want %#v", what, got, msg)
		}
	}
	want("Activate without an audit", s.Activate(), request{what: "audit"})
	_, cmd := s.Update(press("n"))
	want("n without a control", cmd, request{what: "audit (negative control)", control: true})

	// A finished audit and control of the form's oracle and ε.
	result := func(f float64) *audit.Result {
		r, err := audit.Oracle(context.Background(), auditConfigTrials(auditConfig(res, f > 1), 2000))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plain := &run{id: 1, job: job{Call: backend.Call{Kind: backend.Audit, AuditConfig: auditConfig(res, false), Spec: res}, family: auditKind}, phase: phaseDone, Result: backend.Result{Audit: result(1)}}
	ctl := &run{id: 2, job: job{Call: backend.Call{Kind: backend.Audit, AuditConfig: auditConfig(res, true), Spec: res}, family: auditKind, control: true}, phase: phaseDone, Result: backend.Result{Audit: result(auditControl)}}
	s.Update(runEvent{plain})
	want("Activate with a fresh audit", s.Activate(), nil)
	s.Update(runEvent{ctl})
	if !s.showCtl || s.current() != ctl || !strings.Contains(stripANSI(s.View()), "negative control: budget ×1.5") {
		t.Errorf("a finished control is not shown:\n%s", stripANSI(s.View()))
	}
	_, cmd = s.Update(press("n"))
	want("n with a control", cmd, nil)
	if s.showCtl || s.current() != plain || !strings.Contains(stripANSI(s.View()), "negative control (noise ÷ 1.5): caught") {
		t.Errorf("n did not go back to the audit, or it does not report the control:\n%s", stripANSI(s.View()))
	}
	_, cmd = s.Update(press("n"))
	want("n again", cmd, nil)
	if !s.showCtl {
		t.Error("n did not toggle back to the control")
	}
	// Another key is not the screen's.
	_, cmd = s.Update(press("x"))
	want("another key", cmd, nil)

	// ε = ∞: nothing to audit.
	inf := m.form.Spec()
	inf.Eps = math.Inf(1)
	ri, err := backend.Resolve(inf)
	if err != nil {
		t.Fatal(err)
	}
	s.Update(specMsg{spec: ri})
	want("Activate at ε = ∞", s.Activate(), nil)
	_, cmd = s.Update(press("n"))
	want("n at ε = ∞", cmd, statusMsg{text: "ε = ∞: there is no privacy claim to audit", err: true})
	if v := stripANSI(s.View()); !strings.Contains(v, "no privacy claim to audit") {
		t.Errorf("the screen at ε = ∞:\n%s", v)
	}
}

// auditConfigTrials is c with n runs per input.
func auditConfigTrials(c audit.Config, n int) audit.Config {
	c.Trials = n
	return c
}

// TestAuditRunLifecycle: the audit runs off the UI loop through the run
// lifecycle, tagged with its run id — the runner gets exactly the form's
// oracle audit (the reproduce line's `dpso audit` command); a new run (the
// negative control) cancels the audit in flight, whose late result is
// dropped; an audit cannot pause; at ε = ∞ none starts.
func TestAuditRunLifecycle(t *testing.T) {
	fr := &fakeRunner{points: 2, hold: make(chan struct{})}
	m := newTestModel(t, fr, &example1, 132, 42)
	// Until the runner holds the audit (its command runs in a goroutine).
	keyUntil(t, m, "u", func() bool {
		fr.mu.Lock()
		defer fr.mu.Unlock()
		r := m.run()
		return r != nil && r.family == auditKind && r.active() && len(fr.audits) == 1
	})
	first := m.run()
	if want := auditConfig(m.form.Resolved(), false); first.AuditConfig != want || want.Oracle != "clip-gaussian" || want.Eps != 1 || want.Rand != solvers.Seeded {
		t.Errorf("audit config %+v, want %+v", first.AuditConfig, want)
	}
	if v := screenText(m); !strings.Contains(v, "auditing clip-gaussian at ε = 1") || !strings.Contains(v, "reproduce: dpso audit --oracle clip-gaussian --eps 1\n") {
		t.Errorf("the screen while auditing:\n%s", v)
	}
	keyUntil(t, m, "space", func() bool { return strings.Contains(screenText(m), "an audit cannot pause") })
	if first.phase != phaseRunning {
		t.Errorf("space changed the audit's phase to %d", first.phase)
	}
	// The control cancels the audit in flight.
	keyUntil(t, m, "n", func() bool { r := m.run(); return r != first && r.control && r.active() })
	fr.mu.Lock()
	firstCtx := fr.ctxs[0]
	fr.mu.Unlock()
	pump(t, m, nil, func() bool { return firstCtx.Err() != nil })
	if first.phase != phaseCancelled {
		t.Errorf("the first audit's phase is %d, want cancelled", first.phase)
	}
	close(fr.hold)
	pump(t, m, nil, func() bool { return auditSettled(m) && m.run().phase == phaseDone })
	ctl := m.run()
	if ctl.Audit == nil || !ctl.Audit.Violation || ctl.Audit.NegativeControl != auditControl {
		t.Fatalf("the control's result: %+v", ctl.Audit)
	}
	// The reproduce line is the control's command.
	if got := m.status.reproduce(); got != "dpso audit --oracle clip-gaussian --eps 1 --negative-control 1.5" {
		t.Errorf("the control's reproduce line: %q", got)
	}
	// A late result of the cancelled audit is dropped.
	m.Update(resultMsg{id: first.id, Result: backend.Result{Audit: ctl.Audit}})
	if first.phase != phaseCancelled || first.Audit != nil || m.run() != ctl {
		t.Errorf("a stale result was applied: phase %d", first.phase)
	}
	fr.mu.Lock()
	if len(fr.audits) != 2 || fr.audits[1] != auditConfig(m.form.Resolved(), true) {
		t.Errorf("the runner got %+v", fr.audits)
	}
	fr.mu.Unlock()
	// n shows the cancelled audit again; r audits anew.
	keyUntil(t, m, "n", func() bool { return strings.Contains(screenText(m), "the audit was cancelled: r audits again") })
	keyUntil(t, m, "r", func() bool { return auditSettled(m) && m.run().phase == phaseDone && !m.run().control })
	if v := screenText(m); !strings.Contains(v, "✓ no violation") || !strings.Contains(v, "negative control (noise ÷ 1.5): caught") {
		t.Errorf("the audit after the control:\n%s", v)
	}
	if got := m.status.reproduce(); got != "dpso audit --oracle clip-gaussian --eps 1" {
		t.Errorf("the audit's reproduce line after the control: %q", got)
	}
	// ε = ∞: r starts no audit, and says why.
	inf := m.form.Spec()
	inf.Eps = math.Inf(1)
	cmd, err := m.form.SetSpec(inf)
	if err != nil {
		t.Fatal(err)
	}
	pump(t, m, cmd, func() bool { return prescReady(m) })
	before := m.run()
	keyUntil(t, m, "r", func() bool { return strings.Contains(screenText(m), "there is no privacy claim to audit") })
	if m.run() != before {
		t.Error("r started an audit at ε = ∞")
	}
}

// TestAuditLiveMode: on the audit screen, live mode re-audits a change of
// ε when the last audit took under a second.
func TestAuditLiveMode(t *testing.T) {
	fr := &fakeRunner{points: 2}
	m := liveModel(t, fr, time.Millisecond)
	keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().phase == phaseDone })
	m.form.SetFocus(fEps)
	_, c := m.Update(press("right"))
	pump(t, m, c, func() bool {
		r := m.run()
		return r.family == auditKind && r.live && r.phase == phaseDone && r.drained
	})
	if got, want := m.run().AuditConfig.Eps, m.form.Resolved().Spec.Eps; got != want || got == 1 {
		t.Errorf("the live re-audit ran at ε = %v, the form's is %v", got, want)
	}
}
