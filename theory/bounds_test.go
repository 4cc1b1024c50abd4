package theory

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"
)

// pt is a test point; fields left zero are set by mk.
type pt struct {
	n, d, eps, k, diam, r2, rk, r2k, beta, mu, lf, kf float64
	// The inputs of the variant bounds: r_2, r_k, r_2k (non-central),
	// γ_2^{1/2}, γ_k^{1/k}, γ_2k^{1/(2k)}, R̃_{2k,n}, R̃_{2k,n/4}, δ.
	r2nc, rknc, r2knc, g2, gk, g2k, emp, emp4, delta float64
}

func (q pt) params() Params {
	return Params{N: q.n, Dim: q.d, Eps: q.eps, K: q.k, Diam: q.diam, R2: q.r2, Rk: q.rk, R2k: q.r2k,
		Beta: q.beta, Mu: q.mu, Lf: q.lf, KappaF: q.kf,
		R2NC: q.r2nc, RkNC: q.rknc, R2kNC: q.r2knc, G2: q.g2, Gk: q.gk, G2k: q.g2k,
		R2kEmp: q.emp, R2kEmp4: q.emp4, Delta: q.delta}
}

func relErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / math.Abs(want)
}

func mustEval(t *testing.T, id string, p Params) Bound {
	t.Helper()
	b, err := Evaluate(id, p)
	if err != nil {
		t.Fatalf("Evaluate(%s): %v", id, err)
	}
	return b
}

// The three reference points. Values at P1 are computed by hand below; the
// values at P2 and P3 come from an independent Python transcription of the
// bounds' formulas (float64, math.pow), not from this package; those of the
// variant bounds (all three points) from a transcription of the paper's
// statements in 50-digit mpmath, likewise independent of this package.
var (
	P1 = pt{n: 1e4, d: 100, eps: 1, k: 2, diam: 1, r2: 1, rk: 1, r2k: 1, beta: 1, mu: 1, lf: 1, kf: 1,
		r2nc: 0.5, rknc: 0.5, r2knc: 0.8, g2: 0.1, gk: 0.1, g2k: 0.1, emp: 0.9, emp4: 0.95, delta: 1e-6}
	P2 = pt{n: 5e3, d: 20, eps: 0.5, k: 4, diam: 2, r2: 3, rk: 5, r2k: 8, beta: 10, mu: 0.5, lf: 1e3, kf: 20,
		r2nc: 2, rknc: 4, r2knc: 6, g2: 0.3, gk: 0.7, g2k: 1.1, emp: 7, emp4: 7.5, delta: 1e-5}
	P3 = pt{n: 1e6, d: 1000, eps: 4, k: 3, diam: 0.5, r2: 2, rk: 2.5, r2k: 3, beta: 0.01, mu: 0.05, lf: 50, kf: 2,
		r2nc: 1.5, rknc: 1.8, r2knc: 2.2, g2: 0.05, gk: 0.06, g2k: 0.08, emp: 2.9, emp4: 2.95, delta: 1e-8}
)

