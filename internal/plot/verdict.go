package plot

import (
	"image/color"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A figure's verdicts are the screen's judgements of what it shows — a
// sweep's "not yet in force at any point (certificate ≥ w₀): the slope is
// pre-asymptotic" (report.SweepVerdict), a tuning's "paired test over
// the same 8 draws at 2 s.e.: 3.64× above prescribed (within 2 s.e.: no
// clear difference)" (report.TuneSolverVerdict) and "no better than doing
// nothing" (report.W0TuneVerdict) — in the screen's
// words from the screen's functions, drawn under the title at the
// legend's size (32 pixels at 1920×1080): a slide carries the verdict,
// not only the numbers.
type verdict struct {
	text string
	kind verdictKind
}

// verdictKind is how a verdict reads: a warning, good news, or a plain
// comparison.
type verdictKind int

// The kinds of verdict, each in a colour of its own.
const (
	verdictWarn verdictKind = iota
	verdictGood
	verdictPlain
)

// The verdicts' colours: a warning in dark vermillion, good news in dark
// green (both far from every solver's hue in darkness; text only).
var (
	warnColor = color.RGBA{150, 50, 0, 255}
	goodColor = color.RGBA{0, 100, 45, 255}
)

// figureWords is s with the screen's ⚠ and ✓ written as words, which the
// figures' font has no glyph for: "⚠ not yet in force …" reads "not yet
// in force …" (the sentence says it), "✓ in force …" "in force …".
func figureWords(s string) string {
	r := strings.NewReplacer("⚠ ", "", "✓ ", "", "⚠", "", "✓", "")
	return strings.TrimSpace(r.Replace(s))
}

// verdictSize is the verdicts' font size in points.
const verdictSize = legendSize

// addVerdict adds a verdict line (good: the good news, else a warning);
// "" adds none.
func (f *Figure) addVerdict(text string, good bool) {
	k := verdictWarn
	if good {
		k = verdictGood
	}
	f.addVerdictKind(text, k)
}

// addVerdictKind adds a verdict line of kind k; "" adds none.
func (f *Figure) addVerdictKind(text string, k verdictKind) {
	if text = figureWords(text); text != "" {
		f.verdicts = append(f.verdicts, verdict{text: text, kind: k})
	}
}

// Verdicts are the verdicts the figure draws under its title, in order.
func (f *Figure) Verdicts() []string {
	var out []string
	for _, v := range f.verdicts {
		out = append(out, v.text)
	}
	return out
}

// drawVerdicts draws the verdicts centred under the title from top down,
// each wrapped to width at legendSize, and returns the y under them.
func (f *Figure) drawVerdicts(dc draw.Canvas, top vg.Length, lay *Layout) vg.Length {
	if len(f.verdicts) == 0 {
		return top
	}
	full := dc.Rectangle
	pad := vg.Points(10)
	width := full.Max.X - full.Min.X - 2*pad
	y0 := top
	for _, v := range f.verdicts {
		sty := textStyle(verdictSize)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		sty.Color = map[verdictKind]color.Color{verdictWarn: warnColor, verdictGood: goodColor, verdictPlain: color.Black}[v.kind]
		for _, l := range wrapWidth(v.text, sty, width) {
			dc.FillText(sty, vg.Point{X: full.Min.X + (full.Max.X-full.Min.X)/2, Y: top}, l)
			top -= vg.Points(verdictSize * 1.15)
		}
	}
	lay.Verdict = lay.px(vg.Rectangle{Min: vg.Point{X: full.Min.X + pad, Y: top}, Max: vg.Point{X: full.Max.X - pad, Y: y0}})
	lay.VerdictPx = verdictSize * float64(lay.dpi) / 72
	return top
}
