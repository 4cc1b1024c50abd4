package theory

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// condHolds returns the Holds of b's condition containing sub (and whether
// there is one).
func condHolds(b Bound, sub string) (bool, bool) {
	for _, c := range b.Conditions {
		if strings.Contains(c.Text, sub) {
			return c.Holds, true
		}
	}
	return false, false
}

func TestVariantConditionEdges(t *testing.T) {
	// Each hypothesis at its edge (where ≤ holds), and just past it.
	thr := 0.01 + math.Sqrt(1e-3) // P1: (r̃_k/D)a^(1/2) + (r̃₂/D)/√n, a = 10⁻³
	cases := []struct {
		id       string
		mod      func(*pt)
		contains string
		holds    bool
	}{
		{SmoothConvexACSAOptimal, func(q *pt) { q.beta = thr }, "β ≤ r̃_k·a", true},
		{SmoothConvexACSAOptimal, func(q *pt) { q.beta = thr * (1 + 1e-9) }, "β ≤ r̃_k·a", false},
		{SmoothConvexACSAOptimal, func(q *pt) { q.beta = 0 }, "β ≤ r̃_k·a", true}, // affine: always optimal
		{SmoothConvexACSAOptimal, func(q *pt) {}, "n ≥ T", true},
		{SmoothConvexACSAShuffle, func(q *pt) { q.eps = 15 }, "ε ≤ 15", true},
		{SmoothConvexACSAShuffle, func(q *pt) { q.eps = 15.000001 }, "ε ≤ 15", false},
		{SmoothSCSGDShuffle, func(q *pt) { q.delta = 0.4999999 }, "δ < 1/2", true},
		{SmoothSCSGDShuffle, func(q *pt) { q.delta = 0.5 }, "δ < 1/2", false},
		{PPLProxSGDShuffle, func(q *pt) { q.beta = 1e4 }, "κ ≤ n/ln n", false},
		{PPLProxSGDShuffle, func(q *pt) {}, "κ ≤ n/ln n", true},
		// The shuffle bound's own conditions are checked at ε̃: with β = 10⁴,
		// n = 100, acsa's T = ⌈(10⁴)^(4/9)·(εn/√d)^(2/9)⌉ is ⌈59.95·10^(2/9)⌉ =
		// ⌈100.0⌉ = 101 > n at ε = 1, and ⌈59.95·0.54287^(2/9)⌉ = ⌈52.3⌉ = 53
		// at ε̃ = 1/ln(10⁸) (ε̃n/√d = 0.54287).
		{SmoothConvexACSAShuffle, func(q *pt) { q.beta, q.n = 1e4, 100 }, "T = 53;", true},
		{NonsmoothConvexLocalizedEmp, func(q *pt) { q.emp = 1 }, "R̃_{2k,n} ≤ r̃_2k", true},
		{NonsmoothConvexLocalizedEmp, func(q *pt) { q.emp = 1.0000001 }, "R̃_{2k,n} ≤ r̃_2k", false},
		{NonsmoothConvexLocalizedEmp, func(q *pt) { q.eps = 10 }, "ε ≤ √d", true},
		{NonsmoothConvexLocalizedEmp, func(q *pt) { q.eps = 10.000001 }, "ε ≤ √d", false},
		{NonsmoothSCLocalizedEmp, func(q *pt) { q.emp4 = 1.5 }, "R̃_{2k,n/4} ≤ r̃_2k", false},
		{AsymptoticConvex, func(q *pt) {}, "n ≥ N", false}, // never verifiable
		{AsymptoticSC, func(q *pt) { q.n = 1e30 }, "n ≥ N", false},
		{AsymptoticConvexCoord, func(q *pt) { q.r2k = math.Inf(1) }, "r̃_2k < ∞", false},
		{AsymptoticSCCoord, func(q *pt) {}, "r̃_2k < ∞", true},
		{LowerConvexNC, func(q *pt) { q.n = 7203 }, "n > 7202", true},
		{LowerConvexNC, func(q *pt) { q.n = 7202 }, "n > 7202", false},
		{LowerConvexCoord, func(q *pt) { q.d = 40 }, "d ≥ 40", true},
		{LowerConvexCoord, func(q *pt) { q.d = 39 }, "d ≥ 40", false},
		{LowerSCNC, func(q *pt) { q.eps, q.d = 4, 8 }, "ρ = ε²/2 ≤ d", true}, // ρ = 8 = d
		{LowerSCNC, func(q *pt) { q.eps, q.d = 4.000001, 8 }, "ρ = ε²/2 ≤ d", false},
		{LowerSCCoord, func(q *pt) { q.d = 39 }, "d ≥ 40", false},
		// prop: sdp bias var: ε ≤ 8·ln(2d/δ) = 8·ln(2·10⁸) = 152.91 at P1,
		// δ ∈ (0, 1/2).
		{SmoothConvexACSAShuffleCoord, func(q *pt) { q.eps = 8 * math.Log(2e8) }, "ε ≤ 8·ln(2d/δ)", true},
		{SmoothConvexACSAShuffleCoord, func(q *pt) { q.eps = 8 * math.Log(2e8) * (1 + 1e-9) }, "ε ≤ 8·ln(2d/δ)", false},
		{SmoothSCSGDShuffleCoord, func(q *pt) { q.eps, q.d = 16, 1; q.delta = 2 / math.Exp(2) }, "ε ≤ 8·ln(2d/δ)", true}, // 8·ln(e²) = 16
		{SmoothSCSGDShuffleCoord, func(q *pt) { q.delta = 0.4999999 }, "δ < 1/2", true},
		{SmoothSCSGDShuffleCoord, func(q *pt) { q.delta = 0.5 }, "δ < 1/2", false},
		{PPLProxSGDShuffleCoord, func(q *pt) { q.delta = 0.7 }, "δ < 1/2", false},
		{PPLProxSGDShuffleCoord, func(q *pt) {}, "γ_k < ∞", true},
		{PPLProxSGDShuffleCoord, func(q *pt) { q.beta = 1e4 }, "κ ≤ n/ln n", false},
		// acsa's T is computed at ε̃ and √d·γ_k^(1/k): with β = 10⁴, n = 100,
		// d = 100, γ_k^(1/k) = 0.1 (√d·γ_k^(1/k) = 1 = r̃_k) it is the ℓ2
		// shuffle bound's T = 53 above; with γ_k^(1/k) = 0.01 (√d·γ_k^(1/k)
		// = 0.1) T = ⌈(10⁵)^(4/9)·0.54287^(2/9)⌉ = ⌈166.8·0.8730⌉ = 146 > n.
		{SmoothConvexACSAShuffleCoord, func(q *pt) { q.beta, q.n = 1e4, 100 }, "T = 53;", true},
		{SmoothConvexACSAShuffleCoord, func(q *pt) { q.beta, q.n, q.gk = 1e4, 100, 0.01 }, "T = 146;", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s: %s holds=%v", c.id, c.contains, c.holds), func(t *testing.T) {
			q := P1
			c.mod(&q)
			b := mustEval(t, c.id, q.params())
			h, ok := condHolds(b, c.contains)
			if !ok {
				t.Errorf("%s: no condition containing %q in %+v", c.id, c.contains, b.Conditions)
				return
			}
			if h != c.holds {
				t.Errorf("%s %q: holds = %v, want %v (%+v)", c.id, c.contains, h, c.holds, b.Conditions)
			}
			// The value is the formula's whether or not conditions hold.
			if want := direct(c.id, q); relErr(b.Value, want) > 1e-12 {
				t.Errorf("%s: value %g, formula %g", c.id, b.Value, want)
			}
		})
	}
	// Without r̃_2k the empirical-moment condition is not stated.
	q := P1.params()
	q.R2k = math.NaN()
	if _, ok := condHolds(mustEval(t, NonsmoothConvexLocalizedEmp, q), "R̃_{2k,n} ≤"); ok {
		t.Error("R̃ ≤ r̃_2k stated without r̃_2k")
	}
	// T at ε = 1 for the edge case above: the zCDP bound's condition fails.
	q = P1.params()
	q.Beta, q.N = 1e4, 100
	if h, ok := condHolds(mustEval(t, SmoothConvexACSA, q), "T = 101)"); h || !ok {
		t.Errorf("acsa at β = 10⁴, n = 100: %+v", mustEval(t, SmoothConvexACSA, q).Conditions)
	}
}

