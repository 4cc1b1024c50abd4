package theory

import (
	"fmt"
	"math"
	"strings"
)

// MapAxis is a parameter a rate map can vary.
type MapAxis string

// The axes.
const (
	AxisN   MapAxis = "n"
	AxisEps MapAxis = "eps"
	AxisD   MapAxis = "d"
	AxisK   MapAxis = "k"
)

// ParseMapAxes parses "x,y", e.g. "n,eps" (two distinct axes among n, eps,
// d, k).
func ParseMapAxes(s string) (x, y MapAxis, err error) {
	parts := strings.Split(s, ",")
	ok := func(a string) bool { return a == "n" || a == "eps" || a == "d" || a == "k" }
	if len(parts) != 2 || !ok(parts[0]) || !ok(parts[1]) || parts[0] == parts[1] {
		return "", "", fmt.Errorf("%s is not two distinct axes among n, eps, d, k (e.g. \"n,eps\")", Quote(s))
	}
	return MapAxis(parts[0]), MapAxis(parts[1]), nil
}

func (a MapAxis) field(p *Params) *float64 {
	switch a {
	case AxisN:
		return &p.N
	case AxisEps:
		return &p.Eps
	case AxisD:
		return &p.Dim
	case AxisK:
		return &p.K
	}
	return nil
}

// MapSpec describes a rate map: a log grid over two axes, every other
// input fixed.
type MapSpec struct {
	// Class selects the bounds: ForClass(Class) — its upper bound, the
	// lower bound, prior work.
	Class Class
	// Base holds the fixed inputs; the axes' fields are overwritten.
	Base Params
	// X and Y are the axes (distinct), each from Min to Max (> 0; k ≥ 2)
	// in N log-spaced points (N ≥ 2).
	X, Y             MapAxis
	XMin, XMax, YMin float64
	YMax             float64
	NX, NY           int
	// Adjust, if set, is called on each cell's parameters after the axes
	// are set, to make the inputs that depend on an axis follow it: the
	// moment profile at the cell's k (r̃_k, r̃_2k, …), or r̃ = √d for the
	// paper's Figure-1 normalization when d is an axis. nil keeps Base's.
	Adjust func(p *Params)
}

// MapCell is one grid point of a rate map.
type MapCell struct {
	X, Y float64
	// Upper is the paper's upper bound (ForClass(c)[0]), Lower the lower
	// bound (ForClass(c)[1]), Prior the smallest of the prior bounds whose
	// inputs are given (+Inf if none: PriorID ""), each with whether its
	// conditions hold.
	Upper, Lower, Prior                float64
	PriorID                            string
	UpperHolds, LowerHolds, PriorHolds bool
	// Best says which upper bound is smaller: "upper" (the paper's),
	// "prior", or "" when neither is finite. Ties go to the paper's.
	Best string
	// Gap is min(Upper, Prior)/Lower: how far the best upper bound is
	// above the lower bound (constants 1: ≥ 1 up to those constants).
	Gap float64
	// ACSAGap is the remark's regime for smooth-convex (ACSAGapAt): ≤ 1
	// optimal, else the suboptimality factor; NaN for other classes.
	ACSAGap float64
}

// RateMap is a grid of MapCells: Cells[j][i] is at (Xs[i], Ys[j]).
type RateMap struct {
	Spec   MapSpec
	Xs, Ys []float64
	Cells  [][]MapCell
	// UpperID and LowerID are the class's bounds.
	UpperID, LowerID string
}

// logGrid is n points from lo to hi, equally spaced in log.
func logGrid(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	a, b := math.Log(lo), math.Log(hi)
	for i := range out {
		out[i] = math.Exp(a + (b-a)*float64(i)/float64(n-1))
	}
	out[0], out[n-1] = lo, hi // exact ends
	return out
}

