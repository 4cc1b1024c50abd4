package tui

import (
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/components/form"
)

// formRow is the form's row of field id on the screen ("" if not shown):
// the line that has its label where the form's rows put labels.
func formRow(m *Model, id form.Field) string {
	for _, l := range strings.Split(screenText(m), "\n") {
		if len(l) > 2 && strings.HasPrefix(strings.TrimPrefix(strings.TrimPrefix(l, "▸ "), "  "), id.Label()+" ") {
			return l
		}
	}
	return ""
}

// TestAssumptionField: the form's assumption row (--assumption) steps
// through tilde, noncentral and coordinatewise, changing the Spec, the
// resolved assumption, the remark on the row and the reproduce line; tilde
// is the default, written by no flag. At 80×24, where the row must fit.
func TestAssumptionField(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 80, 24)
	m.form.SetFocus(form.Assumption)
	if m.form.Focus() != form.Assumption {
		t.Fatal("the assumption field cannot be focused")
	}
	for _, c := range []struct {
		key, user string
		want      theory.Assumption
		flag      string // on the reproduce line
		remark    string
	}{
		{"right", "noncentral", theory.Noncentral, " --assumption noncentral", "r_k"},
		{"right", "coordinatewise", theory.Coordinatewise, " --assumption coordinatewise", "γ_k"},
		{"right", "", theory.Tilde, "", "r̃_k"},
		{"left", "coordinatewise", theory.Coordinatewise, " --assumption coordinatewise", "γ_k"},
	} {
		formKeys(t, m, c.key)
		if _, refused := m.form.Refusal(); refused != "" {
			t.Fatalf("%s: refused %s", c.key, refused)
		}
		if got := m.form.Spec().Assumption; got != c.user {
			t.Errorf("%s: Spec.Assumption %q, want %q", c.key, got, c.user)
		}
		if got := m.form.Resolved().Assumption; got != c.want {
			t.Errorf("%s: resolved assumption %q, want %q", c.key, got, c.want)
		}
		if got, want := m.status.Reproduce(), "dpso run --scenario example1"+c.flag+" --trials 3"; got != want {
			t.Errorf("%s: reproduce %q, want %q", c.key, got, want)
		}
		if row := formRow(m, form.Assumption); !strings.Contains(row, "‹ "+string(c.want)+" › "+c.remark) {
			t.Errorf("%s: the assumption row %q lacks ‹ %s › %s", c.key, row, c.want, c.remark)
		}
	}
	// The wide layout has room for the assumption's label.
	m = newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	if row := formRow(m, form.Assumption); !strings.Contains(row, "tilde r̃_k (Assumption 1)") {
		t.Errorf("132×42: the assumption row %q lacks its remark", row)
	}
}

// TestAssumptionRefusedNonsmooth: on a non-smooth class the paper's
// localized theorem grants ass:tilde only, so Resolve refuses noncentral
// and coordinatewise: the ✗ is on the assumption row, the message is
// Resolve's (naming the theorem), and the Spec and the reproduce line are
// left unchanged.
func TestAssumptionRefusedNonsmooth(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothSC, Trials: 3}
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 80, 24)
	before := m.status.Reproduce()
	_, err := (func() (spec.Resolved, error) {
		c := sp
		c.Assumption = "noncentral"
		return c.Resolve()
	})()
	if err == nil {
		t.Fatal("Resolve accepts noncentral on a non-smooth class: nothing to show")
	}
	m.form.SetFocus(form.Assumption)
	formKeys(t, m, "right")
	at, msg := m.form.Refusal()
	if at != form.Assumption || msg != backend.SpecMessage(err) {
		t.Errorf("refusal on field %d: %q; want on the assumption row: %q", at, msg, backend.SpecMessage(err))
	}
	if !strings.Contains(msg, "[thm: localization strongly convex]") {
		t.Errorf("the refusal %q names no theorem", msg)
	}
	if row := formRow(m, form.Assumption); !strings.Contains(row, "✗") {
		t.Errorf("no ✗ on the assumption row %q:\n%s", row, screenText(m))
	}
	if m.form.Spec().Assumption != "" || m.form.Resolved().Assumption != theory.Tilde || m.status.Reproduce() != before {
		t.Errorf("a refused assumption changed the Spec: %q, %q, reproduce %q", m.form.Spec().Assumption, m.form.Resolved().Assumption, m.status.Reproduce())
	}
	if !strings.Contains(screenText(m), "✗ refused — assumption") {
		t.Errorf("the refusal is not on the screen:\n%s", screenText(m))
	}
	// Cut under the form, it says so; the help gives it whole.
	if v := screenText(m); strings.Contains(v, "assumption… (? full)") {
		m.Update(press("?"))
		help := strings.Join(strings.Fields(screenText(m)), " ")
		if !strings.Contains(help, "under the form: ✗ refused — assumption: noncentr") {
			t.Errorf("the help does not give the refusal whole:\n%s", screenText(m))
		}
	}
}