func TestAffineOptimalBeta(t *testing.T) {
	// P1: a = 10⁻³: β* = a^(1/2) + 1/√n = 0.0316227766 + 0.01.
	b, err := affineOptimalBeta(P1.params())
	if err != nil || relErr(b, 0.041622776601683793) > 1e-15 {
		t.Errorf("β* = %.17g, %v", b, err)
	}
	// P2 (k = 4, D = 2, r̃_k = 5, r̃₂ = 3, a = √20/2500): (5/2)a^(3/4) + (3/2)/√5000.
	a := math.Sqrt(20) / 2500
	if b, _ := affineOptimalBeta(P2.params()); relErr(b, 2.5*math.Pow(a, 0.75)+1.5/math.Sqrt(5000)) > 1e-14 {
		t.Errorf("P2 β* = %g", b)
	}
	// Below β*, acsa's bound is within its own optimal terms: the
	// smoothness term is at most the privacy term plus the statistical one
	// times a constant (here checked: ratio to the optimal value ≤ 3).
	for _, q := range []pt{P1, P2, P3} {
		t.Run(fmt.Sprintf("n=%g", q.n), func(t *testing.T) {
			p := q.params()
			bs, _ := affineOptimalBeta(p)
			p.Beta = bs
			r := mustEval(t, SmoothConvexACSA, p).Value / mustEval(t, SmoothConvexACSAOptimal, p).Value
			if r > 3 || r < 1 {
				t.Errorf("%+v: acsa/optimal at β* = %g", q, r)
			}
		})
	}
	if _, err := affineOptimalBeta(NewParams()); err == nil {
		t.Error("nothing given: no error")
	}
}

