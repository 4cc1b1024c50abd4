package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/spec"
	"dpso/theory"
)

// TestRefusedRunDrawsStartLine: a run whose solver refuses (lipschitz-dpsgd
// on linreg-t, L_f = ∞: its prescription refuses too) still draws the
// start line F(w₀) − F*, the scenario's own number, and no certificate.
func TestRefusedRunDrawsStartLine(t *testing.T) {
	s := spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, Solver: "lipschitz-dpsgd", N: 10000, Trials: 3}
	m := newTestModel(t, &fakeRunner{points: 4}, &s, 132, 42)
	p := m.chartScreen().presc.p
	if p == nil || p.Refused == "" || !(p.W0.Mean > 0) {
		t.Fatalf("the prescription should refuse and give F(w₀) − F* > 0: %+v", p)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseRefused })
	v := stripANSI(m.chartScreen().View())
	if !strings.Contains(v, "══ w₀ "+fmtNum(p.W0.Mean)) {
		t.Errorf("the refused run's chart has no start line w₀ %s:\n%s", fmtNum(p.W0.Mean), v)
	}
	if strings.Contains(v, "certified") {
		t.Errorf("a refused prescription has no certificate to draw:\n%s", v)
	}
}

// TestAboveStartShortForm: at 80 columns, after a comparison that took
// over a second (live mode's "live: manual (run > 1 s)" takes the room),
// the outcome that solvers ended above the start line keeps its point in
// a short form — the names with "above w₀", or how many solvers — never
// a name cut before it says what it did ("lipschitz-dpsgd… (? full)").
func TestAboveStartShortForm(t *testing.T) {
	first := linregT
	for _, tc := range []struct {
		points, above int
	}{{8, 1}, {6, 2}} {
		opts := testOpts(t, &fakeRunner{points: tc.points}, 2*time.Second) // every run takes over 1 s
		opts.Manual = false
		m := newTestModelOpts(t, opts, &first, 80, 24)
		keyUntil(t, m, "c", func() bool { return settled(m) && m.run().phase == phaseDone && m.run().compare })
		names, _, _ := strings.Cut(outcomeOf(m.run()).text, " above w₀")
		who := strings.Split(names, ", ")
		if len(who) != tc.above {
			t.Fatalf("points %d: %v above w₀, want %d solvers", tc.points, who, tc.above)
		}
		line := statusLine(m)
		if !strings.Contains(line, "live: manual (run 2.0 s ≥ 2.0 s)") {
			t.Fatalf("the status bar lacks the manual live label: %q", line)
		}
		_, rest, _ := strings.Cut(line, "run #1")
		if !strings.Contains(rest, " above w₀") || strings.Contains(strings.ReplaceAll(rest, " (? full)", ""), "…") {
			t.Errorf("%d above w₀: status %q, want a short form with \"above w₀\" and nothing cut", tc.above, line)
		}
		if tc.above == 1 && !strings.Contains(rest, who[0]+" above w₀") && !strings.Contains(rest, "1 solver above w₀") {
			t.Errorf("status %q, want %q or 1 solver above w₀", line, who[0]+" above w₀")
		}
	}
}

// TestPrivacyTabNothingCut: at 80×24 the privacy tab's lines wrap and
// scroll (pgdn) like the rest of the panel: after a single run and after
// a comparison, no line is cut with "…", and the ledger's line is read
// whole ("ledger checks passed: spent ≤ budget", not "spent ≤…").
func TestPrivacyTabNothingCut(t *testing.T) {
	first := linregT
	single := newTestModel(t, &fakeRunner{points: 6}, &first, 80, 24)
	keyUntil(t, single, "r", func() bool { return settled(single) && single.run().phase == phaseDone })
	for _, tc := range []struct {
		name string
		m    *Model
		want string
	}{
		{"single run", single, "ledger check passed: spent ≤ budget, acsa trial 0"},
		{"comparison", goldenModel(t, 80, 24), "ledger checks passed: spent ≤ budget"},
	} {
		m := tc.m
		keyUntil(t, m, "t", func() bool { return true })
		var seen []string
		for range 20 {
			v := stripANSI(m.side.View())
			for _, l := range strings.Split(v, "\n")[1:] {
				if strings.Contains(l, "…") {
					t.Errorf("%s: the privacy tab cuts a line: %q\n%s", tc.name, l, v)
				}
				seen = append(seen, l)
			}
			if !strings.Contains(v, "more line") {
				break
			}
			m.Update(press("pgdown"))
		}
		if all := strings.Join(strings.Fields(strings.Join(seen, " ")), " "); !strings.Contains(all, tc.want) {
			t.Errorf("%s: the privacy tab never shows %q:\n%s", tc.name, tc.want, strings.Join(seen, "\n"))
		}
	}
}

