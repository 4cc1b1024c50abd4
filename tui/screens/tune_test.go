package screens

import (
	"context"
	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers/accountant"
	"dpso/solvers/ledger"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/components/privacy"
	"dpso/tui/runs"
	"dpso/tui/style"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestTuneOnUserRowsComposes: on the user's rows the search runs without
// the references (dpso tune's default there), the screen says why they
// are absent and what the searches spent together, and the session's
// ledger composes the search with the other releases of the same file:
// the searches' (ε', δ) added to a run's ρ by basic composition.
func TestTuneOnUserRowsComposes(t *testing.T) {
	s := spec.Spec{Data: "../../examples/linreg-t-d3.csv", Constants: "private", Holdout: 0.2, Rand: "seeded", Trials: 2}
	res := mustResolve(t, s)
	tj, why := tuneJob(res)
	if why != "" || tj.TuneSpec.References {
		t.Fatalf("the search on user rows: %q, references %v", why, tj.TuneSpec.References)
	}
	rep, err := engine.Tune(context.Background(), res, tj.TuneSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := style.NewTheme(style.Dark, true, true)
	var lines []string
	for _, sec := range tuneSections(&st, rep, nil, 84, false) {
		lines = append(lines, sec.Lines...)
	}
	text := stripANSI(strings.Join(lines, " "))
	for _, want := range []string{
		"excess risk on your rows (log axis): a non-private diagnostic",
		"held-out loss " + EstText(rep.Solvers[0].Tuned.Holdout),
		"prescribed and oracle-tuned read your rows too",
		"ρ₀ = " + common.FmtNum(res.ConstantsRho()) + ")",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the tuning screen on user rows lacks %q:\n%s", want, text)
		}
	}
	// What the search spent, said to be its own (the session's total is
	// the privacy panel's), whole across the wrapped lines.
	search := "this search on your rows (2 searches, one per trial): ε' = " + common.FmtNum(rep.Total.Eps) + " at δ = " + common.FmtNum(rep.Total.Delta) + ", all its trials; every call of this session on them: the privacy panel"
	if !strings.Contains(strings.Join(strings.Fields(text), " "), search) {
		t.Errorf("the tuning screen on user rows lacks %q:\n%s", search, text)
	}
	if strings.Contains(text, "oracle-tuned  C") || strings.Contains(text, "prescribed  C") {
		t.Errorf("a reference is shown although none ran:\n%s", text)
	}

	// The session: a run's ρ = ½ on the same file, then the search.
	var l privacy.SessionLedger
	l.Add(&runs.Run{Job: runs.Job{Call: backend.Call{Spec: res}}, ID: 1, Phase: runs.Done, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{Total: engine.PrivacyTotal{
		UserRows: true, Composition: spec.Composition{Releases: 1}, Spent: ledger.Cost{Rho: 0.5}, ConvDelta: 1e-5}}}}}})
	tj.Spec = res
	l.Add(&runs.Run{ID: 2, Phase: runs.Done, Job: tj, Result: backend.Result{Tune: rep}})
	// Together: ρ = ½'s exact ε' at δ = 10⁻⁵ (μ = 1: theory's
	// TestExactConversion, 4.37718) plus the searches' (ε', δ).
	want := fmt.Sprintf("this session: 2 calls on your rows (runs, comparisons, sweeps and searches, each finished one) made 3 releases of them: ρ = 0.5 zCDP plus (ε', δ) = (%s, %s), together (ε', δ) = (%s, %s) by basic composition in all",
		common.FmtNum(rep.Total.Eps), common.FmtNum(rep.Total.Delta), common.FmtNum(theory.EpsExact(1, 1e-5)+rep.Total.Eps), common.FmtNum(1e-5+rep.Total.Delta))
	if got := l.Line(res.Spec.Data); !strings.HasPrefix(got, want) {
		t.Errorf("session line %q, want it to start %q", got, want)
	}
}

