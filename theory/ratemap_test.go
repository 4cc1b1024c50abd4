package theory

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// fig1Adjust keeps the paper's Figure-1 normalization (k = 2, β = D = 1,
// r̃₂ = r̃_k = √d) when d is an axis.
func fig1Adjust(p *Params) { p.R2, p.Rk = math.Sqrt(p.Dim), math.Sqrt(p.Dim) }

func TestRateMapRegimeIsTheRemarks(t *testing.T) {
	base := Figure1Params(1e4, 100, 1)
	base.Lf = math.Inf(1) // prior-lipschitz-convex is then +Inf: the prior is KLZ21
	m, err := NewRateMap(MapSpec{Class: SmoothConvex, Base: base, X: AxisN, Y: AxisD,
		XMin: 10, XMax: 1e12, NX: 25, YMin: 1, YMax: 1e6, NY: 13, Adjust: fig1Adjust})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Xs) != 25 || len(m.Ys) != 13 || m.Xs[0] != 10 || m.Xs[24] != 1e12 || m.Ys[12] != 1e6 {
		t.Fatalf("grid %v %v", m.Xs, m.Ys)
	}
	// Log spacing: constant ratio.
	if r := m.Xs[1] / m.Xs[0]; relErr(m.Xs[13]/m.Xs[12], r) > 1e-12 {
		t.Errorf("not log spaced: %v", m.Xs)
	}
	nOpt, nSub, nUp, nPrior := 0, 0, 0, 0
	for j, row := range m.Cells {
		for i, c := range row {
			n, d := m.Xs[i], m.Ys[j]
			if c.X != n || c.Y != d {
				t.Fatalf("cell (%d,%d) at (%g,%g)", i, j, c.X, c.Y)
			}
			// The regime is the remark's min{(n/d)^(1/16), (εn/d^(3/2))^(1/18)}.
			if g := ACSAGap(n, d, 1); relErr(c.ACSAGap, g) > 1e-11 {
				t.Errorf("n=%g d=%g: regime %g, remark %g", n, d, c.ACSAGap, g)
			}
			if ACSAOptimal(n, d, 1) {
				nOpt++
				if c.Rune(LayerRegime) != ' ' {
					t.Errorf("optimal cell drawn %q", c.Rune(LayerRegime))
				}
			} else {
				nSub++
			}
			// Best and gap from the three bounds.
			p := Figure1Params(n, d, 1)
			up, lo, pr := mustEval(t, SmoothConvexACSA, p).Value, mustEval(t, LowerConvex, p).Value, mustEval(t, PriorKLZ21Convex, p).Value
			if c.Upper != up || c.Lower != lo || c.Prior != pr || c.PriorID != PriorKLZ21Convex {
				t.Errorf("n=%g d=%g: cell %+v", n, d, c)
			}
			if relErr(c.Gap, math.Min(up, pr)/lo) > 1e-15 {
				t.Errorf("gap %g", c.Gap)
			}
			if (c.Best == "upper") != (up <= pr) {
				t.Errorf("n=%g d=%g: best %q with acsa %g, klz %g", n, d, c.Best, up, pr)
			}
			// d beyond the crossover dimension: the paper's bound wins.
			ds, _ := ACSAKLZ21CrossoverDim(n, 1)
			if d > ds*1.001 && c.Best != "upper" || d < ds*0.999 && c.Best != "prior" {
				t.Errorf("n=%g d=%g, crossover %g: best %q", n, d, ds, c.Best)
			}
			if c.Best == "upper" {
				nUp++
			} else {
				nPrior++
			}
		}
	}
	if nOpt < 20 || nSub < 20 || nUp < 20 || nPrior < 20 {
		t.Errorf("grid covers %d optimal, %d suboptimal, %d paper-best, %d prior-best cells", nOpt, nSub, nUp, nPrior)
	}
	// The rendering: NY rows (largest d first), an axis line, the X range,
	// a legend, the caveat.
	out := m.Render(LayerRegime)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 13+4 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "d=10⁶ │") || !strings.HasPrefix(strings.TrimSpace(lines[12]), "d=1 │") {
		t.Errorf("rows:\n%s", out)
	}
	for j := 0; j < 13; j++ {
		row := []rune(lines[j][strings.Index(lines[j], "│")+len("│"):])
		if len(row) != 25 {
			t.Errorf("row %d has %d cells", j, len(row))
		}
		for i, r := range row {
			if want := m.Cells[12-j][i].Rune(LayerRegime); r != want {
				t.Errorf("row %d col %d: %q, cell says %q", j, i, r, want)
			}
		}
	}
	if !strings.Contains(out, "n = 10 … 10¹²") || !strings.Contains(out, "constants 1") {
		t.Errorf("footer:\n%s", out)
	}
	for _, l := range []MapLayer{LayerBest, LayerGap} {
		t.Run(string(l), func(t *testing.T) {
			if s := m.Render(l); !strings.Contains(s, "smooth-convex-acsa") && !strings.Contains(s, "lower-convex") {
				t.Errorf("%s legend:\n%s", l, s)
			}
		})
	}
}