func TestShuffleEps(t *testing.T) {
	// d = 100, δ = 10⁻⁶: ε/ln(10⁸) = ε/18.420680743952367.
	if got := ShuffleEps(1, 100, 1e-6); relErr(got, 1/18.420680743952367) > 1e-15 {
		t.Errorf("ShuffleEps = %.17g", got)
	}
	for _, c := range [][3]float64{{0, 1, 0.1}, {1, 0.5, 0.1}, {1, 1, 0.5}, {1, 1, 0}, {math.NaN(), 1, 0.1}} {
		t.Run(fmt.Sprintf("ShuffleEps%v", c), func(t *testing.T) {
			if !math.IsNaN(ShuffleEps(c[0], c[1], c[2])) {
				t.Errorf("ShuffleEps%v not NaN", c)
			}
		})
	}
	// The shuffle bound is its zCDP bound at ε̃.
	p := P2.params()
	for _, pair := range [][2]string{{SmoothConvexACSAShuffle, SmoothConvexACSA}, {SmoothSCSGDShuffle, SmoothSCSGD}, {PPLProxSGDShuffle, PPLProxSGD}} {
		t.Run(pair[0], func(t *testing.T) {
			q := p
			q.Eps = ShuffleEps(p.Eps, p.Dim, p.Delta)
			if a, b := mustEval(t, pair[0], p).Value, mustEval(t, pair[1], q).Value; a != b {
				t.Errorf("%s = %g, %s at ε̃ = %g", pair[0], a, pair[1], b)
			}
		})
	}
}

