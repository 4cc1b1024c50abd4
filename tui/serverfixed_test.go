package tui

import (
	"strings"
	"testing"
	"time"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/tui/components/form"
)

// secureOnly is a session limit as dpso serve's: every Spec's noise is
// secure, and a seed or seeded randomness is refused naming the field.
func secureOnly(s spec.Spec) (spec.Spec, error) {
	switch {
	case s.Seed != 0:
		return s, &spec.SpecError{Field: "seed", Msg: "this server draws every session's noise from secure randomness, which reads no seed"}
	case s.Rand != "" && s.Rand != solvers.Secure.String():
		return s, &spec.SpecError{Field: "rand", Msg: "this server draws every session's noise from secure randomness"}
	}
	s.Rand = solvers.Secure.String()
	return s, nil
}

// TestSeedFixedByTheServerReadsFixed: under a session limit that fixes
// secure noise (dpso serve's), the seed's row says it is fixed, whole, at
// 80×24 and 132×42 — not a value that steps: no ‹ › when focused — and a
// digit or an arrow on it is refused at once, saying the server fixes it
// and that a preset's numbers are its run's at seed 0, without opening the
// field for typing or changing the Spec. Without the limit, secure noise's
// seed reads none and steps as before.
func TestSeedFixedByTheServerReadsFixed(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {132, 42}} {
		t.Run(itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
			opts := testOpts(t, &fakeRunner{points: 3}, 100*time.Millisecond)
			opts.Limit = secureOnly
			m := newTestModelOpts(t, opts, nil, size[0], size[1])
			if !strings.Contains(screenText(m), "  seed       fixed (secure noise)") {
				t.Fatalf("the seed's row does not read fixed:\n%s", screenText(m))
			}
			m.form.SetFocus(form.Seed)
			if !strings.Contains(screenText(m), "▸ seed       fixed (secure noise)") || strings.Contains(screenText(m), "‹ fixed") {
				t.Fatalf("the focused seed's row:\n%s", screenText(m))
			}
			before := m.form.Spec()
			for _, k := range []string{"7", "right", "left"} {
				keyUntil(t, m, k, func() bool { return true })
				if m.form.Editing() {
					t.Fatalf("%s opened the fixed seed for typing", k)
				}
				msg := m.form.Message()
				if !strings.Contains(msg, "seed: fixed by this server") || !strings.Contains(msg, "at seed 0") {
					t.Errorf("after %s the line under the form reads %q", k, msg)
				}
				if got := m.form.Spec(); got.Seed != before.Seed || got.Rand != before.Rand {
					t.Errorf("after %s the Spec's seed is %d, rand %q", k, got.Seed, got.Rand)
				}
			}
		})
	}
	s := example1
	s.Rand = solvers.Secure.String()
	m := newTestModel(t, &fakeRunner{points: 3}, &s, 80, 24)
	m.form.SetFocus(form.Seed)
	if !strings.Contains(screenText(m), "▸ seed     ‹ none ›") {
		t.Errorf("secure noise without a server: the seed's row:\n%s", screenText(m))
	}
}