// TestTuneDPSGDStatesItsOwnAccounting: tuning dp-sgd, the screen and the
// panel state its search's accounting — each candidate by its own
// subsampled-Gaussian curve, the search's ε' — never a ρ_Q-zCDP candidate,
// which dp-sgd's are not.
func TestTuneDPSGDStatesItsOwnAccounting(t *testing.T) {
	res := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 3, N: 2000, Trials: 1, Solver: "dp-sgd"})
	rep, err := engine.Tune(context.Background(), res, engine.TuneSpec{Repetitions: accountant.Repetitions{Shape: 1, Mean: 2},
		Grid: engine.TuneGrid{Clip: []float64{1}, Step: []float64{0.1}, Epochs: []float64{1}, Batch: []int{100}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sd := rep.Solvers[0].DPSGD
	st := style.NewTheme(style.Dark, true, true)
	var lines []string
	for _, sec := range tuneSections(&st, rep, nil, 200, false) {
		lines = append(lines, sec.Lines...)
	}
	p := &TunePanel{LaidOutPanel: common.NewLaidOutPanel(common.Common{Styles: &st}), rep: rep}
	p.W = 200
	lines = append(lines, p.Lines()...)
	text := stripANSI(strings.Join(lines, " "))
	for _, want := range []string{
		"the whole search is (" + common.FmtNum(sd.Eps) + ", " + common.FmtNum(rep.Privacy.Target.Delta) + ")-DP",
		"each candidate by its own subsampled-Gaussian curve: noise multiplier " + common.FmtNum(sd.Mechanisms[0].Z),
		"Each candidate is accounted by its own Rényi curve",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the dp-sgd tuning screen lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "ρ_Q") {
		t.Errorf("the dp-sgd tuning screen calls its candidates ρ_Q-zCDP:\n%s", text)
	}
}

// TestTunePanelFollowsWidthAndTheme: the panel keeps its lines for the
// scroll keys, which fill it again at every press, and after a change of
// width, of theme or of report it shows what a new panel shows; scrolled
// by j to its end, its lines are those of a new panel's.
func TestTunePanelFollowsWidthAndTheme(t *testing.T) {
	res := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 3, N: 2000, Trials: 1, Solver: "dp-sgd"})
	tune := func(clip float64) *engine.TuneReport {
		rep, err := engine.Tune(context.Background(), res, engine.TuneSpec{Repetitions: accountant.Repetitions{Shape: 1, Mean: 2},
			Grid: engine.TuneGrid{Clip: []float64{clip}, Step: []float64{0.1}, Epochs: []float64{1}, Batch: []int{100}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep, other := tune(1), tune(2)
	c := testCommon()
	p := &TunePanel{LaidOutPanel: common.NewLaidOutPanel(c)}
	fresh := func() string {
		st := *c.Styles
		km := *c.KeyMap
		q := &TunePanel{LaidOutPanel: common.NewLaidOutPanel(common.Common{Styles: &st, KeyMap: &km})}
		q.SetSize(p.W, p.H)
		q.set(p.rep)
		return q.View()
	}
	p.SetSize(60, 12)
	p.set(rep)
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"at 60×12", func() {}},
		{"at 90×12", func() { p.SetSize(90, 12) }},
		{"light", func() { *c.Styles = style.NewTheme(style.Light, false, false); p.Update(tea.BackgroundColorMsg{}) }},
		{"another report", func() { p.set(other) }},
	} {
		step.change()
		if got, want := p.View(), fresh(); got != want {
			t.Errorf("%s: the panel shows\n%s\na new panel\n%s", step.name, got, want)
		}
	}
	var seen []string
	for range 200 {
		seen = append(seen, stripANSI(p.View()))
		p.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	}
	if last := seen[len(seen)-1]; !strings.Contains(strings.Join(seen, "\n"), strings.TrimSpace(stripANSI(p.Lines()[len(p.Lines())-1]))) {
		t.Errorf("scrolled to the end, the panel never shows its last line; at the end:\n%s", last)
	}
}
