package tui

import (
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/components/clip"
	"dpso/tui/components/privacy"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// TestPrivacyPanelOnUserRows: on the user's rows the privacy panel says
// what the CLI says: NOT PRIVATE with the reason when
// the noise is seeded, and, after a run, the total of every release that
// read the rows (3 trials at ρ = 0.5 spend ρ = 1.5), not only the ledger's
// per-release ρ = 0.5 of 0.5. A scenario's panel says neither.
func TestPrivacyPanelOnUserRows(t *testing.T) {
	m := goldenModel(t, 132, 42)
	compare := false
	view := func(s spec.Spec, total engine.PrivacyTotal) string {
		t.Helper()
		r, err := backend.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		p := privacy.New(m.Common)
		p.SetSize(46, 14)
		p.Update(common.SpecMsg{Spec: r})
		done := &runs.Run{Job: runs.Job{Call: backend.Call{Kind: backend.Compare, Spec: r}, Family: screens.ChartKind, Compare: compare}, Phase: runs.Done, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{Solver: "acsa", Total: total}}}}}
		p.Update(runs.Event{Run: done})
		return stripANSI(p.View())
	}
	rows := spec.Spec{Data: "rows.csv", Rk: 2, Beta: 1, Trials: 3}
	three := engine.PrivacyTotal{UserRows: true, Composition: spec.Composition{Releases: 3}, Spent: ledger.Cost{Rho: 1.5}}

	v := view(rows, three)
	if !strings.Contains(oneLine(v), "total: 3 releases of your rows: ρ = 1.5 zCDP") || strings.Contains(v, "NOT PRIVATE") {
		t.Errorf("user rows, secure noise:\n%s", v)
	}
	seeded := rows
	seeded.Rand = "seeded"
	if v := oneLine(view(seeded, three)); !strings.Contains(v, "NOT PRIVATE: seeded noise on user data (--rand seeded, seed 0)") || !strings.Contains(v, "total: 3 releases") {
		t.Errorf("user rows, seeded noise: no NOT PRIVATE:\n%s", v)
	}
	split := three
	split.Composition.Split, split.Spent.Rho = true, 0.5
	if v := oneLine(view(rows, split)); !strings.Contains(v, "total: 3 releases of your rows: ρ = 0.5 zCDP (--split-budget: 1/3 each)") {
		t.Errorf("user rows, split budget:\n%s", v)
	}
	// A comparison's panel lists each solver's (ε', δ); NOT PRIVATE and
	// the total stay.
	compare = true
	if v := oneLine(view(seeded, three)); !strings.Contains(v, "NOT PRIVATE: seeded noise on user data") || !strings.Contains(v, "total: 3 releases of your rows: ρ = 1.5 zCDP") || !strings.Contains(v, "of each solver") {
		t.Errorf("user rows, seeded, comparison:\n%s", v)
	}
	compare = false
	scen := engine.PrivacyTotal{Composition: spec.Composition{Releases: 1}, Spent: ledger.Cost{Rho: 0.5}}
	if v := view(spec.Spec{Scenario: "linreg-t", Trials: 3}, scen); strings.Contains(v, "NOT PRIVATE") || strings.Contains(v, "total:") {
		t.Errorf("a scenario's panel speaks of user rows:\n%s", v)
	}
}

// oneLine joins a wrapped view's lines (with their padding) by spaces.
func oneLine(v string) string {
	return strings.Join(strings.Fields(v), " ")
}

// TestPrivacyTabAfterComparison: at 80×24 the privacy tab after a
// comparison names solvers with the same (ε', δ) together, and what does
// not fit the tab is reached by pgdn, with a line saying how much is
// below — the ledger check is never silently cut (it was: five solvers'
// ε' filled the tab).
func TestPrivacyTabAfterComparison(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, nil, 80, 24)
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare })
	keyUntil(t, m, "t", func() bool { return m.side.Current() == m.privacy })
	scr := screenText(m)
	if !strings.Contains(scr, "of each solver") {
		t.Fatalf("privacy tab:\n%s", scr)
	}
	// Solvers at the same ε' are one item: no solver's name stands alone
	// before a value another one repeats.
	if strings.Count(scr, " 4.38") > 1 {
		t.Errorf("equal ε' not grouped:\n%s", scr)
	}
	seen := func() bool { return strings.Contains(screenText(m), "ledger checks passed") }
	for i := 0; !seen() && i < 15; i++ {
		if i == 0 && !strings.Contains(screenText(m), "more line") {
			t.Fatalf("the tab is cut without saying so:\n%s", screenText(m))
		}
		m.Update(press("pgdown"))
	}
	if !seen() {
		t.Errorf("the ledger check is not reachable:\n%s", screenText(m))
	}
}

