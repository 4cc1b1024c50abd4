package chart

import (
	"math"
	"slices"
)

// LogTicks are the tick values of a log axis over [lo, hi] (log10 units,
// the values 10^lo … 10^hi), at most most of them: the decades when three
// or more fall inside (every second, fifth, … decade when more than most
// do), else the 1-2-5 steps when two to most of them fall inside, else the
// decades, else the integer multiples 1 … 9 of a decade (thinned to most).
// Nil when no such value falls inside.
func LogTicks(lo, hi float64, most int) []float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || hi < lo {
		return nil
	}
	most = max(most, 1)
	in := func(ms []float64) []float64 {
		var out []float64
		for e := math.Floor(lo) - 1; e <= math.Ceil(hi); e++ {
			for _, m := range ms {
				if v := math.Log10(m) + e; v >= lo-1e-9 && v <= hi+1e-9 {
					out = append(out, m*math.Pow(10, e))
				}
			}
		}
		return out
	}
	dec := thinDecades(in([]float64{1}), most)
	if len(dec) >= 3 {
		return dec
	}
	if t := in([]float64{1, 2, 5}); len(t) >= 2 && len(t) <= most {
		return t
	}
	if len(dec) > 0 {
		return dec
	}
	all := in([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9})
	for len(all) > most {
		all = everyOther(all)
	}
	return all
}

// thinDecades keeps the decades whose exponent is a multiple of the
// smallest step (1, 2, 5, 10, …) that leaves at most most of them, so that
// the ticks stay on round exponents (10⁻⁶, 10⁻⁴, 10⁻², 1).
func thinDecades(dec []float64, most int) []float64 {
	if len(dec) <= most {
		return dec
	}
	for _, step := range []int{2, 3, 5, 10, 20, 50, 100} {
		var out []float64
		for _, v := range dec {
			if e := int(math.Round(math.Log10(v))); e%step == 0 {
				out = append(out, v)
			}
		}
		if len(out) <= most && len(out) > 0 {
			return out
		}
	}
	for len(dec) > most {
		dec = everyOther(dec)
	}
	return dec
}

func everyOther(xs []float64) []float64 {
	var out []float64
	for i := 0; i < len(xs); i += 2 {
		out = append(out, xs[i])
	}
	return out
}

// yTicks places the y axis's tick values on the plot's rows: row r (from
// the bottom, 0 … rows) holds log10 values within half a row of
// lo + r·(hi − lo)/rows, as asciigraph places values; a tick is kept on
// the row nearest it when no earlier tick took that row. The result maps
// a row to its tick's index in ticks.
func yTicks(ticks []float64, lo, hi float64, rows int) map[int]int {
	out := map[int]int{}
	if rows <= 0 || !(hi > lo) {
		return out
	}
	for i, t := range ticks {
		r := rowOf(math.Log10(t), lo, hi, rows)
		if r < 0 || r > rows {
			continue
		}
		if _, taken := out[r]; !taken {
			out[r] = i
		}
	}
	return out
}

// labelsOf writes ticks with labels (one number format for the whole set)
// or, without it, each with num.
func labelsOf(ticks []float64, labels func([]float64) []string, num func(float64) string) []string {
	if labels != nil {
		if out := labels(slices.Clone(ticks)); len(out) == len(ticks) {
			return out
		}
	}
	out := make([]string, len(ticks))
	for i, t := range ticks {
		out[i] = num(t)
	}
	return out
}