func TestVariantsAndAssumptions(t *testing.T) {
	cases := []struct {
		id      string
		a       Assumption
		shuffle bool
		want    string
		ok      bool
	}{
		{LowerConvex, Noncentral, false, LowerConvexNC, true},
		{LowerConvex, Coordinatewise, false, LowerConvexCoord, true},
		{LowerSC, Noncentral, false, LowerSCNC, true},
		{LowerSC, Coordinatewise, false, LowerSCCoord, true},
		{SmoothSCSGD, Tilde, true, SmoothSCSGDShuffle, true},
		{SmoothConvexACSA, Tilde, true, SmoothConvexACSAShuffle, true},
		{PPLProxSGD, Tilde, true, PPLProxSGDShuffle, true},
		{PPLProxSGD, Tilde, false, PPLProxSGD, true},
		// The coordinate-wise shuffle oracle's bounds (prop: sdp bias var).
		{SmoothConvexACSA, Coordinatewise, true, SmoothConvexACSAShuffleCoord, true},
		{SmoothSCSGD, Coordinatewise, true, SmoothSCSGDShuffleCoord, true},
		{PPLProxSGD, Coordinatewise, true, PPLProxSGDShuffleCoord, true},
		{NonsmoothSCLocalized, Coordinatewise, true, "", false},
		{LowerConvex, Coordinatewise, true, "", false},
		// The localized theorems need ass:tilde at finite n.
		{NonsmoothConvexLocalized, Noncentral, false, "", false},
		{NonsmoothSCLocalized, Coordinatewise, false, "", false},
		{NonsmoothConvexLocalized, Tilde, true, "", false},
		{"no-such-id", Tilde, false, "", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s shuffle=%v", c.id, c.a, c.shuffle), func(t *testing.T) {
			got, ok := Variant(c.id, c.a, c.shuffle)
			if got != c.want || ok != c.ok {
				t.Errorf("Variant(%s, %s, %v) = %q, %v; want %q, %v", c.id, c.a, c.shuffle, got, ok, c.want, c.ok)
			}
		})
	}
	for id, a := range map[string]Assumption{SmoothConvexACSA: Tilde, LowerConvexNC: Noncentral, AsymptoticSC: Noncentral,
		AsymptoticSCCoord: Coordinatewise, LowerSCCoord: Coordinatewise, SmoothSCSGDShuffle: Tilde, "x": "",
		SmoothSCSGDShuffleCoord: Coordinatewise} {
		t.Run(id, func(t *testing.T) {
			if got := AssumptionOf(id); got != a {
				t.Errorf("AssumptionOf(%s) = %q, want %q", id, got, a)
			}
		})
	}
	for _, a := range Assumptions {
		if b, err := ParseAssumption(string(a)); err != nil || b != a || a.Label() == "" || a.Symbol() == "" {
			t.Errorf("%s: %v %v", a, b, err)
		}
	}
	if _, err := ParseAssumption("weird"); err == nil {
		t.Error("ParseAssumption(weird) accepted")
	}
	// Every variant's base is a chart bound; kinds agree.
	for _, s := range specs {
		if s.base == "" {
			continue
		}
		if !slices.ContainsFunc(Classes, func(c Class) bool { return slices.Contains(ForClass(c), s.base) }) {
			t.Errorf("%s: base %s is not on a chart", s.id, s.base)
		}
		if b, _ := specOf(s.base); b.kind != s.kind {
			t.Errorf("%s is %s, its base %s is %s", s.id, s.kind, s.base, b.kind)
		}
	}
}

func TestPrescriptionAllows(t *testing.T) {
	cases := []struct {
		c     Class
		a     Assumption
		ok    bool
		label string
	}{
		{SmoothConvex, Tilde, true, "thm: convex ACSA one pass"},
		{SmoothConvex, Noncentral, true, "thm: convex ACSA one pass"},
		{SmoothSC, Noncentral, true, "thm: strongly convex smooth upper bound"},
		{PPL, Noncentral, true, "thm: PL upper bound"},
		{SmoothSC, Coordinatewise, true, "lem: comparing assumptions"},
		{NonsmoothConvex, Tilde, true, "thm: localization convex"},
		{NonsmoothConvex, Noncentral, false, "thm: localization convex"},
		{NonsmoothSC, Noncentral, false, "thm: localization strongly convex"},
		{NonsmoothSC, Coordinatewise, false, "lem: comparing assumptions"},
		{"bogus", Tilde, false, ""},
		{SmoothSC, "bogus", false, ""},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s", c.c, c.a), func(t *testing.T) {
			al := PrescriptionAllows(c.c, c.a)
			if al.Allowed != c.ok || !strings.Contains(al.Label, c.label) || al.Reason == "" {
				t.Errorf("PrescriptionAllows(%s, %s) = %+v", c.c, c.a, al)
			}
			if al.Allowed == (al.Substitute == "") {
				t.Errorf("%s/%s: substitute %q with allowed %v", c.c, c.a, al.Substitute, al.Allowed)
			}
		})
	}
}

