package tui

import (
	"strings"
	"testing"

	"dpso/tui/components/form"
)

// TestEpsHintIsTheTheoremsTerm: the ε field's explanation quotes the
// privacy term of the bound the theorem panel shows for the class — on
// preset 7 (proximal-PL) Theorem [thm: PL upper bound]'s
// (r̃_k²/μ)·(√d·κ·ln n/(εn))^((2k−2)/k), on preset 1 (smooth convex)
// noisy clipped AC-SA's r̃_k·D·a^((k−1)/k) with a = √d/(εn) — not a
// privacy term of another class.
func TestEpsHintIsTheTheoremsTerm(t *testing.T) {
	for _, c := range []struct {
		preset int
		term   string
	}{
		{6, "(r̃_k²/μ)·(√d·κ·ln n/(εn))^((2k−2)/k)"},
		{0, "r̃_k·D·a^((k−1)/k), a = √d/(εn)"},
	} {
		m := loadedPreset(t, c.preset, 120, 32)
		m.form.SetFocus(form.Eps)
		if hint := m.form.Message(); !strings.Contains(hint, "the privacy term of the theorem's bound (the theorem panel) is "+c.term) {
			t.Errorf("preset %d: the ε hint %q does not quote the theorem's privacy term %q", c.preset+1, hint, c.term)
		}
	}
}

// TestNHintIsTheTheoremsTerms: the n field's explanation quotes the
// statistical term of the class's bound — 1/n in a strongly convex or
// proximal-PL class (preset 7, Theorem [thm: PL upper bound]:
// r̃₂²·κ·ln n/(μn)), not the convex 1/√n.
func TestNHintIsTheTheoremsTerms(t *testing.T) {
	m := loadedPreset(t, 6, 120, 32)
	m.form.SetFocus(form.N)
	hint := m.form.Message()
	if strings.Contains(hint, "1/√n") || !strings.Contains(hint, "the statistical term r̃₂²·κ·ln n/(μn)") {
		t.Errorf("preset 7: the n hint %q does not quote the theorem's statistical term", hint)
	}
}
