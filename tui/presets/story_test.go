package presets

import (
	"regexp"
	"strings"
	"testing"

	"dpso/solvers"
)

// TestPresetTextsFill: every preset's texts fill from its pinned facts —
// no placeholder without a fact, none left in the text, no pinned fact
// that no text reads.
func TestPresetTextsFill(t *testing.T) {
	for _, p := range All {
		t.Run(p.Title, func(t *testing.T) {
			caption, afterR, afterC, text, next := p.Templates()
			f := pinned[p.Title]
			used := map[string]bool{}
			for _, tmpl := range []string{caption, afterR, afterC, text, next} {
				s, err := Fill(tmpl, f)
				if err != nil || placeholder.MatchString(s) {
					t.Errorf("%q: %v", s, err)
				}
				for _, sub := range placeholder.FindAllStringSubmatch(tmpl, -1) {
					used[sub[1]] = true
					if sub[2] == "±" {
						used[sub[1]+"_se"] = true
					}
				}
			}
			for n := range f {
				if !used[n] {
					t.Errorf("pinned fact %s is read by no text", n)
				}
			}
		})
	}
}

// TestPresetTextsUseLegendNames: a preset's text that describes a solver
// by its long name ("noisy clipped proximal SGD") names it as the
// explorer's legend does ("prox-sgd") in the same text, so that a student
// matches the words to the curve.
func TestPresetTextsUseLegendNames(t *testing.T) {
	for _, p := range All {
		caption, afterR, afterC, text, _ := p.Templates()
		for what, tmpl := range map[string]string{"caption": caption, "caption after r": afterR, "caption after c": afterC, "text": text} {
			tmpl = p.fill(tmpl) // as shown: no placeholder's name
			low := strings.ToLower(tmpl)
			for _, d := range solvers.Descriptors() {
				name := d.Solver.Name()
				if strings.Contains(low, strings.ToLower(d.Legend)) && !strings.Contains(tmpl, name) {
					t.Errorf("%s: its %s says %q without the legend's name %s", p.Title, what, d.Legend, name)
				}
			}
		}
	}
}

// captionProse are the short prose names the captions give solvers, with
// the legend's name of each: a caption, read beside the legend a line
// below, names a solver as the legend does.
var captionProse = []struct{ prose, legend string }{
	{"Lipschitz DP-SGD", "lipschitz-dpsgd"},
	{"AC-SA", "acsa"},
	{"DP-SGD", "dp-sgd"},
	{"KLZ", "klz-gd"},
	{"clipped SGD", "clipped-sgd"},
	{"proximal SGD", "prox-sgd"},
}

// TestCaptionsUseLegendNames: a caption (before a run, after r, after c)
// names each solver by the legend's name; a prose name ("AC-SA") stands
// only as an explanation beside the legend's, "AC-SA (acsa)" or
// "prox-sgd (noisy clipped proximal SGD)" — at
// the caption's width a student reads both lines at once, and a name the
// legend does not have reads as a curve not drawn.
func TestCaptionsUseLegendNames(t *testing.T) {
	for _, p := range All {
		caption, afterR, afterC, _, _ := p.Templates()
		for what, tmpl := range map[string]string{"caption": caption, "caption after r": afterR, "caption after c": afterC} {
			s := p.fill(tmpl)
			for _, n := range captionProse {
				explained := n.prose + " (" + n.legend + ")"
				rest := strings.ReplaceAll(s, explained, "")
				// "prox-sgd (noisy clipped proximal SGD)": the legend's
				// name, explained.
				rest = regexp.MustCompile(regexp.QuoteMeta(n.legend)+` \([^)]*\)`).ReplaceAllString(rest, "")
				for _, longer := range captionProse {
					if longer.prose != n.prose && strings.Contains(longer.prose, n.prose) {
						rest = strings.ReplaceAll(rest, longer.prose, "")
					}
				}
				if strings.Contains(rest, n.prose) {
					t.Errorf("%s: its %s says %q where the legend says %s: %q", p.Title, what, n.prose, n.legend, s)
				}
			}
		}
	}
}
