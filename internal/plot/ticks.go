package plot

import (
	"math"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
)

// An axis's tick labels are real values at decades, at 1-2-5 steps, at
// 1-2-3-5 steps or at every integer multiple of a decade — the first of
// these that gives at least three labels in the axis's range (decades
// thinned to at most maxLabels) — or, on a range narrower than one
// multiple's gap, at linear 1-2-5 steps. There is never a 0 (the axes are logarithmic). Every label
// of an axis has one form: plain decimals ("0.002", "5000") when all of
// them lie in [plainLo, plainHi), otherwise m·10ᵉ for all of them, the
// exponent raised (mathText).
// Unlabelled minor ticks mark the other integer multiples.

// maxLabels is the most labels an axis carries.
const maxLabels = 8

// The range of values written as plain decimals.
const (
	plainLo = 1e-3
	plainHi = 1e5
)

// axisTicks are an axis's ticks over [lo, hi] and whether their labels are
// written m·10ᵉ.
func axisTicks(lo, hi float64) (ticks []gplot.Tick, sci bool) {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return nil, false
	}
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	labelled := pickLabels(lo, hi, in)
	sci = false
	for _, v := range labelled {
		if v < plainLo*(1-1e-12) || v >= plainHi {
			sci = true
		}
	}
	isLabel := map[float64]bool{}
	for _, v := range labelled {
		isLabel[v] = true
	}
	// Minor ticks: the integer multiples of each decade in range.
	var minor []float64
	if math.Log10(hi/lo) >= 0.3 {
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for m := 1; m < 10; m++ {
				if v := decade(float64(m), e); in(v) && !isLabel[v] {
					minor = append(minor, v)
				}
			}
		}
	}
	for _, v := range labelled {
		ticks = append(ticks, gplot.Tick{Value: v, Label: tickText(v, sci)})
	}
	for _, v := range minor {
		ticks = append(ticks, gplot.Tick{Value: v})
	}
	return ticks, sci
}

// decade is m·10ᵉ, correctly rounded (0.003, not 0.0030000000000000001).
func decade(m, e float64) float64 {
	if e < 0 {
		return m / math.Pow(10, -e)
	}
	return m * math.Pow(10, e)
}

// pickLabels chooses the labelled values (see the comment above):
// decades when there are three or more (every step-th of them beyond
// maxLabels), else 1-2-5 steps, else 1-2-3-5, else every multiple, each
// only where it gives three to maxLabels labels (or falls back to the
// coarser set when it gives more); linear steps on a narrower range.
func pickLabels(lo, hi float64, in func(float64) bool) []float64 {
	at := func(ms ...float64) []float64 {
		var vs []float64
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for _, m := range ms {
				if v := decade(m, e); in(v) {
					vs = append(vs, v)
				}
			}
		}
		return vs
	}
	thin := func(vs []float64) []float64 {
		step := (len(vs) + maxLabels - 1) / maxLabels
		var out []float64
		for i, v := range vs {
			if i%step == 0 {
				out = append(out, v)
			}
		}
		return out
	}
	coarser := at(1)
	if len(coarser) >= 3 {
		return thin(coarser)
	}
	for _, ms := range [][]float64{{1, 2, 5}, {1, 2, 3, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		vs := at(ms...)
		switch {
		case len(vs) > maxLabels && len(coarser) >= 2:
			return coarser
		case len(vs) > maxLabels:
			return thin(vs)
		case len(vs) >= 3:
			return vs
		}
		coarser = vs
	}
	return linearLabels(lo, hi)
}

// linearLabels are 1-2-5 steps of a decade inside [lo, hi], for a range
// too narrow for the multiples of a decade: at least two, at most six.
func linearLabels(lo, hi float64) []float64 {
	span := hi - lo
	if span <= 0 {
		return []float64{lo}
	}
	for e := math.Floor(math.Log10(span)); e > math.Floor(math.Log10(span))-4; e-- {
		for _, m := range []float64{5, 2, 1} {
			step := decade(m, e)
			first := math.Ceil(lo/step - 1e-9)
			var vs []float64
			for i := first; ; i++ {
				v := i * step
				if v > hi*(1+1e-9) {
					break
				}
				// Rounded to the step's digits (0.12, not 0.12000000000000001).
				v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
				vs = append(vs, v)
			}
			if len(vs) >= 2 && len(vs) <= 6 {
				return vs
			}
		}
	}
	return []float64{lo, hi}
}

// tickText writes a tick's value: plainly (2000, 0.003, 0.12), or as
// m·10^e ("10^6", "2·10^−5"), which mathText draws with a raised
// exponent.
func tickText(v float64, sci bool) string {
	if !sci {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	e := int(math.Floor(math.Log10(v) + 1e-9))
	m := v / math.Pow(10, float64(e))
	es := strings.Replace(strconv.Itoa(e), "-", "−", 1)
	if ms := strconv.FormatFloat(m, 'g', 6, 64); ms != "1" {
		return ms + "·10^" + es
	}
	return "10^" + es
}

// setTicks fixes an axis's ticks for its final range.
func setTicks(a *gplot.Axis) {
	ts, _ := axisTicks(a.Min, a.Max)
	a.Tick.Marker = gplot.ConstantTicks(ts)
	a.Tick.Label.Handler = figureText
}
