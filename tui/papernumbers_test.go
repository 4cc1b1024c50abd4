package tui

import (
	"dpso/tui/components/form"
	"dpso/tui/presets"
	"regexp"
	"testing"
)

// rawLabel is a LaTeX \label of the paper as its source spells it
// ("ass:tilde", "thm: convex ACSA one pass", "eq:harddist"), which a
// reader of the PDF cannot look up.
var rawLabel = regexp.MustCompile(`\b(thm|ass|lem|prop|app|alg|sec|eq|cor|def|rem|ex|fact|claim):\s?[a-zA-Z]`)

// TestTextsCiteThePaperAsItsPDFNumbersIt: the texts the explorer shows
// beside the form and for the presets — every field's reason, every
// preset's text, caption, next step and action, and the form's
// assumption remark — name the paper's results as its PDF numbers them
// (Assumption 1, Eq. (32)), never by a \label of its source.
func TestTextsCiteThePaperAsItsPDFNumbersIt(t *testing.T) {
	check := func(where, s string) {
		t.Helper()
		if m := rawLabel.FindString(s); m != "" {
			t.Errorf("%s cites %q, a label of the LaTeX source: %s", where, m, s)
		}
	}
	for id := form.Field(0); id < form.NumFields; id++ {
		check("field "+id.Label()+"'s reason", id.Why())
	}
	for _, p := range presets.All {
		for what, s := range map[string]string{"text": p.Text(), "caption": p.Caption(), "next": p.Next(), "action": p.Action} {
			check("preset "+p.Title+"'s "+what, s)
		}
	}
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	check("the form's assumption row", formRow(m, form.Assumption))
	check("the first screen", screenText(m))
}
