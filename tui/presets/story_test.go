package presets

import (
	"fmt"
	"os"
	"path/filepath"
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
			f := pinned[p.Title]
			used := map[string]bool{}
			for _, tt := range p.AllTemplates() {
				tmpl := tt.Text
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
		for _, tt := range p.AllTemplates() {
			what, tmpl := tt.What, p.fill(tt.Text) // as shown: no placeholder's name
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
		for _, tt := range p.AllTemplates() {
			if !tt.Caption || strings.HasPrefix(tt.What, "next") {
				continue
			}
			what, s := tt.What, p.fill(tt.Text)
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

// TestCaptionsStateRatesAsTheBounds: a caption that gives a power law
// ("like ε^(−(2k−2)/k)") gives it as a term of the theorem's bound — a
// rate with its constants set to 1 — in the same sentence, never as the
// law of a measured quantity (the noise floor moves by a slope that a
// sweep measures).
func TestCaptionsStateRatesAsTheBounds(t *testing.T) {
	power := regexp.MustCompile(`like [εnd]\^`)
	for _, p := range All {
		for _, tt := range p.AllTemplates() {
			if !tt.Caption {
				continue
			}
			for _, sentence := range strings.Split(p.fill(tt.Text), ". ") {
				if power.MatchString(sentence) && !strings.Contains(sentence, "bound") {
					t.Errorf("%s: its %s states a power law without saying it is the bound's: %q", p.Title, tt.What, sentence)
				}
			}
		}
	}
}

// TestREADMETourNamesTheStep: where a preset has a step with a caption of
// its own (preset 9's ← on n to n = 10³, preset 4's → on k to k = 4), the
// README's tour row names that step by the field it changes and does not promise what the step's run does not
// show ("where it stops paying": the search still pays there).
func TestREADMETourNamesTheStep(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range All {
		step, ok := p.Step()
		if !ok {
			continue
		}
		_, row, _ := strings.Cut(string(b), fmt.Sprintf("| %d | %s | ", i+1, p.Title))
		row, _, _ = strings.Cut(row, "\n")
		n := fmt.Sprintf("n = 10%s", map[int]string{1000: "³", 10000: "⁴", 100000: "⁵"}[step.N])
		if step.K != p.Spec.K {
			n = fmt.Sprintf("k = %g", step.K)
		}
		if !strings.Contains(row, n) || strings.Contains(row, "stops paying") {
			t.Errorf("the README's row for preset %d does not name its step (%s) or promises what it does not show: %q", i+1, n, row)
		}
	}
}
