package tui

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui/chart"
)

// TestFirstScreenMakesThePaperPoint: `dpso` then r, on the real engine.
// The explorer opens on the first preset; r runs the paper's solver beside
// Lipschitz DP-SGD (the preset's versus) on the same draws, on the first
// screen (the chart). The paper's solver ends below Lipschitz DP-SGD and
// below w₀, nothing ends above w₀ (the status bar says none), the
// legend has no constant-1 level, and the y axis reads values.
func TestFirstScreenMakesThePaperPoint(t *testing.T) {
	m, err := New(context.Background(), Options{Runner: Engine{}, Manual: true, ExportDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea80x24)
	// The guards end a hang only (3 CPU-seconds of runs, on a loaded
	// machine); no assertion reads the time.
	pumpFor(t, m, m.initCmd, func() bool { return prescReady(m) }, 5*time.Minute)
	_, cmd := m.Update(press("r"))
	pumpFor(t, m, cmd, func() bool { return settled(m) && m.run().phase == phaseDone }, 10*time.Minute)
	r := m.run()
	if m.active != 0 || len(r.names) != 2 || r.names[0] != "acsa" || r.names[1] != "lipschitz-dpsgd" {
		t.Fatalf("r ran %v on screen %d", r.names, m.active)
	}
	acsa, lip := r.cmp.Reports[0], r.cmp.Reports[1]
	w0 := acsa.W0.Mean
	if !(acsa.Excess.Mean < lip.Excess.Mean && lip.Excess.Mean < w0) {
		t.Errorf("acsa %g, lipschitz-dpsgd %g, w₀ %g: want acsa < lipschitz-dpsgd < w₀", acsa.Excess.Mean, lip.Excess.Mean, w0)
	}
	v := screenText(m)
	if line := statusLine(m); strings.Contains(line, "above w₀") || outcomeOf(r).text != "" {
		t.Errorf("the status bar says a solver ended above w₀: %q", line)
	}
	for _, want := range []string{"── acsa " + fmtNum(acsa.Excess.Mean), "── lipschitz-dpsgd " + fmtNum(lip.Excess.Mean), "══ w₀ " + fmtNum(w0), "preset 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, v)
		}
	}
	checkNoRateLevels(t, m)
	checkYLabelsAreValues(t, stripANSI(m.chartScreen().View()))
}

var tea80x24 = tea.WindowSizeMsg{Width: 80, Height: 24}

// checkNoRateLevels asserts that the run chart draws no bound with
// constants set to 1, neither on the plot nor in its legend.
func checkNoRateLevels(t *testing.T, m *Model) {
	t.Helper()
	v := stripANSI(m.chartScreen().View())
	for _, s := range m.chartScreen().chart.Series() {
		if s.Kind == chart.Upper || s.Kind == chart.Lower || s.Kind == chart.Prior {
			t.Errorf("the run chart draws the rate %q as a level", s.Label)
		}
	}
	for _, l := range []string{"upper bound", "lower bound", "(prior)"} {
		if strings.Contains(v, l) {
			t.Errorf("the run chart's legend lists the rate %q:\n%s", l, v)
		}
	}
}

// checkYLabelsAreValues asserts that a chart's y labels are values (1, 2
// or 5 times a power of ten, written as the explorer writes numbers), not
// log10 exponents: no label is 0 or negative.
func checkYLabelsAreValues(t *testing.T, chartView string) {
	t.Helper()
	n := 0
	for _, l := range strings.Split(chartView, "\n") {
		i := strings.IndexAny(l, "┤┼")
		if i < 0 {
			continue
		}
		lab := strings.TrimSpace(l[:i])
		if lab == "" {
			continue
		}
		n++
		x, err := theory.ParseNumber(lab)
		if err != nil || !(x > 0) {
			t.Errorf("y label %q is not a positive value", lab)
			continue
		}
		if m := x / math.Pow(10, math.Floor(math.Log10(x)+1e-9)); math.Abs(m-1) > 1e-6 && math.Abs(m-2) > 1e-6 && math.Abs(m-5) > 1e-6 {
			t.Errorf("y label %q is not at a decade or a 1-2-5 step", lab)
		}
	}
	if n < 2 {
		t.Errorf("%d y labels:\n%s", n, chartView)
	}
}

