package tui

import (
	"math"
	"strings"
	"testing"
	"time"

	"dpso/solvers"
	"dpso/tui/backend"
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// auditSettled reports whether the current run is an audit that ended and
// whose progress reader delivered its last message.
func auditSettled(m *Model) bool {
	return settled(m) && m.run().Family == screens.AuditKind
}

// TestGoldenAudit: the audit screen of example1's oracle (clip-gaussian,
// ε = 1, seed 0: the real audit at fakeAuditTrials runs per input, the
// same numbers every time) and its negative control, at 80×24 (the
// compact layout: the panel is the first side tab), 120×32 and 132×42, and a
// shuffle oracle's audit (no violation, the noise wasted).
func TestGoldenAudit(t *testing.T) {
	for _, sz := range wordSizes {
		size := itoa(sz[0]) + "x" + itoa(sz[1])
		m := newTestModel(t, &fakeRunner{points: 6}, &example1, sz[0], sz[1])
		keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().Phase == runs.Done })
		golden(t, "screen-audit-"+size, m.render())
		keyUntil(t, m, "n", func() bool { return auditSettled(m) && m.run().Control && m.run().Phase == runs.Done })
		golden(t, "screen-audit-control-"+size, m.render())
	}
	// dp-sgd's noise comes from its accountant: the screen says what the
	// oracle audit is not.
	dp := example1
	dp.Solver = "dp-sgd"
	m := newTestModel(t, &fakeRunner{points: 6}, &dp, 132, 42)
	keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().Phase == runs.Done })
	if v := screenText(m); !strings.Contains(v, "not dp-sgd's (ε', δ)") {
		t.Errorf("the audit screen with dp-sgd on the form:\n%s", v)
	}
	sh := example1
	sh.Oracle = "shuffle-clip"
	m = newTestModel(t, &fakeRunner{points: 6}, &sh, 132, 42)
	keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().Phase == runs.Done })
	golden(t, "screen-audit-shuffle-132x42", m.render())
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
		return r != nil && r.Family == screens.AuditKind && r.Active() && len(fr.audits) == 1
	})
	first := m.run()
	if want := screens.AuditConfig(m.form.Resolved(), false); first.AuditConfig != want || want.Oracle != "clip-gaussian" || want.Eps != 1 || want.Rand != solvers.Seeded {
		t.Errorf("audit config %+v, want %+v", first.AuditConfig, want)
	}
	if v := screenText(m); !strings.Contains(v, "auditing clip-gaussian at ε = 1") || !strings.Contains(v, "reproduce: dpso audit --oracle clip-gaussian --eps 1\n") {
		t.Errorf("the screen while auditing:\n%s", v)
	}
	keyUntil(t, m, "space", func() bool { return strings.Contains(screenText(m), "an audit cannot pause") })
	if first.Phase != runs.Running {
		t.Errorf("space changed the audit's phase to %d", first.Phase)
	}
	// The control cancels the audit in flight.
	keyUntil(t, m, "n", func() bool { r := m.run(); return r != first && r.Control && r.Active() })
	fr.mu.Lock()
	firstCtx := fr.ctxs[0]
	fr.mu.Unlock()
	pump(t, m, nil, func() bool { return firstCtx.Err() != nil })
	if first.Phase != runs.Cancelled {
		t.Errorf("the first audit's phase is %d, want cancelled", first.Phase)
	}
	close(fr.hold)
	pump(t, m, nil, func() bool { return auditSettled(m) && m.run().Phase == runs.Done })
	ctl := m.run()
	if ctl.Audit == nil || !ctl.Audit.Violation || ctl.Audit.NegativeControl != screens.AuditControl {
		t.Fatalf("the control's result: %+v", ctl.Audit)
	}
	// The reproduce line is the control's command.
	if got := m.status.Reproduce(); got != "dpso audit --oracle clip-gaussian --eps 1 --negative-control 1.5" {
		t.Errorf("the control's reproduce line: %q", got)
	}
	// A late result of the cancelled audit is dropped.
	m.Update(runs.ResultMsg{ID: first.ID, Result: backend.Result{Audit: ctl.Audit}})
	if first.Phase != runs.Cancelled || first.Audit != nil || m.run() != ctl {
		t.Errorf("a stale result was applied: phase %d", first.Phase)
	}
	fr.mu.Lock()
	if len(fr.audits) != 2 || fr.audits[1] != screens.AuditConfig(m.form.Resolved(), true) {
		t.Errorf("the runner got %+v", fr.audits)
	}
	fr.mu.Unlock()
	// n shows the cancelled audit again; r audits anew.
	keyUntil(t, m, "n", func() bool { return strings.Contains(screenText(m), "the audit was cancelled: r audits again") })
	keyUntil(t, m, "r", func() bool { return auditSettled(m) && m.run().Phase == runs.Done && !m.run().Control })
	if v := screenText(m); !strings.Contains(v, "✓ no violation") || !strings.Contains(v, "negative control (noise ÷ 1.5): caught") {
		t.Errorf("the audit after the control:\n%s", v)
	}
	if got := m.status.Reproduce(); got != "dpso audit --oracle clip-gaussian --eps 1" {
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
	keyUntil(t, m, "u", func() bool { return auditSettled(m) && m.run().Phase == runs.Done })
	m.form.SetFocus(form.Eps)
	_, c := m.Update(press("right"))
	pump(t, m, c, func() bool {
		r := m.run()
		return r.Family == screens.AuditKind && r.Live && r.Phase == runs.Done && r.Drained
	})
	if got, want := m.run().AuditConfig.Eps, m.form.Resolved().Spec.Eps; got != want || got == 1 {
		t.Errorf("the live re-audit ran at ε = %v, the form's is %v", got, want)
	}
}