// TestClipTabHeadFits: in the small terminal's 34-cell tab the clipping
// panel's first line, the threshold and the fraction clipped, is whole
// (it was cut mid-phrase: "C = 3392 · batch 40k · 0.0%…"); the batch
// size is on the batch's line.
func TestClipTabHeadFits(t *testing.T) {
	m := goldenModel(t, 80, 24)
	cp := &clip.Model{Common: m.Common}
	cp.SetSize(34, 6)
	var hist [oracle.HistBins]int
	hist[10] = 40000
	r := &runs.Run{Job: runs.Job{Call: backend.Call{Names: []string{"acsa"}}}, HaveHist: true, HistWho: "acsa · trial 7", Hist: oracle.BatchStats{Size: 40000, Threshold: 3392, Clipped: 0, Hist: hist}}
	cp.Update(runs.Event{Run: r})
	v := stripANSI(cp.View())
	if !strings.Contains(v, "C = 3392 · 0.0% clipped") || !strings.Contains(v, "batch of 40k · acsa · trial 7") {
		t.Errorf("clipping tab:\n%s", v)
	}
}

// TestComparisonPrivacy: a finished comparison shows each
// solver's (ε', δ) beside its result — the legend's tags on a wide chart,
// the privacy tab's list on a small terminal —, the zCDP solvers' the exact
// ε' of ρ = ε²/2 (4.3772 at ε = 1, δ = 10⁻⁵: theory's
// TestExactConversion), dp-sgd's its accountant's, named,
// the non-private nonprivate-schedule's ∞.
func TestComparisonPrivacy(t *testing.T) {
	exact := common.FmtNum(theory.EpsExact(1, 1e-5)) // μ = ε = 1 GDP
	if exact != common.FmtNum(4.3772) {
		t.Fatalf("exact ε' at ρ = 0.5, δ = 10⁻⁵: %s", exact)
	}
	m := goldenModel(t, 132, 42)
	legend := stripANSI(m.chartScreen().View())
	for _, want := range []string{
		"acsa " + common.FmtNum(fakeMean(0, 3, 6)) + " ε' " + exact,
		"nonprivate-schedule " + common.FmtNum(fakeMean(1, 3, 6)) + " not private",
		"klz-gd " + common.FmtNum(fakeMean(3, 3, 6)) + " ε' " + exact,
		"dp-sgd " + common.FmtNum(fakeMean(4, 3, 6)) + " ε' " + common.FmtNum(0.9999*4.3772) + " pld",
		"(ε', δ = 10⁻⁵)-DP, pld = dp-sgd's accountant",
	} {
		if !strings.Contains(legend, want) {
			t.Errorf("the comparison's legend lacks %q:\n%s", want, legend)
		}
	}
	// A single run is not tagged: the privacy panel states its budget.
	s := example1
	single := newTestModel(t, &fakeRunner{points: 6}, &s, 132, 42)
	keyUntil(t, single, "r", func() bool { return settled(single) && single.run().Phase == runs.Done })
	if v := stripANSI(single.chartScreen().View()); strings.Contains(v, "ε' ") {
		t.Errorf("a single run's legend carries privacy tags:\n%s", v)
	}

	small := goldenModel(t, 80, 24)
	if v := stripANSI(small.chartScreen().View()); strings.Contains(v, "ε' ") {
		t.Errorf("the 80×24 chart carries the tags (they cost its plot rows):\n%s", v)
	}
	keyUntil(t, small, "t", func() bool { return true })
	v := screenText(small)
	if !strings.Contains(v, "more lines: j, pgdn") {
		t.Errorf("the 80×24 privacy tab does not say it scrolls:\n%s", v)
	}
	// Solvers at the same ε' are named together; the rest is pgdn away.
	for i := 0; i < 6 && strings.Contains(screenText(small), "more line"); i++ {
		small.Update(press("pgdown"))
		v += "\n" + screenText(small)
	}
	for _, want := range []string{"(ε', δ=10⁻⁵)-DP of each solver", "acsa, klz-gd " + exact, "nonprivate-schedule ∞", "lipschitz-dpsgd refused", "dp-sgd " + exact + " (pld accountant)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the 80×24 privacy tab, scrolled, lacks %q:\n%s", want, v)
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
	keyUntil(t, single, "r", func() bool { return settled(single) && single.run().Phase == runs.Done })
	for _, tc := range []struct {
		name string
		m    *Model
		want string
	}{
		{"single run", single, "ledger check passed: spent ≤ budget, acsa trial 0"},
		{"comparison", goldenModel(t, 80, 24), "ledger checks passed: spent ≤ budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
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
		})
	}
}