// TestTickLabelsOneFormat: an axis's ticks are written in one format —
// decimals when all are in [0.01, 1000), else m·10ᵉ for all of them (the
// form the form writes n in) — never "20000 50000 10⁵".
func TestTickLabelsOneFormat(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want string
	}{
		{[]float64{0.05, 0.1, 0.2, 0.5}, "0.05 0.1 0.2 0.5"},
		{[]float64{1000, 2000, 5000, 10000}, "10³ 2·10³ 5·10³ 10⁴"},
		{[]float64{20000, 50000, 1e5, 2e5}, "2·10⁴ 5·10⁴ 10⁵ 2·10⁵"},
		{[]float64{1e-4, 1e-3, 0.01, 0.1, 1}, "10⁻⁴ 10⁻³ 10⁻² 10⁻¹ 1"},
		{[]float64{1, 10, 100, 1000}, "1 10 10² 10³"},
	} {
		if got := strings.Join(tickLabels(c.in), " "); got != c.want {
			t.Errorf("tickLabels(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPresetCaptionSurvivesAChange: a loaded preset's caption (its next
// step first) stays on screen when the user changes what it asks for; the
// header names the change ("preset 4 · k changed"). Another preset
// replaces it.
func TestPresetCaptionSurvivesAChange(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
	i, err := PresetIndex("heavy tails")
	if err != nil {
		t.Fatal(err)
	}
	pump(t, m, m.loadPreset(i, true), func() bool { return prescReady(m) && settled(m) })
	if v := screenText(m); !strings.Contains(v, "preset 4: Heavy tails") || !strings.Contains(v, "next: "+Presets[i].next) {
		t.Fatalf("the loaded preset's caption:\n%s", v)
	}
	formKeys(t, m, "right", "right", "right")
	v := screenText(m)
	if m.form.Resolved().Spec.K != 4 || !strings.Contains(v, "preset 4 · k changed") || !strings.Contains(v, "next: "+Presets[i].next) {
		t.Errorf("after three → on k (k = %v) the caption is gone or does not name the change:\n%s", m.form.Resolved().Spec.K, v)
	}
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "C falls from 3400 to 470") {
		t.Errorf("the caption's story is gone:\n%s", v)
	}
	pump(t, m, m.loadPreset(0, false), func() bool { return prescReady(m) })
	if v := screenText(m); strings.Contains(v, "preset 4") || !strings.Contains(v, "preset 1: Moment clipping") {
		t.Errorf("another preset does not replace the caption:\n%s", v)
	}
}

// TestExplorePresetRunsAsTheListDoes: Options.PresetRun (dpso explore
// --preset N) loads the preset and starts its action, as choosing it in
// the list does; with flags over it (Options.Start) the caption stays
// and names what they changed.
func TestExplorePresetRunsAsTheListDoes(t *testing.T) {
	hard, _ := PresetIndex("hard instance")
	opts := testOpts(t, &fakeRunner{points: 3}, 100*time.Millisecond)
	opts.Preset, opts.PresetRun = hard, true
	m := newTestModelOpts(t, opts, nil, 132, 42)
	pump(t, m, nil, func() bool { return sweepSettled(m) })
	if m.shownKind() != sweepNKind || m.run() == nil || m.run().family != sweepNKind {
		t.Errorf("--preset %d: screen %s, run %v", hard+1, m.shownKind(), m.run())
	}
	start := Presets[hard].Spec
	start.Trials = 2
	opts.Start = &start
	m = newTestModelOpts(t, opts, nil, 132, 42)
	pump(t, m, nil, func() bool { return sweepSettled(m) })
	if v := screenText(m); !strings.Contains(v, "preset 8 · trials changed") || m.run() == nil {
		t.Errorf("--preset with --trials:\n%s", v)
	}
}

// TestEscReturnsToTheScreenBefore: esc goes back the way the user came
// (a screen's key pressed on it, too); loading a preset forgets the runs
// of the configuration before, so that after preset 8's sweep, m then esc
// is the sweep again and the chart draws no run of another configuration.
func TestEscReturnsToTheScreenBefore(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	hard, _ := PresetIndex("hard instance")
	pump(t, m, m.loadPreset(hard, true), func() bool { return sweepSettled(m) })
	if cs := m.chartScreen(); cs.run != nil {
		t.Errorf("after loading preset 8 the chart still holds run #%d of %s", cs.run.id, cs.run.spec.Spec.Scenario)
	}
	for _, step := range []struct {
		key  string
		want screenKind
	}{{"m", momentsKind}, {"esc", sweepNKind}, {"x", clipKind}, {"v", sweepEpsKind}, {"esc", clipKind}, {"x", sweepNKind}, {"esc", chartKind}, {"esc", chartKind}} {
		keyUntil(t, m, step.key, func() bool { return true })
		if got := m.shownKind(); got != step.want {
			t.Fatalf("after %s: screen %s, want %s", step.key, got, step.want)
		}
	}
}

// TestRunChartUsesItsRunsReferenceLines: after a change of parameters the
// chart still shows the run before, with that run's own w₀ and
// certificate, never the new configuration's.
func TestRunChartUsesItsRunsReferenceLines(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &linregT, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	w0 := m.run().cmp.Reports[0].W0.Mean
	m.form.SetFocus(fTail)
	formKeys(t, m, "right")
	if nw := m.chartScreen().presc.p.W0.Mean; nw == w0 {
		t.Fatalf("the change of ν kept F(w₀) − F* = %g: the test's premise is wrong", w0)
	}
	for _, s := range m.chartScreen().chart.Series() {
		if s.Kind == chart.Start && s.Value != w0 {
			t.Errorf("the chart draws w₀ = %g beside the run whose w₀ is %g", s.Value, w0)
		}
	}
	if v := screenText(m); !strings.Contains(v, "parameters changed since: press r") {
		t.Errorf("the chart does not say its run is of other parameters:\n%s", v)
	}
}

// TestPreviousRunTrace: a run of changed parameters is drawn over a faint
// trace of the one before, named by what changed.
func TestPreviousRunTrace(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	m.form.SetFocus(fEps)
	formKeys(t, m, "right")
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone && m.run().id == 2 })
	var trace *chart.Series
	for _, s := range m.chartScreen().chart.Series() {
		if s.Kind == chart.Trace {
			trace = &s
		}
	}
	if trace == nil || trace.Label != "acsa before (ε = 1)" || len(trace.Points) == 0 {
		t.Fatalf("no trace of the run before the change: %+v", trace)
	}
	if v := screenText(m); !strings.Contains(v, "acsa before (ε = 1)") {
		t.Errorf("the legend does not name the trace:\n%s", v)
	}
}