func TestRkFromCoordinatewise(t *testing.T) {
	// k = 2, d = 4, γ₂^(1/2) = 1.5: √d·γ = 3; with L = √dγ: 2(9+9)^(1/2) = 2·√18 = 8.485281374238570;
	// = 2^(1+1/2)·3.
	if got := RkFromCoordinatewise(2, 4, 1.5, math.NaN()); relErr(got, 2*math.Sqrt(18)) > 1e-15 || relErr(got, math.Pow(2, 1.5)*3) > 1e-15 {
		t.Errorf("k=2: %.17g", got)
	}
	// L = 0: 2·√d·γ; L = 4, k = 3, √dγ = 3: 2(64 + 27)^(1/3) = 2·91^(1/3) = 8.993369..
	if got := RkFromCoordinatewise(3, 4, 1.5, 0); relErr(got, 6) > 1e-15 {
		t.Errorf("L=0: %g", got)
	}
	if got := RkFromCoordinatewise(3, 4, 1.5, 4); relErr(got, 2*math.Cbrt(91)) > 1e-15 {
		t.Errorf("L=4: %.17g", got)
	}
	// Never above the lemma's 4√d·γ_k^(1/k) when L ≤ √dγ (the assumption).
	for _, k := range []float64{2, 3, 7, 50, math.Inf(1)} {
		t.Run(fmt.Sprintf("k=%g", k), func(t *testing.T) {
			if got := RkFromCoordinatewise(k, 9, 2, math.NaN()); got > 4*3*2 {
				t.Errorf("k=%g: %g > 4√dγ", k, got)
			}
		})
	}
	// k = ∞: 2·max(L, √dγ); large k is continuous towards it.
	if got := RkFromCoordinatewise(math.Inf(1), 9, 2, 5); got != 12 {
		t.Errorf("k=∞: %g", got)
	}
	if got := RkFromCoordinatewise(1e9, 9, 2, 5); relErr(got, 12) > 1e-8 {
		t.Errorf("k=1e9: %g", got)
	}
	for _, c := range [][4]float64{{1, 1, 1, 1}, {2, 0, 1, 1}, {2, 1, -1, 1}, {2, 1, 1, -1}} {
		t.Run(fmt.Sprintf("RkFromCoordinatewise%v", c), func(t *testing.T) {
			if !math.IsNaN(RkFromCoordinatewise(c[0], c[1], c[2], c[3])) {
				t.Errorf("%v: not NaN", c)
			}
		})
	}
}

func TestAssumptionInequalities(t *testing.T) {
	// A profile that satisfies everything: d = 4, L = 1, L_f = 10.
	p := MomentProfile{Dim: 4, L: 1, Lf: 10, Orders: []MomentOrder{
		{K: 4, RTilde: 3, R: 2, G: 0.9},
		{K: 2, RTilde: 2, R: 1.5, G: 0.8},
	}}
	iqs := AssumptionInequalities(p)
	// Per order: noncentral, tilde, Jensen, lemma, lemma (proof), coordinatewise = 6; pair: 3.
	if len(iqs) != 2*6+3 {
		t.Fatalf("%d inequalities: %+v", len(iqs), iqs)
	}
	for _, iq := range iqs {
		if !iq.Holds || iq.Label == "" || !strings.Contains(iq.Text, " ≤ ") {
			t.Errorf("%+v", iq)
		}
	}
	// Violations are reported, each by its own inequality.
	bad := MomentProfile{Dim: 4, L: 5, Lf: 2, Orders: []MomentOrder{{K: 4, RTilde: 3, R: 3.5, G: 0.1}, {K: 2, RTilde: 4, R: 1, G: 0.2}}}
	failed := map[string]bool{}
	for _, iq := range AssumptionInequalities(bad) {
		if !iq.Holds {
			failed[iq.Label+": "+iq.Text[:strings.Index(iq.Text, " (")]] = true
		}
	}
	for _, want := range []string{
		"ass:boundednoncentral: r_4 ≤ r̃_4",               // 3.5 > 3
		"ass:tilde: r̃_4 ≤ L_f",                           // 3 > 2
		"Jensen: L = sup‖∇F‖ ≤ r_2",                       // 5 > 1
		"lem: comparing assumptions: r_4 ≤ 4√d·γ_4^(1/4)", // 3.5 > 0.8
		"ass:coordinatewise: L = sup‖∇F‖ ≤ √d·γ_2^(1/2)",  // 5 > 0.4
		"Lyapunov: r̃_2 ≤ r̃_4",                           // 4 > 3
	} {
		if !failed[want] {
			t.Errorf("no failed %q among %v", want, failed)
		}
	}
	// HoldsWithin: a Monte Carlo tolerance.
	iq := ineq("x", "a", 1.01, "b", 1)
	if iq.Holds || !iq.HoldsWithin(0.02) || iq.HoldsWithin(0.001) {
		t.Errorf("%+v", iq)
	}
	// NaN entries drop their inequalities.
	if got := AssumptionInequalities(MomentProfile{Dim: 1, L: math.NaN(), Lf: math.NaN(), Orders: []MomentOrder{{K: 2, RTilde: 1, R: math.NaN(), G: math.NaN()}}}); len(got) != 0 {
		t.Errorf("%+v", got)
	}
}