// ACSAGapAt is the discussion after Remark "rem: affine optimal" in
// general: the ratio of smooth-convex-acsa's smoothness term (the min{…})
// to its privacy term r̃_k·D·a^((k−1)/k),
//
//	min{(βD/r̃_k)^(k−1)/(5k−1)·a^(4(k−1)/(5k−1) − (k−1)/k),
//	    (βD/r̃_k)^((k−1)/(4k))·n^((k−1)/(8k))},  a = √d/(εn).
//
// At k = 2, β = D = 1, r̃ = √d it is
// min{(n/d)^(1/16), (εn/d^(3/2))^(1/18)}; where it is ≤ 1 the bound is the
// lower bound's rate up to constants ("optimal if d ≳ n or d^(3/2) ≳ εn"),
// and otherwise it is the factor by which the bound is suboptimal. 0 at
// β = 0 (affine losses: always optimal). Errors as Evaluate's.
func ACSAGapAt(p Params) (float64, error) {
	b, err := Evaluate(SmoothConvexACSA, p)
	if err != nil {
		return math.NaN(), err
	}
	return b.Terms[2].Value / b.Terms[1].Value, nil
}

// NewRateMap evaluates the class's bounds over the grid. It returns an
// error for a bad spec (unknown class or axis, equal axes, a range outside
// the axis's domain, fewer than 2 points) or when a bound cannot be
// evaluated (a needed input of Base not given).
func NewRateMap(s MapSpec) (RateMap, error) {
	ids := ForClass(s.Class)
	if ids == nil {
		return RateMap{}, fmt.Errorf("unknown class %s", Quote(string(s.Class)))
	}
	if s.X.field(&s.Base) == nil || s.Y.field(&s.Base) == nil || s.X == s.Y {
		return RateMap{}, fmt.Errorf("axes %s, %s: want two distinct axes among n, eps, d, k", Quote(string(s.X)), Quote(string(s.Y)))
	}
	for _, ax := range []struct {
		a      MapAxis
		lo, hi float64
		n      int
	}{{s.X, s.XMin, s.XMax, s.NX}, {s.Y, s.YMin, s.YMax, s.NY}} {
		lo := 0.0
		switch ax.a {
		case AxisN, AxisD:
			lo = 1
		case AxisK:
			lo = 2
		}
		if !(ax.lo >= lo && ax.lo > 0 && ax.hi > ax.lo) || math.IsInf(ax.hi, 1) || ax.n < 2 {
			return RateMap{}, fmt.Errorf("axis %s: range [%s, %s] in %d points; want %s ≤ min < max < ∞ and ≥ 2 points",
				ax.a, fmtNum(ax.lo), fmtNum(ax.hi), ax.n, fmtNum(math.Max(lo, 0)))
		}
	}
	m := RateMap{Spec: s, Xs: logGrid(s.XMin, s.XMax, s.NX), Ys: logGrid(s.YMin, s.YMax, s.NY),
		UpperID: ids[0], LowerID: ids[1]}
	m.Cells = make([][]MapCell, s.NY)
	for j, y := range m.Ys {
		m.Cells[j] = make([]MapCell, s.NX)
		for i, x := range m.Xs {
			p := s.Base
			*s.X.field(&p) = x
			*s.Y.field(&p) = y
			if s.Adjust != nil {
				s.Adjust(&p)
			}
			c, err := mapCell(ids, s.Class, p)
			if err != nil {
				return RateMap{}, fmt.Errorf("at %s = %s, %s = %s: %w", s.X, fmtNum(x), s.Y, fmtNum(y), err)
			}
			c.X, c.Y = x, y
			m.Cells[j][i] = c
		}
	}
	return m, nil
}

func mapCell(ids []string, c Class, p Params) (MapCell, error) {
	up, err := Evaluate(ids[0], p)
	if err != nil {
		return MapCell{}, err
	}
	lo, err := Evaluate(ids[1], p)
	if err != nil {
		return MapCell{}, err
	}
	cell := MapCell{Upper: up.Value, UpperHolds: up.ConditionsHold(), Lower: lo.Value, LowerHolds: lo.ConditionsHold(),
		Prior: math.Inf(1), ACSAGap: math.NaN()}
	for _, id := range ids[2:] {
		b, err := Evaluate(id, p)
		if _, ok := err.(*MissingError); ok {
			continue
		}
		if err != nil {
			return MapCell{}, err
		}
		if cell.PriorID == "" || b.Value < cell.Prior {
			cell.Prior, cell.PriorID, cell.PriorHolds = b.Value, id, b.ConditionsHold()
		}
	}
	best := math.Min(cell.Upper, cell.Prior)
	switch {
	case math.IsInf(best, 1):
		cell.Best = ""
	case cell.Upper <= cell.Prior:
		cell.Best = "upper"
	default:
		cell.Best = "prior"
	}
	cell.Gap = best / cell.Lower
	if c == SmoothConvex {
		cell.ACSAGap, _ = ACSAGapAt(p) // Evaluate succeeded above on the same inputs
	}
	return cell, nil
}