func TestEvaluateReferenceValues(t *testing.T) {
	// At P1 (n = 10⁴, d = 100, ε = 1, k = 2, everything else 1):
	// a = √d/(εn) = 10⁻³, ln n = 9.210340372, ρ = 1/2, √d/(√ρ n) = 1.414213562e−3.
	//  acsa: 1/100 + a^(1/2) + min{a^(4/9), a^(1/2)·n^(1/16)}
	//        = 0.01 + 0.0316227766 + min{0.0464158883, 0.0562341325} = 0.0880386649
	//  sc-sgd: 1/n + √(d ln n)/n = 1e−4 + 30.34854262/1e4 = 0.0031348543
	//  ns-convex: 1/√n + (√(d ln n)/n)^(1/2) = 0.01 + 0.0550895113 = 0.0650895113
	//  ns-sc: same as sc-sgd at κ = 1 = 0.0031348543
	//  ppl: √d·ln n/n + ln n/n = 9.210340372e−3 + 9.210340372e−4 = 0.0101313744
	//  lower-convex: 1/√n + (1.414213562e−3)^(1/2) = 0.01 + 0.0376060309 = 0.0476060309
	//  lower-sc: 1/n + 1.414213562e−3 = 0.0015142136
	//  klz21-convex: √(d/n) = 0.1; klz21-sc: 1/n + √d/n = 0.0011
	//  lipschitz-convex: 1/√n + √d/n = 0.011; lipschitz-sc: 1/n + d/n² = 0.000101
	cases := []struct {
		id   string
		at   pt
		want float64
	}{
		{SmoothConvexACSA, P1, 0.088038664937811581},
		{SmoothSCSGD, P1, 0.0031348542587702924},
		{NonsmoothConvexLocalized, P1, 0.065089511331743469},
		{NonsmoothSCLocalized, P1, 0.0031348542587702924},
		{PPLProxSGD, P1, 0.010131374409173803},
		{LowerConvex, P1, 0.047606030930863935},
		{LowerSC, P1, 0.0015142135623730949},
		{PriorKLZ21Convex, P1, 0.1},
		{PriorKLZ21SC, P1, 0.0011},
		{PriorLipschitzConvex, P1, 0.011},
		{PriorLipschitzSC, P1, 0.000101},

		{SmoothConvexACSA, P2, 0.40084089291428793},
		{SmoothSCSGD, P2, 0.18197227790464127},
		{NonsmoothConvexLocalized, P2, 0.53702508160444107},
		{NonsmoothSCLocalized, P2, 0.073883064537805299},
		{PPLProxSGD, P2, 9.0237459232830819},
		{LowerConvex, P2, 0.19765499306651407},
		{LowerSC, P2, 0.0099621658301364061},
		{PriorKLZ21Convex, P2, 0.63245553203367577},
		{PriorKLZ21SC, P2, 83.2},
		{PriorLipschitzConvex, P2, 31.861980011461565},
		{PriorLipschitzSC, P2, 406.4},

		{SmoothConvexACSA, P3, 0.0020528745275777745},
		{SmoothSCSGD, P3, 0.00011876394610378974},
		{NonsmoothConvexLocalized, P3, 0.0029283684357304164},
		{NonsmoothSCLocalized, P3, 0.00034321891105527658},
		{PPLProxSGD, P3, 0.00029737770174254025},
		{LowerConvex, P3, 0.001625},
		{LowerSC, P3, 0.00011125},
		{PriorKLZ21Convex, P3, 0.039528470752104736},
		{PriorKLZ21SC, P3, 0.0010787450656184296},
		{PriorLipschitzConvex, P3, 0.02519764235376052},
		{PriorLipschitzSC, P3, 0.050003124999999995},

		// Variant bounds. By hand at P1 (a = 10⁻³, ln n = 9.210340372,
		// √d/(√ρn) = 1.414213562e−3; ε̃ = 1/ln(d/δ) = 1/ln 10⁸ = 0.054286810):
		//  acsa-optimal: 1/√n + a^(1/2) = 0.01 + 0.0316227766 = 0.0416227766
		//  acsa-shuffle: a = √d/(ε̃n) = 0.018420681: 0.01 + 0.135722811 +
		//      min{a^(4/9) = 0.169443, a^(1/2)·n^(1/16) = 0.241354} = 0.315166
		//  sc-sgd-shuffle: 1/n + √(d ln n)/(ε̃n) = 1e−4 + 30.34854262/542.86810 = 0.0560041
		//  localized-emp: 0.9 × nonsmooth-convex-localized(P1) = 0.9 × 0.0650895113 = 0.0585805602
		//  sc-localized-emp: 0.95² × 0.0031348543 = 0.0028292060
		//  asymptotic-convex: 0.8 × 0.0650895113; asymptotic-sc: 0.64 × 0.0031348543
		//  asymptotic-*-coord: √d·γ_2k^(1/(2k)) = 10 × 0.1 = 1: the localized values
		//  lower-convex-nc: 0.5 × lower-convex(P1) = 0.0238030155; lower-sc-nc:
		//      0.25/n + 0.25 × 1.414213562e−3 = 3.78553391e−4
		//  lower-*-coord: √d·γ^(1/k) = 1 and √d·γ₂^(1/2) = 1: lower-convex(P1), lower-sc(P1)
		{SmoothConvexACSAOptimal, P1, 0.041622776601683793},
		{SmoothConvexACSAShuffle, P1, 0.31516624261900787},
		{SmoothSCSGDShuffle, P1, 0.05600408140523176},
		{PPLProxSGDShuffle, P1, 0.17058177357250635},
		{NonsmoothConvexLocalizedEmp, P1, 0.058580560198569127},
		{NonsmoothSCLocalizedEmp, P1, 0.0028292059685401892},
		{AsymptoticConvex, P1, 0.05207160906539478},
		{AsymptoticSC, P1, 0.0020063067256129873},
		{AsymptoticConvexCoord, P1, 0.065089511331743475},
		{AsymptoticSCCoord, P1, 0.0031348542587702927},
		{LowerConvexNC, P1, 0.023803015465431968},
		{LowerConvexCoord, P1, 0.047606030930863936},
		{LowerSCNC, P1, 0.00037855339059327376},
		{LowerSCCoord, P1, 0.001514213562373095},
		{SmoothConvexACSAOptimal, P2, 0.17183518478402498},
		{SmoothConvexACSAShuffle, P2, 1.9717162470455664},
		{SmoothSCSGDShuffle, P2, 9.8611323759702083},
		{PPLProxSGDShuffle, P2, 465.40998780477694},
		{NonsmoothConvexLocalizedEmp, P2, 0.46989694640388593},
		{NonsmoothSCLocalizedEmp, P2, 0.064936287191430445},
		{AsymptoticConvex, P2, 0.4027688112033308},
		{AsymptoticSC, P2, 0.041559223802515485},
		{AsymptoticConvexCoord, P2, 0.33022676172472307},
		{AsymptoticSCCoord, P2, 0.027937033778357631},
		{LowerConvexNC, P2, 0.14681028595422649},
		{LowerConvexCoord, P2, 0.10857266739610479},
		{LowerSCNC, P2, 0.0056717861312872994},
		{LowerSCCoord, P2, 0.0032139690054134709},
		{SmoothConvexACSAOptimal, P3, 0.0014960628287400623},
		{SmoothConvexACSAShuffle, P3, 0.0092405936672656229},
		{SmoothSCSGDShuffle, P3, 0.0029634060998997584},
		{PPLProxSGDShuffle, P3, 0.0058987219519914156},
		{NonsmoothConvexLocalizedEmp, P3, 0.0028307561545394022},
		{NonsmoothSCLocalizedEmp, P3, 0.00033187361927317148},
		{AsymptoticConvex, P3, 0.0021474701862023051},
		{AsymptoticSC, P3, 0.00018457550327861533},
		{AsymptoticConvexCoord, P3, 0.0024694170893473379},
		{AsymptoticSCCoord, P3, 0.00024406678119486325},
		{LowerConvexNC, P3, 0.0012},
		{LowerConvexCoord, P3, 0.0012649110640673517},
		{LowerSCNC, P3, 6.12e-5},
		{LowerSCCoord, P3, 6.8e-5},

		// The coordinate-wise shuffle oracle's bounds: the chart bound at
		// r̃_k → √d·γ_k^(1/k), r̃₂ → √d·γ₂^(1/2), ε → ε̃ = ε/ln(d/δ).
		// At P1, √d·γ_k^(1/k) = √d·γ₂^(1/2) = 10 × 0.1 = 1 = r̃_k = r̃₂, so
		// each equals its ℓ2 shuffle bound at P1 (by hand above). At P2 by
		// hand: ε̃ = 0.5/ln(2·10⁶) = 0.5/14.508658 = 0.034462182,
		// √d·γ_k^(1/k) = √20 × 0.7 = 3.1304952, √d·γ₂^(1/2) = √20 × 0.3 =
		// 1.3416408, κ = 20, ln n = 8.5171932, e = 3/2:
		//  sc-sgd: (1.8/n + 9.8·(√(20·20·8.5171932)/(ε̃n))^(3/2))/μ
		//        = (3.6e−4 + 9.8 × (58.368476/172.31091)^(3/2))/0.5
		//        = (3.6e−4 + 9.8 × 0.19715176)/0.5 = 3.8648745
		//  ppl: (9.8·(√20·20·8.5171932/(ε̃n))^(3/2) + 1.8·20·8.5171932/n)/μ
		//     = (9.8 × (761.80803/172.31091)^(3/2) + 0.061323791)/0.5
		//     = (9.8 × 9.2961190 + 0.061323791)/0.5 = 182.32297
		// The other values (P2's acsa, P3) from a float64 Python
		// transcription of the chart formulas with these substitutions,
		// independent of this package.
		{SmoothConvexACSAShuffleCoord, P1, 0.31516624261900787},
		{SmoothSCSGDShuffleCoord, P1, 0.05600408140523176},
		{PPLProxSGDShuffleCoord, P1, 0.17058177357250635},
		{SmoothConvexACSAShuffleCoord, P2, 1.278896734387333},
		{SmoothSCSGDShuffleCoord, P2, 3.864872691380322},
		{PPLProxSGDShuffleCoord, P2, 182.32297354079444},
		{SmoothConvexACSAShuffleCoord, P3, 0.0071655971452010102},
		{SmoothSCSGDShuffleCoord, P3, 0.0017108419135422619},
		{PPLProxSGDShuffleCoord, P3, 0.003408495204624501},
	}
	seen := map[string]int{}
	for _, c := range cases {
		seen[c.id]++
		t.Run(fmt.Sprintf("%s at n=%g", c.id, c.at.n), func(t *testing.T) {
			b := mustEval(t, c.id, c.at.params())
			// Different but equivalent float64 expressions: a few ulps apart.
			if e := relErr(b.Value, c.want); e > 1e-13 {
				t.Errorf("%s at %+v = %.17g, want %.17g (rel err %.2g)", c.id, c.at, b.Value, c.want, e)
			}
			sum := 0.0
			for _, tm := range b.Terms {
				sum += tm.Value
			}
			if sum != b.Value {
				t.Errorf("%s: terms sum to %g, value %g", c.id, sum, b.Value)
			}
		})
	}
	for _, id := range IDs() {
		if seen[id] < 3 {
			t.Errorf("%s has %d reference points, want ≥ 3", id, seen[id])
		}
	}
}