func TestShuffleCoordMoments(t *testing.T) {
	// An infinite γ_k makes the bound +∞ with its condition failing; the
	// bounds need γ_k and γ₂ themselves (r̃_k does not stand in for them)
	// and δ.
	for _, id := range []string{SmoothConvexACSAShuffleCoord, SmoothSCSGDShuffleCoord, PPLProxSGDShuffleCoord} {
		t.Run(id, func(t *testing.T) {
			q := P2
			q.gk = math.Inf(1)
			b := mustEval(t, id, q.params())
			if h, ok := condHolds(b, "γ_k < ∞"); !ok || h || !math.IsInf(b.Value, 1) {
				t.Errorf("%s at γ_k = ∞: value %g, condition γ_k < ∞ holds %v (present %v)", id, b.Value, h, ok)
			}
			p := P2.params()
			p.Gk, p.G2 = math.NaN(), math.NaN()
			_, err := Evaluate(id, p)
			var me *MissingError
			if !errors.As(err, &me) || !slices.Equal(me.Missing, []string{"g2", "gk"}) {
				t.Errorf("%s without γ: %v, want a MissingError naming g2, gk", id, err)
			}
			if n := Needs(id); !slices.Contains(n, "delta") || slices.Contains(n, "rk") || slices.Contains(n, "r2") {
				t.Errorf("%s needs %v", id, n)
			}
			b = mustEval(t, id, P2.params())
			if b.Label != "prop: sdp bias var" || !strings.Contains(b.Source, "rem: sdp has same bias var") || !strings.Contains(b.Source, "Õ(·)") ||
				!strings.Contains(b.Formula, "√d·γ_k^(1/k)") || strings.Contains(b.Formula, "r̃_k") || !strings.Contains(b.Dominant, "γ") {
				t.Errorf("%s: label %q, source %q, formula %q, dominant %q", id, b.Label, b.Source, b.Formula, b.Dominant)
			}
		})
	}
}

func TestUnevaluable(t *testing.T) {
	b, err := Unevaluable(SmoothSCSGDShuffleCoord, "γ_k is not known")
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(b.Value) || !math.IsNaN(b.RateN) || len(b.Terms) != 0 || b.ConditionsHold() ||
		len(b.Conditions) != 1 || b.Conditions[0].Text != NotEvaluated+"γ_k is not known" || b.Source == "" || b.Kind != Upper {
		t.Errorf("Unevaluable = %+v", b)
	}
	js, err := json.Marshal(b)
	if err != nil || !strings.Contains(string(js), `"value":null`) || !strings.Contains(string(js), `"terms":[]`) {
		t.Errorf("JSON %s, %v", js, err)
	}
	if _, err := Unevaluable("no-such-id", "x"); err == nil {
		t.Error("Unevaluable of an unknown id: no error")
	}
}

// bareEps reports whether s has an ε that is not ε̃ (ε followed by the
// combining tilde).
func bareEps(s string) bool {
	for i := strings.Index(s, "ε"); i >= 0; {
		rest := s[i+len("ε"):]
		if !strings.HasPrefix(rest, "\u0303") {
			return true
		}
		j := strings.Index(rest, "ε")
		if j < 0 {
			return false
		}
		i += len("ε") + j
	}
	return false
}

