package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpso/internal/plot"
	"dpso/internal/testutil/plotcheck"
)

// plotCases are the figures --plot writes: a run, a comparison, a sweep
// over n, the clipping trade-off and the moment profile (one whose title
// takes three lines: a contradicted constant), at the default size, and
// a run at --plot-size 1280x720.
var plotCases = []struct {
	name string
	args []string
	w, h int
}{
	{"run", slices.Clone(runArgs), plot.DefaultWidth, plot.DefaultHeight},
	{"comparison", append(slices.Clone(runArgs), "--solvers", "acsa,nonprivate-schedule,klz-gd"), plot.DefaultWidth, plot.DefaultHeight},
	{"sweep-n", slices.Clone(sweepArgs), plot.DefaultWidth, plot.DefaultHeight},
	{"clip", []string{"sweep", "--scenario", "linreg-t", "--class", "smooth-sc", "--d", "3", "--n", "2000", "--trials", "2", "--seed", "3", "--vary", "clip", "--points", "4"}, plot.DefaultWidth, plot.DefaultHeight},
	{"moments", []string{"moments", "--scenario", "linreg-t", "--tail", "10", "--d", "1", "--lf", "1e6"}, plot.DefaultWidth, plot.DefaultHeight},
	{"run-720", append(slices.Clone(runArgs), "--plot-size", "1280x720"), 1280, 720},
}

// TestPlotFiguresAreSlides: every figure --plot writes is 16:9 at its
// size — the PNG's bounds, the SVG's size and viewBox — and, read from
// the PNG alone (plotcheck: the rows of the measured series' colours
// inside the axes), its data fill at least half its height.
func TestPlotFiguresAreSlides(t *testing.T) {
	dir := t.TempDir()
	for _, c := range plotCases {
		t.Run(c.name, func(t *testing.T) {
			for _, ext := range []string{".png", ".svg"} {
				path := filepath.Join(dir, c.name+ext)
				if code, _, errs := dpsoCLI(append(slices.Clone(c.args), "--plot", path)...); code != 0 {
					t.Fatalf("--plot %s: status %d: %s", ext, code, errs)
				}
				f, err := plotcheck.Read(path)
				if err != nil {
					t.Fatal(err)
				}
				if f.Width != c.w || f.Height != c.h || !f.Is16x9() {
					t.Errorf("%s: %d×%d, viewBox %v: want 16:9 at %d×%d", ext, f.Width, f.Height, f.ViewBox, c.w, c.h)
				}
				if ext == ".png" {
					if fill := f.DataFill(); fill < 0.5 {
						t.Errorf("the data fill rows %d…%d, %.3f of the height (want ≥ 0.5); axes %v", f.DataTop, f.DataBottom, fill, f.Axes)
					}
				}
			}
		})
	}
}

// TestPlotHideLeavesPartsOut: --plot-hide certificates leaves the
// certificates out of a run's figure and --plot-hide bounds the slope
// guides out of a sweep's (their words are gone from the SVG; the
// measured series stay), while without it they are drawn.
func TestPlotHideLeavesPartsOut(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, hide, word string
		args             []string
	}{
		{"run", "certificates", "certified", slices.Clone(runArgs)},
		{"sweep", "bounds", "slope guide", slices.Clone(sweepArgs)},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, hide := range []bool{false, true} {
				args := slices.Clone(c.args)
				path := filepath.Join(dir, c.name+".svg")
				if hide {
					args = append(args, "--plot-hide", c.hide)
					path = filepath.Join(dir, c.name+"-hidden.svg")
				}
				if code, _, errs := dpsoCLI(append(args, "--plot", path)...); code != 0 {
					t.Fatalf("%s: status %d: %s", c.name, code, errs)
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(string(b), c.word); got == hide {
					t.Errorf("%s --plot-hide %s=%v: %q in the figure: %v", c.name, c.hide, hide, c.word, got)
				}
				if !strings.Contains(string(b), "noisy clipped") {
					t.Errorf("%s: the measured series' legend is missing", c.name)
				}
			}
		})
	}
}

// TestMomentsPlot: dpso moments --plot draws the profile of the problem
// (on user data: titled NOT PRIVATE, naming the file, its d its columns'),
// refuses --force and --plot-size without --plot and a format it cannot
// write, naming the flag, and offers neither --plot-hide (nothing to
// hide) nor --constants (the profile runs nothing).
func TestMomentsPlot(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join("..", "..", exampleData)
	path := filepath.Join(dir, "rows.svg")
	if code, _, errs := dpsoCLI("moments", "--data", data, "--plot", path); code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"NOT PRIVATE: computed on your rows", "linreg-t-d3.csv (user data, squared loss)", "d = 3,", "estimated, not private"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the user data's moment profile lacks %q", want)
		}
	}
	checkInvalid(t, []invalidRun{
		{[]string{"moments", "--force"}, []string{"--force:", "give --plot FILE"}},
		{[]string{"moments", "--plot-size", "1280x720"}, []string{"--plot-size:", "give --plot FILE"}},
		{[]string{"moments", "--plot", filepath.Join(dir, "m.pdf")}, []string{"--plot:", ".png or .svg"}},
		{[]string{"moments", "--plot", filepath.Join(dir, "m.png"), "--plot-hide", "bounds"}, []string{"--plot-hide"}},
		{[]string{"moments", "--constants", "private"}, []string{"--constants"}},
	})
	if _, err := os.Stat(filepath.Join(dir, "m.png")); !os.IsNotExist(err) {
		t.Errorf("a refused --plot left a file (%v)", err)
	}
}
