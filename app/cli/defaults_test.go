package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"dpso/internal/report"
)

// TestListShowsTheDefaultsARunUses: for every scenario
// and class, the n and k that `dpso list --json` gives are those that
// `dpso run --dry-run --json` with only --scenario and --class resolves
// to; on main, list said n = 10000 for hinge-t while a run used 1024.
func TestListShowsTheDefaultsARunUses(t *testing.T) {
	code, out, errs := dpsoCLI("list", "--json")
	if code != 0 {
		t.Fatalf("list --json: %d %s", code, errs)
	}
	var l report.ListJSON
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range l.Scenarios {
		if len(s.Defaults) != len(s.Classes) {
			t.Errorf("%s: defaults for %d classes, want %d", s.Name, len(s.Defaults), len(s.Classes))
		}
		for i, c := range s.Defaults {
			code, out, errs := dpsoCLI("run", "--scenario", s.Name, "--class", c.Class, "--dry-run", "--json")
			if c.Error != "" {
				if code != 2 || !strings.Contains(errs, "--"+c.Flag+":") {
					t.Errorf("%s %s: list says it needs --%s; run: %d %q", s.Name, c.Class, c.Flag, code, errs)
				}
				continue
			}
			if code != 0 {
				t.Errorf("%s %s: run --dry-run: %d %s", s.Name, c.Class, code, errs)
				continue
			}
			var r struct {
				N      int     `json:"n"`
				K      float64 `json:"k"`
				Solver string  `json:"solver"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.N != c.N || r.K != c.K || r.Solver != c.Solver {
				t.Errorf("%s %s: list says n = %d, k = %g, %s; a run uses n = %d, k = %g, %s", s.Name, c.Class, c.N, c.K, c.Solver, r.N, r.K, r.Solver)
			}
			if i == 0 && (s.N != c.N || s.K != c.K) {
				t.Errorf("%s: top-level n, k = %d, %g, want the default class's %d, %g", s.Name, s.N, s.K, c.N, c.K)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("checked %d (scenario, class) pairs, want every one of the catalogue's", checked)
	}
}

// TestDefaultsInTextAndHelp: the text of `dpso list` and the table of
// `dpso run`'s reference give hinge-t's per-class defaults (n = 1024, k = 4
// for nonsmooth-convex; 2048 for nonsmooth-sc: the values
// TestNonsmoothDefaults derives from the work budget), and a run whose
// default n moved says so in its notes.
func TestDefaultsInTextAndHelp(t *testing.T) {
	_, list, _ := dpsoCLI("list")
	for _, w := range []string{"nonsmooth-convex (localized): n = 1024, k = 4", "nonsmooth-sc (localized-sc): n = 2048, k = 4", "ν = 10 in (1, 200]"} {
		if !strings.Contains(list, w) {
			t.Errorf("dpso list lacks %q", w)
		}
	}
	ref := runDetails()
	row := regexp.MustCompile(`(?m)^  hinge-t +1024 +4 +10 +6 .*nonsmooth-convex\n +2048 +4 +nonsmooth-sc$`)
	if !row.MatchString(ref) {
		t.Errorf("run's reference lacks hinge-t's rows n = 1024, k = 4 (nonsmooth-convex), 2048 (nonsmooth-sc):\n%s", ref)
	}
	for _, c := range []struct {
		args []string
		note string
	}{
		{[]string{"--scenario", "hinge-t"}, "n = 1024 (the default for class nonsmooth-convex; the catalogue's is 10000): the largest n whose full localized schedule at k = 4 fits the work budget"},
		{[]string{"--scenario", "hinge-t", "--class", "nonsmooth-sc"}, "n = 2048 (the default for class nonsmooth-sc"},
		{[]string{"--scenario", "hinge-t", "--tail", "6"}, "k = 2, not hinge-t's usual 4: the moments localized needs at k = 4 do not exist at ν = 6"},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			_, out, errs := dpsoCLI(append([]string{"run", "--dry-run"}, c.args...)...)
			if !strings.Contains(out, c.note) {
				t.Errorf("run %s: notes lack %q\n%s%s", strings.Join(c.args, " "), c.note, out, errs)
			}
		})
	}
	// An explicit n is the user's: no note about it.
	_, out, _ := dpsoCLI("run", "--dry-run", "--scenario", "hinge-t", "--n", "2000")
	if strings.Contains(out, "the default for class") {
		t.Errorf("an explicit --n gets a default's note:\n%s", out)
	}
}