// direct evaluates each formula literally (math.Pow on the formula as
// written), independently of the term machinery, for finite k.
func direct(id string, q pt) float64 {
	n, d, eps, k := q.n, q.d, q.eps, q.k
	a := math.Sqrt(d) / (eps * n)
	rho := eps * eps / 2
	kap := q.beta / q.mu
	e := (2*k - 2) / k
	h := (k - 1) / k
	ln := math.Log(n)
	switch id {
	case SmoothConvexACSA:
		x := q.beta * q.diam / q.rk
		m := math.Min(math.Pow(math.Pow(x, 0.25)*a, 4*(k-1)/(5*k-1)),
			math.Pow(x, (k-1)/(4*k))*math.Pow(a, h)*math.Pow(n, (k-1)/(8*k)))
		return q.r2*q.diam/math.Sqrt(n) + q.rk*q.diam*(math.Pow(a, h)+m)
	case SmoothSCSGD:
		return (q.r2*q.r2/n + q.rk*q.rk*math.Pow(math.Sqrt(d*kap*ln)/(eps*n), e)) / q.mu
	case NonsmoothConvexLocalized:
		return q.r2k * q.diam * (1/math.Sqrt(n) + math.Pow(math.Sqrt(d*ln)/(eps*n), h))
	case NonsmoothSCLocalized:
		return q.r2k * q.r2k / q.mu * (1/n + math.Pow(math.Sqrt(d*ln)/(eps*n), e))
	case PPLProxSGD:
		return (q.rk*q.rk*math.Pow(math.Sqrt(d)*kap*ln/(eps*n), e) + q.r2*q.r2*kap*ln/n) / q.mu
	case LowerConvex:
		return q.diam * (q.r2/math.Sqrt(n) + q.rk*math.Min(1, math.Pow(math.Sqrt(d)/(math.Sqrt(rho)*n), h)))
	case LowerSC:
		return (q.r2*q.r2/n + q.rk*q.rk*math.Min(1, math.Pow(math.Sqrt(d)/(math.Sqrt(rho)*n), e))) / q.mu
	case PriorKLZ21Convex:
		return q.rk * q.diam * math.Sqrt(d/n)
	case PriorKLZ21SC:
		k3 := q.kf * q.kf * q.kf
		return q.rk * q.rk / q.mu * (k3/n + math.Pow(math.Sqrt(d*k3)/(eps*n), e))
	case PriorLipschitzConvex:
		return q.lf * q.diam * (1/math.Sqrt(n) + math.Sqrt(d)/(eps*n))
	case PriorLipschitzSC:
		return q.lf * q.lf / q.mu * (1/n + d/(eps*eps*n*n))
	}
	loc := math.Sqrt(d*ln) / (eps * n)
	s := math.Sqrt(d) / (math.Sqrt(rho) * n)
	shuffled := q
	shuffled.eps = eps / math.Log(d/q.delta)
	switch id {
	case SmoothConvexACSAOptimal:
		return q.r2*q.diam/math.Sqrt(n) + q.rk*q.diam*math.Pow(a, h)
	case SmoothConvexACSAShuffle:
		return direct(SmoothConvexACSA, shuffled)
	case SmoothSCSGDShuffle:
		return direct(SmoothSCSGD, shuffled)
	case PPLProxSGDShuffle:
		return direct(PPLProxSGD, shuffled)
	}
	coord := shuffled
	coord.rk, coord.r2 = math.Sqrt(d)*q.gk, math.Sqrt(d)*q.g2
	switch id {
	case SmoothConvexACSAShuffleCoord:
		return direct(SmoothConvexACSA, coord)
	case SmoothSCSGDShuffleCoord:
		return direct(SmoothSCSGD, coord)
	case PPLProxSGDShuffleCoord:
		return direct(PPLProxSGD, coord)
	case NonsmoothConvexLocalizedEmp:
		return q.emp * q.diam * (1/math.Sqrt(n) + math.Pow(loc, h))
	case NonsmoothSCLocalizedEmp:
		return q.emp4 * q.emp4 / q.mu * (1/n + math.Pow(loc, e))
	case AsymptoticConvex:
		return q.r2knc * q.diam * (1/math.Sqrt(n) + math.Pow(loc, h))
	case AsymptoticSC:
		return q.r2knc * q.r2knc / q.mu * (1/n + math.Pow(loc, e))
	case AsymptoticConvexCoord:
		return math.Sqrt(d) * q.g2k * q.diam * (1/math.Sqrt(n) + math.Pow(loc, h))
	case AsymptoticSCCoord:
		return d * q.g2k * q.g2k / q.mu * (1/n + math.Pow(loc, e))
	case LowerConvexNC:
		return q.diam * (q.r2nc/math.Sqrt(n) + q.rknc*math.Min(1, math.Pow(s, h)))
	case LowerConvexCoord:
		return q.diam * (q.g2*math.Sqrt(d/n) + q.gk*math.Sqrt(d)*math.Min(1, math.Pow(s, h)))
	case LowerSCNC:
		return (q.r2nc*q.r2nc/n + q.rknc*q.rknc*math.Min(1, math.Pow(s, e))) / q.mu
	case LowerSCCoord:
		return (q.g2*q.g2*d/n + q.gk*q.gk*d*math.Min(1, math.Pow(s, e))) / q.mu
	}
	panic("unknown id " + id)
}