// TestPresetBurst: keys sent in a burst after a preset is chosen (p, 5,
// r back to back, before any command's message came back) act on the
// loaded preset: 5 loads preset 5 and closes the list within its own
// Update, so r runs that preset — it is not taken by the list, still
// open until its load message came back (where it loaded the preset
// again and ran nothing). The same holds for the help: ?, esc, r runs.
func TestPresetBurst(t *testing.T) {
	for _, tc := range []struct {
		keys  []string
		title string
	}{
		{[]string{"p", "5", "r"}, Presets[4].Title},
		{[]string{"p", "down", "enter", "r"}, Presets[1].Title},
		{[]string{"?", "esc", "r"}, Presets[0].Title},
	} {
		m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
		m.preset = Presets[0].Title
		var cmds []tea.Cmd
		for _, k := range tc.keys {
			_, c := m.Update(press(k))
			cmds = append(cmds, c)
		}
		if m.overlay != nil {
			t.Errorf("%v: the overlay is still open after the burst", tc.keys)
		}
		r := m.run()
		if r == nil || r.family != m.screens[m.active].def.family() || !r.active() || runKey(r.spec) != runKey(m.form.Resolved()) || m.preset != tc.title {
			t.Fatalf("%v: r did not start a run of the loaded preset %q (preset %q, run %+v)", tc.keys, tc.title, m.preset, r)
		}
		id := r.id
		pump(t, m, tea.Batch(cmds...), func() bool { return settled(m) && prescReady(m) })
		if m.run().id != id || m.overlay != nil || m.preset != tc.title {
			t.Errorf("%v: a message of the burst changed what r ran: run #%d (want #%d), preset %q", tc.keys, m.run().id, id, m.preset)
		}
	}
}

// TestRefusedValueStatus: after a refused typed value the status bar says
// the refusal first, marked ✗ with its field, and labels the run before
// it as the last run ("last run: ✓ done acsa"), so that it no longer reads
// "✓ done acsa … refused: k: …" — a run both done and refused.
func TestRefusedValueStatus(t *testing.T) {
	for _, w := range []int{80, 132} {
		h := 24
		if w > 80 {
			h = 42
		}
		m := newTestModel(t, &fakeRunner{points: 3}, &example1, w, h)
		keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
		m.form.SetFocus(fK)
		for _, k := range []string{"1", "enter"} {
			keyUntil(t, m, k, func() bool { return true })
		}
		pump(t, m, nil, func() bool { return m.status.err })
		line := statusLine(m)
		if !strings.HasPrefix(line, "✗ refused k: ") {
			t.Errorf("%d columns: status %q, want the refusal first, \"✗ refused k: …\"", w, line)
		}
		if i, j := strings.Index(line, "last run: ✓ done acsa"), strings.Index(line, "refused"); i < 0 || i < j || strings.Count(line, "✓ done") != 1 {
			t.Errorf("%d columns: status %q, want the earlier run after it as \"last run: ✓ done acsa\"", w, line)
		}
		if lipgloss.Width(line) > w {
			t.Errorf("%d columns: status %q is wider than the screen", w, line)
		}
		keyUntil(t, m, "down", func() bool { return true }) // any key clears it
		if line := statusLine(m); !strings.HasPrefix(line, "✓ done acsa") {
			t.Errorf("%d columns: after a key, status %q, want the run's state back", w, line)
		}
	}
}
