package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui"
	"dpso/tui/presets"
)

// exploreCapture runs dpso with args as if on a terminal, capturing the
// options the explorer would be opened with (nil: it was not opened).
func exploreCapture(args ...string) (int, *tui.Options, string) {
	var out, errb bytes.Buffer
	var got *tui.Options
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, isTTY: func() bool { return true },
		explorer: func(_ context.Context, o tui.Options) error { got = &o; return nil }}
	code := e.execute(args)
	return code, got, errb.String()
}

// TestExploreRoundTrip: a Spec's reproduce arguments
// (spec.Spec.Args, what the explorer's reproduce line shows after
// "dpso run") given to `dpso explore` open the explorer on a Spec with the
// same Resolved — the other direction of the round trip the run command's
// TestArgsRoundTrip checks.
func TestExploreRoundTrip(t *testing.T) {
	l2 := 0.3
	data := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(data, []byte("1,2,3\n0.5,-1,2\n2,1,0\n-1,0.5,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specs := []spec.Spec{
		{Scenario: scenarios.LinRegT, N: 20000},
		{Scenario: scenarios.LinRegT, Solver: "lipschitz-dpsgd"},
		{Scenario: scenarios.HingeT, Class: theory.NonsmoothSC, Tail: 12, K: 3, Lambda2: &l2, Params: map[string]float64{"noise": 0.25}, Trials: 3, Seed: 42},
		{Scenario: scenarios.Contaminated, Eps: 0.5, Oracle: "shuffle-clip", Delta: 1e-7, Lf: 1e6},
		{Scenario: scenarios.LinRegT, Iters: 5, Clip: 2.5, Step: 0.1, Workers: 1, WorkBudget: 1000000, Rand: "secure"},
		{Data: data, Loss: "squared", Rk: 3, Beta: 1},
	}
	for _, p := range presets.All {
		specs = append(specs, p.Spec)
	}
	for _, s := range specs {
		t.Run(caseName(s.Args()), func(t *testing.T) {
			want, err := s.Resolve()
			if err != nil {
				t.Fatalf("%+v: %v", s, err)
			}
			args := append([]string{"explore"}, s.Args()...)
			code, opts, errs := exploreCapture(args...)
			if code != 0 || opts == nil || opts.Start == nil {
				t.Errorf("%s: status %d, options %+v: %s", strings.Join(args, " "), code, opts, errs)
				return
			}
			got, err := opts.Start.Resolve()
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: opened on %+v (%v), want the Resolved of %+v", strings.Join(args, " "), got.Spec, err, want.Spec)
			}
		})
	}
}

// TestExploreFlags: --preset by number or title, with run flags over it,
// starting its run as the list does; --out, --theme, --live-max; plain
// dpso and explore without flags open the first preset without running;
// every invalid value exits 2 before the explorer opens, as in dpso run.
func TestExploreFlags(t *testing.T) {
	code, o, _ := exploreCapture()
	if code != 0 || o == nil || o.Start != nil || o.Preset != 0 || o.PresetRun {
		t.Errorf("dpso: %d %+v", code, o)
	}
	code, o, _ = exploreCapture("explore", "--preset", "hard instance")
	if code != 0 || o == nil || o.Start != nil || o.Preset != 7 || !o.PresetRun {
		t.Errorf("--preset: %d %+v", code, o)
	}
	code, o, _ = exploreCapture("explore", "--theme", "high-contrast", "--live-max", "5s")
	if code != 0 || o == nil || o.Start != nil || o.Theme != "high-contrast" || o.LiveMax != 5*time.Second {
		t.Errorf("--theme high-contrast --live-max 5s: %d %+v", code, o)
	}
	code, o, _ = exploreCapture("explore", "--preset", "4", "--screen", "clip")
	if code != 0 || o == nil || o.Preset != 3 || !o.PresetRun || o.Screen != "clip" {
		t.Errorf("--preset 4 --screen clip: %d %+v", code, o)
	}
	dir := t.TempDir()
	code, o, errs := exploreCapture("explore", "--preset", "3", "--trials", "16", "--n", "50000", "--out", dir)
	want := presets.All[2].Spec.Clone()
	want.Trials, want.N = 16, 50000
	if code != 0 || o == nil || o.Start == nil || !reflect.DeepEqual(*o.Start, want) || o.ExportDir != dir {
		t.Errorf("--preset 3 --trials 16 --n 50000: %d %+v (%s); want Start %+v", code, o, errs, want)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", "--scenario", "nope"}, "--scenario: unknown scenario"},
		{[]string{"explore", "--scenario", "hinge-t", "--tail", "2.5"}, "--tail: localized needs r̃_2k"},
		{[]string{"explore", "--preset", "nope"}, "--preset: no preset's title contains"},
		{[]string{"explore", "--preset", "3", "--eps", "-1"}, "--eps:"},
		{[]string{"explore", "--out", filepath.Join(dir, "missing")}, "--out:"},
		{[]string{"explore", "--out", file}, "is not a folder"},
		{[]string{"explore", "--theme", "solarized"}, "--theme: \"solarized\" is not dark, light or high-contrast"},
		{[]string{"explore", "--live-max", "0s"}, "--live-max:"},
		{[]string{"explore", "--live-max", "abc"}, "--live-max: \"abc\" is not a duration (a number and its unit: 500ms, 30s, 15m, 1h)"},
		{[]string{"explore", "--screen", "charts"}, "--screen: \"charts\" is not a screen of the explorer (want chart, sweep, clip,"},
		{[]string{"explore", "--screen", ""}, "--screen: an empty value is not allowed"},
		{[]string{"explore", "--data", filepath.Join(dir, "missing.csv")}, "--data:"},
		{[]string{"explore", "--rand", "secure", "--seed", "5"}, "--seed: secure randomness reads no seed"},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, o, errs := exploreCapture(c.args...)
			if code != 2 || o != nil || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("%s: status %d, opened %v, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, o != nil, errs, c.want)
			}
		})
	}
	// Without a terminal: the headless commands are named, exit 2.
	code, _, errs = dpsoCLI("explore", "--scenario", "linreg-t")
	if code != 2 || !strings.Contains(errs, "needs an interactive terminal") {
		t.Errorf("explore without a terminal: %d %q", code, errs)
	}
}

// TestExploreScreenSaysWhatRuns: --screen's usage says what opening a
// screen starts, as the explorer does it (tried at 132×42: --preset 4
// --screen clip, sweep, sweep-eps, sweep-d, sweep-k, tune and audit start
// their run at once; chart and moments wait for r): the preset's own run
// waits, the screen's does not.
func TestExploreScreenSaysWhatRuns(t *testing.T) {
	usage := newExploreCmd(&env{}).Flags().Lookup("screen").Usage
	for _, want := range []string{"a screen that runs what it shows (the sweeps, clip, tune, audit) starts that run", "the chart and moments wait for r", "with --preset, the preset's own run waits for r"} {
		if !strings.Contains(usage, want) {
			t.Errorf("--screen's usage %q does not say %q", usage, want)
		}
	}
}