// grid is a deterministic spread of points over several orders of
// magnitude in every input.
func grid() []pt {
	var out []pt
	i := 0
	for _, n := range []float64{3, 50, 1e3, 1e5, 1e8} {
		for _, d := range []float64{1, 10, 1e3} {
			for _, eps := range []float64{0.1, 1, 8} {
				for _, k := range []float64{2, 3, 6.5, 40} {
					i++
					f := float64(i%7 + 1)
					out = append(out, pt{n: n, d: d, eps: eps, k: k, diam: 0.5 * f, r2: f, rk: 1.5 * f, r2k: 2 * f,
						beta: []float64{0, 0.3, 1, 50}[i%4], mu: []float64{0.01, 0.3, 1}[i%3] / 10, lf: 100 * f, kf: float64(1 + i%5),
						r2nc: 0.7 * f, rknc: 1.1 * f, r2knc: 1.6 * f, g2: 0.2 * f, gk: 0.3 * f, g2k: 0.4 * f,
						emp: 1.9 * f, emp4: 1.95 * f, delta: []float64{1e-3, 1e-6, 1e-9}[i%3]})
				}
			}
		}
	}
	return out
}

func TestEvaluateMatchesDirectFormula(t *testing.T) {
	for _, q := range grid() {
		for _, id := range IDs() {
			b := mustEval(t, id, q.params())
			want := direct(id, q)
			// Equivalent float64 expressions with up to ~10 roundings and
			// powers of moderate arguments: 1e−12 relative.
			if e := relErr(b.Value, want); e > 1e-12 {
				t.Errorf("%s at %+v = %.17g, direct formula %.17g (rel err %.2g)", id, q, b.Value, want, e)
			}
		}
	}
}

// jsonKeys is v's JSON, decoded as an object, and its keys in order.
func jsonKeys(t *testing.T, v any) ([]byte, map[string]any, []string) {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	return js, m, slices.Sorted(maps.Keys(m))
}
