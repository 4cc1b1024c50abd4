package style

import (
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
)

// luminance is the WCAG 2 relative luminance of c: each sRGB channel
// linearized (c/12.92 below 0.04045, ((c + 0.055)/1.055)^2.4 above), then
// 0.2126 R + 0.7152 G + 0.0722 B (WCAG 2.1, "relative luminance").
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG 2 contrast ratio (L1 + 0.05)/(L2 + 0.05) of two
// colours, the lighter's luminance L1 over the darker's L2.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// TestContrastFormula checks contrast against WCAG's own reference
// points: black on white is 21:1, a colour on itself 1:1, and #767676 on
// white 4.54:1 (the lightest grey that passes AA for text, a value
// commonly cited with the WCAG 2 formula).
func TestContrastFormula(t *testing.T) {
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	for _, c := range []struct {
		name string
		a, b color.Color
		want float64
	}{
		{"black on white", black, white, 21},
		{"itself", white, white, 1},
		{"#767676 on white", color.RGBA{0x76, 0x76, 0x76, 255}, white, 4.54},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
				t.Errorf("%s: %.3f, want %.2f", c.name, got, c.want)
			}
		})
	}
}

// TestContrast: on a projector the help and every other text must stay
// readable. Every text style of each theme has a contrast of at least
// 4.5:1 against its background (WCAG AA for text; black for the dark
// themes, white for the light ones), 7:1 in high contrast (AAA); the
// panels' rules, which are not text, 3:1 (WCAG's non-text contrast); the
// focused value and the selection, text on a coloured background, 4.5:1
// against that background. The colours are the xterm palette's values
// of the ANSI-256 indices (lipgloss's).
func TestContrast(t *testing.T) {
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	for _, tc := range []struct {
		name  string
		theme Theme
		dark  bool
		text  float64
	}{
		{"dark", Dark, true, 4.5},
		{"light", Light, false, 4.5},
		{"high contrast on dark", HighContrast, true, 7},
		{"high contrast on light", HighContrast, false, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewTheme(tc.theme, tc.dark, false)
			bg := color.Color(white)
			if tc.dark {
				bg = black
			}
			texts := map[string]lipgloss.Style{
				"Header": s.Header, "HeaderDim": s.HeaderDim, "RuleTitle": s.RuleTitle, "RuleFocus": s.RuleFocus,
				"Label": s.Label, "Value": s.Value, "FocusLabel": s.FocusLabel, "Muted": s.Muted, "Emph": s.Emph,
				"Error": s.Error, "Warn": s.Warn, "Good": s.Good, "Key": s.Key, "KeyDesc": s.KeyDesc,
				"StateRun": s.StateRun, "StatePause": s.StatePause, "StateDone": s.StateDone, "StateFail": s.StateFail, "StateIdle": s.StateIdle,
			}
			for name, st := range texts {
				t.Run(name, func(t *testing.T) {
					if got := contrast(st.GetForeground(), bg); got < tc.text {
						t.Errorf("%s: %.2f:1 on its background, want ≥ %g:1", name, got, tc.text)
					}
				})
			}
			if got := contrast(s.Rule.GetForeground(), bg); got < 3 {
				t.Errorf("Rule: %.2f:1, want ≥ 3:1", got)
			}
			for name, st := range map[string]lipgloss.Style{"FocusValue": s.FocusValue, "Selected": s.Selected} {
				t.Run(name, func(t *testing.T) {
					if got := contrast(st.GetForeground(), st.GetBackground()); got < 4.5 {
						t.Errorf("%s: %.2f:1 against its background, want ≥ 4.5:1", name, got)
					}
				})
			}
		})
	}
}

// TestParseTheme: the themes' names read back, and nothing else.
func TestParseTheme(t *testing.T) {
	for _, th := range Themes {
		t.Run(th.String(), func(t *testing.T) {
			if got, ok := ParseTheme(th.String()); !ok || got != th {
				t.Errorf("ParseTheme(%q) = %v, %v", th.String(), got, ok)
			}
		})
	}
	if _, ok := ParseTheme("solarized"); ok {
		t.Error("an unknown theme parses")
	}
}
