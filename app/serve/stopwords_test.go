package serve

import (
	"strings"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/tui/components/form"
)

// TestRunBoundAdviceNamesTheFormsFields: the words a session reads when
// the server stops a run at its bound (--max-run-time) or refuses its
// plan tell it what to lower, and every thing named is a field of the
// explorer's form — a session cannot change the points of a sweep (its
// screen fixes them), so the advice names n, d and the trials only.
func TestRunBoundAdviceNamesTheFormsFields(t *testing.T) {
	for _, err := range []error{runTimeError(30 * time.Second), planError(engine.Plan{Work: 1e12}, 90, 30*time.Second)} {
		msg := err.Error()
		at := strings.Index(msg, "; lower ")
		if at < 0 {
			t.Fatalf("%q says nothing to lower", msg)
		}
		what := msg[at+len("; lower "):]
		what = what[:strings.Index(what, ", or run dpso")]
		for _, w := range strings.FieldsFunc(what, func(r rune) bool { return r == ',' || r == ' ' }) {
			switch w {
			case "or", "the", "in", "form":
				continue
			}
			if !isField(w) {
				t.Errorf("%q advises lowering %q, which is not a field of the explorer's form", msg, w)
			}
		}
	}
}

// isField reports whether label is the label of one of the form's fields.
func isField(label string) bool {
	for f := range form.NumFields {
		if f.Label() == label {
			return true
		}
	}
	return false
}
