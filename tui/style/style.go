package style

import (
	"image/color"
	"strconv"

	"charm.land/lipgloss/v2"
)

// Styles are every style of the explorer, built once for the terminal's
// background (light or dark) or plain (NO_COLOR: attributes only, no
// colour; the chart's series are then told apart by their glyphs).
// Components hold a pointer to the one Styles of the program, so a
// background change reaches them all at their next render.
type Styles struct {
	Dark, Plain bool
	Theme       Theme

	Header, HeaderDim lipgloss.Style
	Rule, RuleTitle   lipgloss.Style // panel title rules
	RuleFocus         lipgloss.Style

	Label, Value           lipgloss.Style
	FocusLabel, FocusValue lipgloss.Style
	Muted, Emph            lipgloss.Style
	Error, Warn, Good      lipgloss.Style

	Key, KeyDesc lipgloss.Style

	StateRun, StatePause, StateDone, StateFail, StateIdle lipgloss.Style

	Selected lipgloss.Style // presets list, the active tab

	// Series palette as ANSI-256 indices, shared by the chart's plot
	// (asciigraph colours) and every legend (lipgloss colours).
	Upper, Lower, Prior, PriorAlt, Clipped int
	// Start is the start line F(w₀) − F* (doing nothing), Cert the
	// certificate at the run's parameters.
	Start, Cert int
	// Trace is the previous run's faint trace.
	Trace int
	Runs  []int // the paper's solver first, then baselines
}

// Theme is a set of colours: Dark (for a dark background), Light (for a
// light one), HighContrast (the strongest colours for the background,
// dark unless it is known to be light: a projector's). Every text style of
// each is at least 4.5:1 against its background (WCAG AA; HighContrast
// 7:1, AAA), the rules 3:1 (TestContrast, from the xterm palette).
type Theme int

// The themes.
const (
	Dark Theme = iota
	Light
	HighContrast
)

// Themes are the themes in the order a key cycles them.
var Themes = []Theme{Dark, Light, HighContrast}

// String is the theme's name, as --theme takes it.
func (t Theme) String() string {
	switch t {
	case Light:
		return "light"
	case HighContrast:
		return "high-contrast"
	}
	return "dark"
}

// ParseTheme reads a theme's name (String's).
func ParseTheme(s string) (Theme, bool) {
	for _, t := range Themes {
		if t.String() == s {
			return t, true
		}
	}
	return Dark, false
}

// NewTheme returns the styles of theme t; dark is the background's
// (HighContrast's colours follow it: bright on a dark background, deep on
// a light one; Dark and Light are for theirs whatever it is); plain drops
// every colour.
func NewTheme(t Theme, dark, plain bool) Styles {
	switch t {
	case Dark:
		dark = true
	case Light:
		dark = false
	}
	s := Styles{Dark: dark, Plain: plain, Theme: t}
	ld := lipgloss.LightDark(dark)
	c := func(light, dk string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(dk)) }
	pick := func(light, dk int) int {
		if dark {
			return dk
		}
		return light
	}
	hc := t == HighContrast
	// ANSI-256 indices chosen for contrast on white (light) and on black
	// (dark) backgrounds.
	s.Upper, s.Lower = pick(160, 203), pick(28, 114)
	s.Prior, s.PriorAlt = pick(130, 179), pick(90, 176)
	s.Clipped = pick(160, 203)
	s.Start, s.Cert = pick(16, 231), pick(55, 147)
	s.Trace = pick(248, 242)
	s.Runs = []int{pick(25, 75), pick(163, 213), pick(30, 44), pick(94, 215), pick(240, 250)}
	if hc {
		s.Upper, s.Lower = pick(124, 210), pick(22, 120)
		s.Prior, s.PriorAlt = pick(94, 221), pick(54, 219)
		s.Clipped = s.Upper
		s.Cert = pick(54, 183)
		s.Trace = pick(245, 244)
		s.Runs = []int{pick(18, 117), pick(90, 219), pick(23, 51), pick(52, 222), pick(236, 254)}
	}

	base := lipgloss.NewStyle()
	if plain {
		s.Header = base.Bold(true)
		s.HeaderDim = base
		s.Rule, s.RuleTitle, s.RuleFocus = base, base.Bold(true), base.Bold(true)
		s.Label, s.Value = base, base
		s.FocusLabel, s.FocusValue = base.Bold(true), base.Bold(true).Reverse(true)
		s.Muted, s.Emph = base, base.Bold(true)
		s.Error, s.Warn, s.Good = base.Bold(true), base.Bold(true), base
		s.Key, s.KeyDesc = base.Bold(true), base
		s.StateRun, s.StatePause, s.StateDone, s.StateFail, s.StateIdle = base.Bold(true), base.Bold(true), base.Bold(true), base.Bold(true).Reverse(true), base
		s.Selected = base.Reverse(true)
		return s
	}
	// Text: at least 4.5:1 on the background (muted included), 7:1 in
	// high contrast; the rules 3:1.
	accent, muted, text, label, rule := c("25", "75"), c("242", "245"), c("235", "255"), c("240", "249"), c("245", "242")
	warn, good, bad := c("130", "179"), c("28", "114"), c("160", "203")
	if hc {
		accent, muted, text, label, rule = c("18", "117"), c("238", "251"), c("16", "231"), c("236", "253"), c("240", "248")
		warn, good, bad = c("52", "221"), c("22", "120"), c("124", "210")
	}
	s.Header = base.Bold(true).Foreground(accent)
	s.HeaderDim = base.Foreground(muted)
	s.Rule = base.Foreground(rule)
	s.RuleTitle = base.Bold(true).Foreground(text)
	s.RuleFocus = base.Bold(true).Foreground(accent)
	s.Label = base.Foreground(label)
	s.Value = base.Foreground(text)
	s.FocusLabel = base.Bold(true).Foreground(accent)
	s.FocusValue = base.Bold(true).Foreground(c("231", "16")).Background(accent)
	s.Muted = base.Foreground(muted)
	s.Emph = base.Bold(true).Foreground(text)
	s.Error = base.Bold(true).Foreground(bad)
	s.Warn = base.Foreground(warn)
	s.Good = base.Foreground(good)
	s.Key = base.Bold(true).Foreground(accent)
	s.KeyDesc = base.Foreground(muted)
	s.StateRun = base.Bold(true).Foreground(good)
	s.StatePause = base.Bold(true).Foreground(warn)
	s.StateDone = base.Bold(true).Foreground(accent)
	s.StateFail = base.Bold(true).Foreground(bad)
	s.StateIdle = base.Foreground(muted)
	s.Selected = base.Bold(true).Foreground(c("231", "16")).Background(accent)
	return s
}

// FG renders text in palette colour i (plain: unchanged).
func (s Styles) FG(i int, text string) string {
	if s.Plain {
		return text
	}
	return lipgloss.NewStyle().Foreground(lipgloss.Color(strconv.Itoa(i))).Render(text)
}

// RunColor is the palette index of the i-th run series.
func (s Styles) RunColor(i int) int { return s.Runs[i%len(s.Runs)] }