// MapLayer selects what Render shades.
type MapLayer string

// The layers.
const (
	// LayerBest marks which upper bound is smaller: the paper's (█) or
	// prior work's (░); · where neither is finite.
	LayerBest MapLayer = "best"
	// LayerGap shades the best upper bound's ratio to the lower bound:
	// ' ' < 2 ≤ ░ < 10 ≤ ▒ < 100 ≤ ▓ < 1000 ≤ █.
	LayerGap MapLayer = "gap"
	// LayerRegime shades the remark's suboptimality factor of
	// smooth-convex-acsa (max{1, ACSAGapAt}): ' ' optimal (≤ 1),
	// ░ < 1.5 ≤ ▒ < 2 ≤ ▓ < 4 ≤ █.
	LayerRegime MapLayer = "regime"
)

// gapShade buckets a ratio.
func gapShade(x float64, edges [4]float64) rune {
	shades := []rune{' ', '░', '▒', '▓', '█'}
	if math.IsNaN(x) {
		return '·'
	}
	for i, e := range edges {
		if x < e {
			return shades[i]
		}
	}
	return shades[4]
}

// Rune is the cell's mark in layer l.
func (c MapCell) Rune(l MapLayer) rune {
	switch l {
	case LayerBest:
		switch c.Best {
		case "upper":
			return '█'
		case "prior":
			return '░'
		}
		return '·'
	case LayerGap:
		return gapShade(c.Gap, [4]float64{2, 10, 100, 1000})
	case LayerRegime:
		if math.IsNaN(c.ACSAGap) {
			return '·'
		}
		return gapShade(math.Max(1, c.ACSAGap), [4]float64{1 + 1e-12, 1.5, 2, 4})
	}
	return '?'
}

// Render draws layer l as a text grid: one row per Y value (largest on
// top) with its value at the left, one character per X value, the X range
// underneath, and a legend line. Regime is only meaningful for
// smooth-convex.
func (m RateMap) Render(l MapLayer) string {
	var b strings.Builder
	w := 0
	labels := make([]string, len(m.Ys))
	for j, y := range m.Ys {
		labels[j] = string(m.Spec.Y) + "=" + Human.Format(y)
		w = max(w, len([]rune(labels[j])))
	}
	for j := len(m.Ys) - 1; j >= 0; j-- {
		lab := labels[j]
		b.WriteString(strings.Repeat(" ", w-len([]rune(lab))) + lab + " │")
		for _, c := range m.Cells[j] {
			b.WriteRune(c.Rune(l))
		}
		b.WriteString("\n")
	}
	b.WriteString(strings.Repeat(" ", w+1) + "└" + strings.Repeat("─", len(m.Xs)) + "\n")
	b.WriteString(strings.Repeat(" ", w+2) + fmt.Sprintf("%s = %s … %s (log scale)\n", m.Spec.X, Human.Format(m.Xs[0]), Human.Format(m.Xs[len(m.Xs)-1])))
	switch l {
	case LayerBest:
		b.WriteString("█ " + m.UpperID + " is the smaller upper bound  ░ prior work's is  · neither is finite")
	case LayerGap:
		b.WriteString("best upper / " + m.LowerID + ":  ' ' < 2  ░ < 10  ▒ < 100  ▓ < 1000  █ ≥ 1000")
	case LayerRegime:
		b.WriteString("rem: affine optimal: ' ' optimal  suboptimal by ░ < 1.5  ▒ < 2  ▓ < 4  █ ≥ 4  (· not smooth-convex)")
	}
	b.WriteString("\nrates with constants 1: compare shapes, not single values\n")
	return b.String()
}