// TestSolverStepSkipsOtherClasses: → on the solver goes past the paper's
// solvers of the other classes (which the Spec refuses) to the next one
// that applies, without a refusal, and says what it skipped; ε says it is
// zCDP.
func TestSolverStepSkipsOtherClasses(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	m.form.SetFocus(fSolver)
	formKeys(t, m, "right")
	got := m.form.Resolved().Solver.Name()
	if d, _ := solvers.DescriptorOf(got); !d.Baseline() {
		t.Errorf("→ from acsa on smooth-convex reached %s", got)
	}
	if _, msg := m.form.Refusal(); msg != "" {
		t.Errorf("a refusal on the way: %s", msg)
	}
	if v := screenText(m); !strings.Contains(v, "skipped clipped-sgd") || !strings.Contains(v, "ε          1 zCDP, ρ = 0.5") {
		t.Errorf("the form does not say what it skipped, or ε's privacy model:\n%s", v)
	}
}

// TestSweepDrawsSlopeGuides: a sweep of n draws the paper's bounds as
// shapes through the measured points (anchor: their log-mean ratio to
// the measured means is 1), with their slopes; the measured points carry
// markers and the fitted line; the table sets the theory's slopes beside
// the measured one and says where the theory is not in force.
func TestSweepDrawsSlopeGuides(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "s", func() bool { return sweepSettled(m) })
	rep := m.sweepScreen().report()
	measured := means(rep, 0)
	kinds := map[chart.Kind]bool{}
	for _, s := range m.sweepScreen().chart.Series() {
		kinds[s.Kind] = true
		if s.Kind != chart.Upper && s.Kind != chart.Lower {
			continue
		}
		if !strings.HasSuffix(s.Label, "'s shape") || !strings.HasPrefix(s.Note, "slope ") {
			t.Errorf("guide %q %q is not labelled as a shape with its slope", s.Label, s.Note)
		}
		sum := 0.0
		for i, p := range s.Points {
			sum += math.Log(measured[i] / p.Y)
		}
		if math.Abs(sum/float64(len(s.Points))) > 1e-9 {
			t.Errorf("guide %q is not anchored to the measured points (mean log ratio %g)", s.Label, sum/float64(len(s.Points)))
		}
	}
	for _, k := range []chart.Kind{chart.Upper, chart.Lower, chart.Run, chart.Fit, chart.Start} {
		if !kinds[k] {
			t.Errorf("the sweep draws no series of kind %d", k)
		}
	}
	v := screenText(m)
	for _, want := range []string{"upper bound's shape slope", "●", "fitted line", "theory's slopes (rates)", "not yet in force"} {
		if !strings.Contains(v, want) {
			t.Errorf("the sweep screen lacks %q:\n%s", want, v)
		}
	}
	checkYLabelsAreValues(t, stripANSI(m.sweepScreen().View()))
}