// TestPrivacyPanelScrollsWide: on a wide terminal too short for the
// privacy panel's lines (120×32, a projector, after a comparison) the
// panel cuts nothing: its last line says how many lines are below and
// that t, then j, scrolls them; t gives it the scroll keys (the status
// line says so, the screen's panel then names t), j scrolls it to the
// ledger's line without moving the theorem panel, and t gives the keys
// back. The help lists t.
func TestPrivacyPanelScrollsWide(t *testing.T) {
	m := goldenModel(t, 120, 32)
	_, theorem := m.screens[m.active].screen.Panel()
	pv := func() string { return stripANSI(m.privacy.View()) }
	if v := pv(); !strings.Contains(v, "more lines: t, then j") {
		t.Fatalf("the privacy panel does not say how to scroll it:\n%s", v)
	}
	if v := stripANSI(theorem.View()); !strings.Contains(v, "more lines: j, pgdn") {
		t.Fatalf("the theorem panel, with the scroll keys, does not say so:\n%s", v)
	}
	keyUntil(t, m, "t", func() bool { return true })
	if v := screenText(m); !strings.Contains(v, "scroll the Privacy panel") {
		t.Errorf("t does not say where the scroll keys go:\n%s", v)
	}
	if v := stripANSI(theorem.View()); !strings.Contains(v, "more lines: t, then j") {
		t.Errorf("the theorem panel, without the scroll keys, does not name t:\n%s", v)
	}
	// What the theorem panel shows (its rule and first lines): a change
	// of the status bar's rows may resize it, never scroll it.
	top := func() string { return strings.Join(strings.Split(stripANSI(theorem.View()), "\n")[:3], "\n") }
	before := top()
	seen := pv()
	for i := 0; i < 20 && strings.Contains(pv(), "↓"); i++ {
		if !strings.Contains(pv(), "more line") || !strings.Contains(pv(), "j, pgdn") {
			t.Fatalf("the focused privacy panel's scroll line:\n%s", pv())
		}
		m.Update(press("j"))
		seen += "\n" + pv()
	}
	if top() != before {
		t.Errorf("j moved the theorem panel while the privacy panel had the keys")
	}
	for _, want := range []string{"of each solver", "dp-sgd " + common.FmtNum(theory.EpsExact(1, 1e-5)) + " (pld accountant)", "ledger checks passed: spent ≤ budget"} {
		if !strings.Contains(seen, want) {
			t.Errorf("scrolled to its end, the privacy panel never shows %q:\n%s", want, seen)
		}
	}
	for _, l := range strings.Split(seen, "\n") {
		if strings.Contains(l, "…") {
			t.Errorf("the privacy panel cuts a line: %q", l)
		}
	}
	keyUntil(t, m, "t", func() bool { return true })
	if m.panel() != theorem {
		t.Errorf("a second t does not give the scroll keys back to the theorem panel")
	}
	m.Update(press("?"))
	seen = screenText(m)
	for i := 0; i < 40 && strings.Contains(screenText(m), "↓"); i++ {
		m.Update(press("pgdown"))
		seen += screenText(m)
	}
	if !strings.Contains(seen, "wide: the panel j, k, pgdn scroll") {
		t.Errorf("the help does not list t for the wide layout:\n%s", seen)
	}
}

// TestPrivacyLooserConversionsNamed: the privacy panel's other two
// conversions of ρ to (ε', δ) say what they are (ε', by looser
// conversions), where under the ledger's lines they read as budgets spent.
func TestPrivacyLooserConversionsNamed(t *testing.T) {
	m := goldenModel(t, 132, 42)
	p := privacy.New(m.Common)
	p.SetSize(46, 30)
	r, err := backend.Resolve(linregT)
	if err != nil {
		t.Fatal(err)
	}
	p.Update(common.SpecMsg{Spec: r})
	v := strings.Join(strings.Fields(stripANSI(p.View())), " ")
	if !strings.Contains(v, "Bun–Steinke") {
		t.Fatalf("no Bun–Steinke conversion on the panel:\n%s", v)
	}
	if !strings.Contains(v, "ε' by looser conversions of ρ: ") {
		t.Errorf("the Bun–Steinke and Canonne–Kamath–Steinke values carry no name:\n%s", v)
	}
}
