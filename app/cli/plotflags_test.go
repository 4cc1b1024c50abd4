package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpso/internal/testutil/plotcheck"
)

// TestPlotSizeAndHide: --plot-size sets the figure's size (and
// --plot-hide is accepted beside it), for run and moments alike (the
// default size and the figures' shape: TestPlotFiguresAreSlides); both
// are refused without --plot, and a bad value names the flag.
func TestPlotSizeAndHide(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		w, h int
	}{
		{"run-small.png", append(slices.Clone(runArgs), "--plot-size", "1280x720", "--plot-hide", "certificates,trials"), 1280, 720},
		{"moments-4k.png", []string{"moments", "--scenario", "example1", "--plot-size", "3840x2160"}, 3840, 2160},
		{"moments-4x3.png", []string{"moments", "--scenario", "example1", "--plot-size", "1600x1200"}, 1600, 1200},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if code, _, errs := dpsoCLI(append(c.args, "--plot", path)...); code != 0 {
				t.Fatalf("%s: status %d: %s", c.name, code, errs)
			}
			w, h, err := plotcheck.PNGSize(path)
			if err != nil {
				t.Fatal(err)
			}
			if w != c.w || h != c.h {
				t.Errorf("%s: %d×%d, want %d×%d", c.name, w, h, c.w, c.h)
			}
		})
	}
	checkInvalid(t, []invalidRun{
		{append(slices.Clone(runArgs), "--plot-size", "1280x720"), []string{"--plot-size:", "give --plot FILE"}},
		{append(slices.Clone(runArgs), "--plot-hide", "bounds"), []string{"--plot-hide:", "give --plot FILE"}},
		{append(slices.Clone(runArgs), "--plot", filepath.Join(dir, "x.png"), "--plot-size", "12x9"), []string{"--plot-size:", "320 to 7680 pixels"}},
		{append(slices.Clone(runArgs), "--plot", filepath.Join(dir, "x.png"), "--plot-size", "big"), []string{"--plot-size:", "WIDTHxHEIGHT"}},
		{append(slices.Clone(runArgs), "--plot", filepath.Join(dir, "x.png"), "--plot-hide", "legend"), []string{"--plot-hide:", "bounds, certificates, trials"}},
		{[]string{"moments", "--plot-size", "1280x720"}, []string{"--plot-size:", "give --plot FILE"}},
		{[]string{"moments", "--plot", filepath.Join(dir, "m.pdf")}, []string{"--plot:", ".png or .svg"}},
	})
	if _, err := os.Stat(filepath.Join(dir, "x.png")); !os.IsNotExist(err) {
		t.Errorf("a refused --plot left a file (%v)", err)
	}
}

// TestMomentsFlagsContradictedConstant: a constant given by a flag that
// the scenario contradicts — --lf 10⁶ for Student-t data (ν = 10), whose
// L_f is ∞ and r̃_k ∞ from k = 5 on — is flagged in the table (⚠ and a
// sentence) and in JSON ("contradictions", with the scenario's value null
// for ∞); a given constant the scenario allows (a larger r̃_2) and no given
// constant are not. At d = 1 (r̃_2 = 4.19, r̃_4 = 11.9), where the
// profile's sups are at w = ±R, with no search over an arc: what is read
// is the flags' contradictions, the same at every d.
func TestMomentsFlagsContradictedConstant(t *testing.T) {
	base := []string{"moments", "--scenario", "linreg-t", "--tail", "10", "--d", "1"}
	for _, c := range []struct {
		args  []string
		field string
	}{
		{[]string{"--lf", "1e6"}, "lf"},
		{[]string{"--k", "2", "--rk", "1"}, "rk"},
		{[]string{"--k", "2", "--rk", "10"}, ""}, // between r̃_2 and r̃_4 = 11.9
		{nil, ""},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, errs := dpsoCLI(append(slices.Clone(base), c.args...)...)
			if code != 0 {
				t.Fatalf("%v: status %d: %s", c.args, code, errs)
			}
			flagged := strings.Contains(out, "⚠ the given ") && strings.Contains(out, "the bound it declares is false for these data")
			if flagged != (c.field != "") {
				t.Errorf("%v: the table flags a contradiction: %v:\n%s", c.args, flagged, out)
			}
			if c.field == "lf" && !strings.Contains(out, "⚠ the given L_f = 10⁶ is below the scenario's own L_f = ∞ (r̃_k = ∞ already for k ≥ 5") {
				t.Errorf("--lf 1e6: the table does not say the scenario's L_f is ∞:\n%s", out)
			}
			code, out, errs = dpsoCLI(append(append(slices.Clone(base), c.args...), "--json")...)
			if code != 0 {
				t.Fatalf("%v --json: status %d: %s", c.args, code, errs)
			}
			var j struct {
				Contradictions []struct {
					Field    string   `json:"field"`
					Given    float64  `json:"given"`
					Scenario *float64 `json:"scenario"`
					Text     string   `json:"text"`
				} `json:"contradictions"`
			}
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatal(err)
			}
			switch {
			case c.field == "" && len(j.Contradictions) != 0:
				t.Errorf("%v: JSON contradictions %+v, want none", c.args, j.Contradictions)
			case c.field != "" && (len(j.Contradictions) != 1 || j.Contradictions[0].Field != c.field):
				t.Errorf("%v: JSON contradictions %+v, want one of %s", c.args, j.Contradictions, c.field)
			case c.field == "lf" && (j.Contradictions[0].Given != 1e6 || j.Contradictions[0].Scenario != nil):
				t.Errorf("--lf: JSON %+v, want given 10⁶ and the scenario's null (∞)", j.Contradictions[0])
			}
		})
	}
}