// TestAnchor: the guide's factor is the geometric mean of the ratios, over
// the points where both values are positive and finite.
func TestAnchor(t *testing.T) {
	if got := anchor([]float64{2, 8, math.NaN()}, []float64{1, 2, 5}); math.Abs(got-math.Sqrt(8)) > 1e-12 {
		t.Errorf("anchor = %g, want √8", got)
	}
	if !math.IsNaN(anchor([]float64{0, math.Inf(1)}, []float64{1, 1})) {
		t.Error("anchor without a usable point is not NaN")
	}
}

// TestPointVerdict: a point is pre-asymptotic when the certificate is at
// or above w₀, when the upper rate is, or when localized-sc's stages are
// all at radius D; in force otherwise.
func TestPointVerdict(t *testing.T) {
	cert := func(v float64) engine.Certified {
		return engine.Certified{Cert: &theory.Certificate{ID: "c", Value: v}}
	}
	rep := func(w0, c, upper float64, phases []solvers.Phase) engine.SweepPoint {
		r := &engine.Report{W0: engine.Estimate{Mean: w0}, Certified: cert(c), Bounds: []theory.Bound{{ID: "u", Kind: theory.Upper, Value: upper}},
			Params: solvers.Params{Phases: phases}, Theory: scenarios.TheoryInputs{Diam: 2}}
		return engine.SweepPoint{Reports: []*engine.Report{r}}
	}
	for _, c := range []struct {
		name string
		p    engine.SweepPoint
		want string
	}{
		{"in force", rep(0.1, 0.05, 0.02, nil), ""},
		{"vacuous certificate", rep(0.1, 0.2, 0.02, nil), "certificate ≥ w₀"},
		{"upper rate above w₀", rep(0.1, 0.05, 0.3, nil), "upper rate ≥ w₀"},
		{"stages at D", rep(0.1, 0.05, 0.02, []solvers.Phase{{Stage: 1, Radius: 2}, {Stage: 2, Radius: 3}}), "every stage at radius D"},
		{"a stage inside D", rep(0.1, 0.05, 0.02, []solvers.Phase{{Stage: 1, Radius: 2}, {Stage: 2, Radius: 1}}), ""},
	} {
		if got := pointVerdict(c.p); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPartialSweepPoints: a running sweep's points are the means of the
// trials finished so far, in trial order.
func TestPartialSweepPoints(t *testing.T) {
	r := &run{job: job{call: callSweep, names: []string{"acsa"}, sweep: engine.SweepSpec{Param: spec.SweepN, From: 100, To: 400, Points: 3}},
		spec: spec.Resolved{Spec: spec.Spec{Trials: 3}}, finals: map[[3]int]float64{{0, 0, 0}: 1, {0, 2, 0}: 3, {0, 1, 2}: 5}}
	xs, ms, ns := r.partialMeans(0)
	if len(xs) != 3 || ms[0] != 2 || ns[0] != 2 || ns[1] != 0 || ms[2] != 5 || ns[2] != 1 {
		t.Errorf("partialMeans: %v %v %v", xs, ms, ns)
	}
}

// TestSweepScreensOfDAndK: d and k are sweepable from the explorer, each
// with its grid inside what the Spec allows (k up to the largest order
// whose moments the data have), or with why there is none.
func TestSweepScreensOfDAndK(t *testing.T) {
	lt := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, Tail: 10})
	sw, why := sweepKAxis.grid(lt)
	if why != "" || sw.From != 2 || sw.To != 4 {
		t.Errorf("k sweep on linreg-t, ν = 10: %+v %q, want 2 … 4 (r̃_k exists for k < 5)", sw, why)
	}
	sw, why = sweepDAxis.grid(lt)
	if why != "" || sw.From != 1 || sw.To != 40 {
		t.Errorf("d sweep on linreg-t, d = 10: %+v %q, want 1 … 40", sw, why)
	}
	if _, why := sweepDAxis.grid(mustResolve(t, example1)); !strings.Contains(why, "fixed dimension") {
		t.Errorf("d sweep on example1: %q", why)
	}
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	for _, k := range []string{"d", "o"} {
		keyUntil(t, m, k, func() bool { return true })
		if !strings.Contains(strconv.Quote(string(m.shownKind())), "sweep-") {
			t.Errorf("%s shows %s", k, m.shownKind())
		}
	}
}