func TestRateMapRunes(t *testing.T) {
	cases := []struct {
		c    MapCell
		l    MapLayer
		want rune
	}{
		{MapCell{Best: "upper"}, LayerBest, '█'},
		{MapCell{Best: "prior"}, LayerBest, '░'},
		{MapCell{Best: ""}, LayerBest, '·'},
		{MapCell{Gap: 1.99}, LayerGap, ' '},
		{MapCell{Gap: 2}, LayerGap, '░'},
		{MapCell{Gap: 10}, LayerGap, '▒'},
		{MapCell{Gap: 999}, LayerGap, '▓'},
		{MapCell{Gap: math.Inf(1)}, LayerGap, '█'},
		{MapCell{Gap: math.NaN()}, LayerGap, '·'},
		{MapCell{ACSAGap: 1}, LayerRegime, ' '},
		{MapCell{ACSAGap: 0}, LayerRegime, ' '},
		{MapCell{ACSAGap: 1.01}, LayerRegime, '░'},
		{MapCell{ACSAGap: 1.5}, LayerRegime, '▒'},
		{MapCell{ACSAGap: 3}, LayerRegime, '▓'},
		{MapCell{ACSAGap: 4}, LayerRegime, '█'},
		{MapCell{ACSAGap: math.NaN()}, LayerRegime, '·'},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v in %s", c.c, c.l), func(t *testing.T) {
			if got := c.c.Rune(c.l); got != c.want {
				t.Errorf("%+v in %s: %q, want %q", c.c, c.l, got, c.want)
			}
		})
	}
}

func TestRateMapOtherAxesAndClasses(t *testing.T) {
	// k and ε as axes for smooth-sc, with a moment profile r̃_k = k (it
	// grows with k) set per cell.
	base := P2.params()
	m, err := NewRateMap(MapSpec{Class: SmoothSC, Base: base, X: AxisEps, Y: AxisK, XMin: 0.1, XMax: 10, NX: 5, YMin: 2, YMax: 32, NY: 5,
		Adjust: func(p *Params) { p.Rk = p.K }})
	if err != nil {
		t.Fatal(err)
	}
	for j, row := range m.Cells {
		for i, c := range row {
			p := base
			p.Eps, p.K, p.Rk = m.Xs[i], m.Ys[j], m.Ys[j]
			if up := mustEval(t, SmoothSCSGD, p).Value; c.Upper != up {
				t.Errorf("ε=%g k=%g: upper %g, want %g", p.Eps, p.K, c.Upper, up)
			}
			if !math.IsNaN(c.ACSAGap) {
				t.Errorf("smooth-sc has a regime %g", c.ACSAGap)
			}
		}
	}
	if x, y, err := ParseMapAxes("n,eps"); err != nil || x != AxisN || y != AxisEps {
		t.Errorf("ParseMapAxes: %s %s %v", x, y, err)
	}
	for _, s := range []string{"n", "n,n", "n,mu", "n,eps,d", ""} {
		t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
			if _, _, err := ParseMapAxes(s); err == nil {
				t.Errorf("ParseMapAxes(%q) accepted", s)
			}
		})
	}
	bad := []MapSpec{
		{Class: "bogus", Base: base, X: AxisN, Y: AxisEps, XMin: 10, XMax: 100, NX: 2, YMin: 1, YMax: 2, NY: 2},
		{Class: SmoothSC, Base: base, X: AxisN, Y: AxisN, XMin: 10, XMax: 100, NX: 2, YMin: 1, YMax: 2, NY: 2},
		{Class: SmoothSC, Base: base, X: AxisN, Y: AxisEps, XMin: 0.5, XMax: 100, NX: 2, YMin: 1, YMax: 2, NY: 2},
		{Class: SmoothSC, Base: base, X: AxisK, Y: AxisEps, XMin: 1.5, XMax: 4, NX: 2, YMin: 1, YMax: 2, NY: 2},
		{Class: SmoothSC, Base: base, X: AxisN, Y: AxisEps, XMin: 10, XMax: 100, NX: 1, YMin: 1, YMax: 2, NY: 2},
		{Class: SmoothSC, Base: base, X: AxisN, Y: AxisEps, XMin: 10, XMax: math.Inf(1), NX: 2, YMin: 1, YMax: 2, NY: 2},
		{Class: SmoothSC, Base: NewParams(), X: AxisN, Y: AxisEps, XMin: 10, XMax: 100, NX: 2, YMin: 1, YMax: 2, NY: 2},
	}
	for i, s := range bad {
		if _, err := NewRateMap(s); err == nil {
			t.Errorf("bad spec %d accepted", i)
		}
	}
}

func TestACSAGapAt(t *testing.T) {
	// The general regime reduces to the remark's at the Figure-1 normalization ...
	for _, n := range []float64{100, 1e6, 1e12} {
		for _, d := range []float64{1, 50, 1e4} {
			g, err := ACSAGapAt(Figure1Params(n, d, 0.7))
			if err != nil || relErr(g, ACSAGap(n, d, 0.7)) > 1e-12 {
				t.Errorf("n=%g d=%g: %g vs %g (%v)", n, d, g, ACSAGap(n, d, 0.7), err)
			}
		}
	}
	// ... is 0 for affine losses, and at k = 4, β = 10, D = 2, r̃_k = 5 (P2:
	// n = 5000, a = √20/(0.5·5000)) is min{(βD/r̃)^(3/19)·a^(12/19 − 3/4), (βD/r̃)^(3/16)·n^(3/32)}.
	p := P2.params()
	a := math.Sqrt(20) / 2500
	want := math.Min(math.Pow(4, 3.0/19)*math.Pow(a, 12.0/19-0.75), math.Pow(4, 3.0/16)*math.Pow(5000, 3.0/32))
	if g, _ := ACSAGapAt(p); relErr(g, want) > 1e-12 {
		t.Errorf("P2: %.15g, want %.15g", g, want)
	}
	p.Beta = 0
	if g, _ := ACSAGapAt(p); g != 0 {
		t.Errorf("β = 0: %g", g)
	}
	if _, err := ACSAGapAt(NewParams()); err == nil {
		t.Error("nothing given: no error")
	}
}
