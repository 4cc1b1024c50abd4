package presets

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"dpso/internal/spec"
	"dpso/theory"
	"dpso/tui/runs"
)

// Facts are the numbers a preset's texts quote, by name: each computed
// from the preset's pinned runs (its own Spec and the runs its text
// describes, at seed 0) by the tests that check its story
// (tui/screens' TestPreset…), which write them to facts.json
// (DPSO_UPDATE_GOLDEN=1) and fail when a run gives a number other than
// the one the text quotes. No number of a story is typed: the texts are
// templates over these.
type Facts map[string]float64

// factsJSON is every preset's pinned facts, by title.
//
//go:embed facts.json
var factsJSON []byte

// pinned is factsJSON read.
var pinned = func() map[string]Facts {
	var m map[string]Facts
	if err := json.Unmarshal(factsJSON, &m); err != nil {
		panic("presets: facts.json: " + err.Error())
	}
	return m
}()

// placeholder is a template's {name} or {name<form>}: form ± writes
// name ± name_se, % a fraction as a percentage, # a count in full, × a
// ratio with two digits and "×"; none the value (theory.Human).
var placeholder = regexp.MustCompile(`\{([a-z][a-z0-9_]*)([±%#×]?)\}`)

// percentFormat and ratioFormat write percentages and ratios: two
// significant digits.
var (
	percentFormat = theory.NumberFormat{Digits: 2, Pretty: true, PosInf: "∞", NegInf: "−∞", NaN: "—"}
	seFormat      = percentFormat
)

// Fill writes template t with facts f: every placeholder replaced by its
// fact, formatted by its form (see placeholder). An error names a
// placeholder without a fact.
func Fill(t string, f Facts) (string, error) {
	var missing []string
	out := placeholder.ReplaceAllStringFunc(t, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		name, form := sub[1], sub[2]
		v, ok := f[name]
		if !ok {
			missing = append(missing, name)
			return m
		}
		switch form {
		case "±":
			se, ok := f[name+"_se"]
			if !ok {
				missing = append(missing, name+"_se")
				return m
			}
			return theory.Human.Format(v) + " ± " + seFormat.Format(se)
		case "%":
			if v == 0 {
				return "0%"
			}
			return percentFormat.Format(100*v) + "%"
		case "#":
			if math.IsInf(v, 1) {
				return "∞"
			}
			return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
		case "×":
			return percentFormat.Format(v) + "×"
		}
		return theory.Human.Format(v)
	})
	if len(missing) > 0 {
		return out, fmt.Errorf("no fact %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// fill is Fill over the preset's pinned facts; a template it cannot fill
// (a fact missing: the tests keep that from happening) is returned with
// its placeholders.
func (p Preset) fill(t string) string {
	s, _ := Fill(t, pinned[p.Title])
	return s
}

// Caption is the preset's gist on screen, filled with its pinned facts
// (its run at seed 0: Seed0Note says so where the noise differs), while
// the chart draws no run or its action's.
func (p Preset) Caption() string { return p.fill(p.caption) }

// Drawn is what the chart draws, for the caption: nothing yet, r's run
// (the form's solver and the preset's versus solvers) or c's comparison
// with every baseline.
type Drawn int

const (
	DrawnNone Drawn = iota
	DrawnR
	DrawnC
)

// CaptionOn is the caption while the chart draws d: the preset's caption
// for r's run or c's comparison where it has one, else Caption.
func (p Preset) CaptionOn(d Drawn) string {
	switch {
	case d == DrawnR && p.afterR != "":
		return p.fill(p.afterR)
	case d == DrawnC && p.afterC != "":
		return p.fill(p.afterC)
	}
	return p.Caption()
}

// NextOn is the next step while the chart draws d: what follows r where
// the chart draws r's run (or c's, which includes it) and the preset has
// such a step, else Next.
func (p Preset) NextOn(d Drawn) string {
	if d != DrawnNone && p.nextR != "" {
		return p.fill(p.nextR)
	}
	return p.Next()
}

// Step is the preset's Spec after its next step ("← on n three times"),
// ok false when it has none with a caption of its own.
func (p Preset) Step() (s spec.Spec, ok bool) {
	return p.step, p.stepCaption != ""
}

// StepCaption and StepNext are the caption and the next step while the
// form holds Step's Spec.
func (p Preset) StepCaption() string { return p.fill(p.stepCaption) }

// StepNext is the next step while the form holds Step's Spec.
func (p Preset) StepNext() string { return p.fill(p.stepNext) }

// SweepCaption is the caption while the screen of kind is shown, where
// the preset has one for it (another sweep than its own), ok false
// elsewhere.
func (p Preset) SweepCaption(kind runs.ScreenKind) (string, bool) {
	t, ok := p.sweepCaptions[kind]
	if !ok {
		return "", false
	}
	return p.fill(t), true
}

// Text is the preset's story (the presets list, the help), filled with
// its pinned facts.
func (p Preset) Text() string { return p.fill(p.text) }

// Next is the step the preset asks for, filled with its pinned facts.
func (p Preset) Next() string { return p.fill(p.next) }

// Templates are the preset's texts before they are filled: the captions
// (while nothing or its action's run is drawn, then after r and after c
// where they differ: "" where not), the story and the next step.
func (p Preset) Templates() (caption, afterR, afterC, text, next string) {
	return p.caption, p.afterR, p.afterC, p.text, p.next
}

// Template is one of a preset's texts before it is filled, by what it is.
type Template struct {
	// What names it ("caption", "caption after r", "next after its
	// step", "caption on sweep-eps", …); Caption is whether it is shown
	// under the header (a caption or a next step), not the list's story.
	What    string
	Caption bool
	Text    string
}

// AllTemplates are every text of the preset before it is filled, the
// empty ones left out: Templates' and those of its step, of the other
// sweeps and the next step after r.
func (p Preset) AllTemplates() []Template {
	all := []Template{{"caption", true, p.caption}, {"caption after r", true, p.afterR}, {"caption after c", true, p.afterC},
		{"text", false, p.text}, {"next", true, p.next}, {"next after r", true, p.nextR},
		{"caption after its step", true, p.stepCaption}, {"next after its step", true, p.stepNext}}
	kinds := make([]string, 0, len(p.sweepCaptions))
	for k := range p.sweepCaptions {
		kinds = append(kinds, string(k))
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		all = append(all, Template{"caption on " + k, true, p.sweepCaptions[runs.ScreenKind(k)]})
	}
	out := all[:0]
	for _, t := range all {
		if t.Text != "" {
			out = append(out, t)
		}
	}
	return out
}

// Seed0 says where a preset's numbers come from: its run at seed 0 with
// seeded noise, the same bits on every machine; a session whose noise is
// secure (dpso serve), or whose parameters changed since loading, reads
// its own run's numbers on the chart and the preset's beside them.
const Seed0 = "numbers of the preset's run at seed 0"