// TestVariantConditionsSaySubstitution: a variant that evaluates its base
// theorem at substituted inputs (ε → ε̃ = ε/ln(d/δ); r̃_k → √d·γ_k^(1/k),
// r̃₂ → √d·γ₂^(1/2)) states the base's conditions in the variant's symbols
// and with the substituted values at which they were checked; a base
// condition that uses no substituted input is the base's text unchanged.
func TestVariantConditionsSaySubstitution(t *testing.T) {
	// Values by hand: P1 (d = 100, δ = 10⁻⁶): ε̃ = 1/ln(10⁸) = 0.054287;
	// P2 (d = 20, δ = 10⁻⁵, ε = 0.5, γ_k^(1/k) = 0.7): ε̃ = 0.5/ln(2·10⁶)
	// = 0.034462, √d·γ_k^(1/k) = √20·0.7 = 3.1305.
	const epsT = "ε̃ = ε/ln(d/δ) = "
	cases := []struct {
		id, base string
		at       pt
		// substituted: one inherited condition must contain each of these;
		// gone: symbols no inherited condition may still contain.
		substituted []string
		gone        []string
	}{
		{SmoothConvexACSAShuffle, SmoothConvexACSA, P1,
			[]string{"(ε̃n/√d)", "at " + epsT + "0.054287)", "βD/r̃_k"}, nil},
		{SmoothConvexACSAShuffle, SmoothConvexACSA, P2,
			[]string{"(ε̃n/√d)", "at " + epsT + "0.034462)"}, nil},
		{SmoothSCSGDShuffle, SmoothSCSGD, P1, nil, nil},
		{PPLProxSGDShuffle, PPLProxSGD, P2, nil, nil},
		{SmoothConvexACSAShuffleCoord, SmoothConvexACSA, P2,
			[]string{"(ε̃n/√d)", "βD/(√d·γ_k^(1/k))", "√(βD/(√d·γ_k^(1/k)))",
				"at " + epsT + "0.034462, √d·γ_k^(1/k) = 3.1305)"},
			[]string{"r̃_k", "r̃₂"}},
		{SmoothSCSGDShuffleCoord, SmoothSCSGD, P2, nil, []string{"r̃_k", "r̃₂"}},
		{PPLProxSGDShuffleCoord, PPLProxSGD, P1, nil, []string{"r̃_k", "r̃₂"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s at n=%g", c.id, c.at.n), func(t *testing.T) {
			p := c.at.params()
			v, b := mustEval(t, c.id, p), mustEval(t, c.base, p)
			if len(v.Conditions) < len(b.Conditions) {
				t.Fatalf("%s: %d conditions, base %s has %d", c.id, len(v.Conditions), c.base, len(b.Conditions))
			}
			inherited := v.Conditions[len(v.Conditions)-len(b.Conditions):]
			var all []string
			for i, cd := range inherited {
				all = append(all, cd.Text)
				if bareEps(strings.ReplaceAll(cd.Text, "ε̃ = ε/ln(d/δ)", "")) { // the definition names ε

					t.Errorf("%s: inherited condition names ε, checked at ε̃: %q", c.id, cd.Text)
				}
				for _, s := range c.gone {
					if strings.Contains(cd.Text, s) {
						t.Errorf("%s: inherited condition names %s, checked at its substitute: %q", c.id, s, cd.Text)
					}
				}
				if len(c.substituted) == 0 && cd.Text != b.Conditions[i].Text {
					t.Errorf("%s: %q, base's %q (no substituted input in it)", c.id, cd.Text, b.Conditions[i].Text)
				}
			}
			for _, s := range c.substituted {
				if !strings.Contains(strings.Join(all, "\n"), s) {
					t.Errorf("%s at %+v: no inherited condition contains %q: %q", c.id, c.at, s, all)
				}
			}
		})
	}
}

// affineOptimalBeta is affineBeta at p's inputs (n, d, eps, k, diam, r2,
// rk), checked as Evaluate checks them.
func affineOptimalBeta(p Params) (float64, error) {
	p = p.resolved()
	if err := checkInputs("rem: affine optimal", []string{"n", "d", "eps", "k", "diam", "r2", "rk"}, p); err != nil {
		return math.NaN(), err
	}
	v := newVals(p)
	return affineBeta(v), nil
}
