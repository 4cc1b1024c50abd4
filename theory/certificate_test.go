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

// Reference values in this file are hand computations written out beside
// each case; the sums over t and the exponentials were re-evaluated in
// 30-digit mpmath (not from this package).

// certOK returns a function that unwraps a certificate's (value, error),
// failing the test on an error.
func certOK(t *testing.T) func(Certificate, error) Certificate {
	return func(c Certificate, err error) Certificate {
		t.Helper()
		if err != nil {
			t.Fatalf("certificate: %v", err)
		}
		return c
	}
}

func checkValue(t *testing.T, c Certificate, want float64, tol float64) {
	t.Helper()
	if !c.Holds() {
		t.Fatalf("%s: conditions fail: %v", c.ID, c.Failed())
	}
	if relErr(c.Value, want) > tol {
		t.Errorf("%s = %.17g, want %.17g", c.ID, c.Value, want)
	}
	sum := 0.0
	for _, tm := range c.Terms {
		sum += tm.Value
	}
	if sum != c.Value {
		t.Errorf("%s: terms sum to %g, value %g", c.ID, sum, c.Value)
	}
}

func checkFails(t *testing.T, c Certificate, sub string) {
	t.Helper()
	if c.Holds() || !math.IsNaN(c.Value) || len(c.Terms) != 0 {
		t.Errorf("%s: want failed, no value, no terms; got holds %v value %g terms %v", c.ID, c.Holds(), c.Value, c.Terms)
	}
	found := false
	for _, f := range c.Failed() {
		found = found || strings.Contains(f, sub)
	}
	if !found {
		t.Errorf("%s: no failed condition containing %q in %v", c.ID, sub, c.Conditions)
	}
}

func TestMeanOracle1Bound(t *testing.T) {
	// k = 2, d = 10, s = 100, C = 2, σ = 0.05, r_k = r₂ = 1:
	// B = 1/(1·2) = 0.5, Σ² = 10·0.0025 + 1/100 = 0.035.
	ob, err := MeanOracle1Bound(MeanOracle1Input{K: 2, Dim: 10, Batch: 100, Clip: 2, Sigma: 0.05, Rk: 1, R2: 1})
	if err != nil || ob.B != 0.5 || relErr(ob.Sigma2, 0.035) > 1e-15 || !strings.Contains(ob.Source, "lem: bias and variance of bd14") {
		t.Errorf("%+v %v", ob, err)
	}
	// k = 4, r_k = 2, C = 4: 2⁴/(3·4³) = 16/192.
	if b := ClipBias(4, 2, 4); relErr(b, 16.0/192) > 1e-15 {
		t.Errorf("ClipBias = %.17g", b)
	}
	// Limits and domain.
	inf := math.Inf(1)
	for _, c := range []struct{ k, r, C, want float64 }{
		{2, 3, inf, 0}, {inf, 3, 3, 0}, {inf, 3, 2, inf}, {3, inf, 5, inf}, {inf, inf, inf, 0},
	} {
		t.Run(fmt.Sprintf("ClipBias(%g,%g,%g)", c.k, c.r, c.C), func(t *testing.T) {
			if got := ClipBias(c.k, c.r, c.C); got != c.want {
				t.Errorf("ClipBias(%g, %g, %g) = %g, want %g", c.k, c.r, c.C, got, c.want)
			}
		})
	}
	// Continuity at k → ∞ with r < C: (r/C)^k → 0.
	if b := ClipBias(1e3, 1, 1.1); b > 1e-40 {
		t.Errorf("ClipBias(1e3, 1, 1.1) = %g", b)
	}
	for _, c := range [][3]float64{{1.5, 1, 1}, {2, -1, 1}, {2, 1, 0}} {
		t.Run(fmt.Sprintf("ClipBias%v", c), func(t *testing.T) {
			if !math.IsNaN(ClipBias(c[0], c[1], c[2])) {
				t.Errorf("ClipBias%v not NaN", c)
			}
		})
	}
	var ce *CertError
	if _, err := MeanOracle1Bound(MeanOracle1Input{K: 2, Dim: 10, Batch: 0, Clip: 2, Rk: 1, R2: 1}); !errors.As(err, &ce) || ce.Field != "batch" {
		t.Errorf("batch 0: %v", err)
	}
}

func TestACSAGeneric(t *testing.T) {
	mc := certOK(t)
	ob := OracleBound{B: 0.5, Sigma2: 0.035, Source: "test"}
	in := ACSAInput{T: 10, Eta: 5, Beta: 1, D: 2, Oracle: ob}
	// 4·5·4/110 + 4(0.035 + 0.25)·12/(3·5) + 0.5·2 = 0.7272727 + 0.912 + 1 = 2.6392727272727273.
	c := mc(ACSAGeneric(in))
	checkValue(t, c, 2.6392727272727273, 1e-15)
	if c.Quantity != "E F(w_T^ag) − F*" || !strings.Contains(c.Source, "[prop: ACSA generic]") || len(c.Terms) != 3 {
		t.Errorf("%+v", c)
	}
	// First claim, exact sum: 2·5·4/110 + (2·0.285/110)·Σ t²(t+1)/(5(t+1) − t) + 1
	// = 0.36363636 + 0.48402857 + 1 = 1.8476649354869672 (mpmath); never above the closed form.
	s := mc(ACSAGenericSum(in))
	checkValue(t, s, 1.8476649354869672, 1e-14)
	if s.Value > c.Value {
		t.Errorf("sum %g > closed form %g", s.Value, c.Value)
	}
	// β = 0: the sum is (Σ² + B²)(2T+1)/(3η) = 0.285·21/15 = 0.399 exactly.
	in0 := in
	in0.Beta = 0
	s0 := mc(ACSAGenericSum(in0))
	if relErr(s0.Terms[1].Value, 0.399) > 1e-14 {
		t.Errorf("β = 0 sum term %.17g, want 0.399", s0.Terms[1].Value)
	}
	// Edges. Closed form: η ≥ 2β (η = 5, β = 2.5 holds; β = 2.5000001 fails).
	in.Beta = 2.5
	checkValue(t, mc(ACSAGeneric(in)), 0.7272727272727273+0.912+1, 1e-15)
	in.Beta = 2.5000001
	checkFails(t, mc(ACSAGeneric(in)), "η ≥ 2β")
	// ... which the first claim still covers (η > βT/(T+1) = 2.2727).
	if !mc(ACSAGenericSum(in)).Holds() {
		t.Error("first claim should hold for 2β > η > βT/(T+1)")
	}
	// First claim: η > βT/(T+1); β = 5.5 gives βT/(T+1) = 5 = η (fails: strict); β = 5.4 holds,
	// value 0.36363636 + 12.228942 + 1 = 13.592578788335589 (mpmath).
	in.Beta = 5.5
	checkFails(t, mc(ACSAGenericSum(in)), "η > βT/(T+1)")
	in.Beta = 5.4
	checkValue(t, mc(ACSAGenericSum(in)), 13.592578788335589, 1e-14)
	// B = ∞ (a moment that does not exist): vacuous, +Inf, conditions hold.
	in.Beta, in.Oracle.B = 1, math.Inf(1)
	v := mc(ACSAGeneric(in))
	if !v.Holds() || !math.IsInf(v.Value, 1) {
		t.Errorf("B = ∞: %+v", v)
	}
	// Domain errors.
	var ce *CertError
	for _, bad := range []ACSAInput{{T: 0, Eta: 1, D: 1}, {T: 1, Eta: 0, D: 1}, {T: 1, Eta: 1, D: 0}, {T: 1, Eta: 1, D: 1, Beta: -1}} {
		t.Run(fmt.Sprintf("%+v", bad), func(t *testing.T) {
			if _, err := ACSAGeneric(bad); !errors.As(err, &ce) {
				t.Errorf("%+v: %v", bad, err)
			}
		})
	}
}

func TestSCSGD(t *testing.T) {
	mc := certOK(t)
	// T = 100, β = 2, μ = 0.5, D = 1, B = 0.1, Σ² = 0.5:
	// 64·e^(−6.25) + 72·0.5/50 + 2·0.01/0.5 = 0.12354906 + 0.72 + 0.04 = 0.88354906471857339.
	in := SCSGDInput{T: 100, Beta: 2, Mu: 0.5, G: math.NaN(), D: 1, Oracle: OracleBound{B: 0.1, Sigma2: 0.5}}
	c := mc(SCSGD(in))
	checkValue(t, c, 0.88354906471857339, 1e-14)
	// An overridden base step 1/g with g ≥ β: the same proof at g.
	in.G = 4 // 128·e^(−3.125) + 0.72 + 0.04
	checkValue(t, mc(SCSGD(in)), 128*math.Exp(-3.125)+0.76, 1e-14)
	in.G = 1.9
	checkFails(t, mc(SCSGD(in)), "g ≥ β")
	in.G = math.NaN()
	in.Mu = 2 // μ = β: κ = 1 holds
	if !mc(SCSGD(in)).Holds() {
		t.Error("μ = β should hold")
	}
	in.Mu = 2.000001
	checkFails(t, mc(SCSGD(in)), "μ ≤ β")
}

func TestProxPL(t *testing.T) {
	mc := certOK(t)
	// T = 20, β = 1, μ = 0.2, η = 1/2, Δ = 3, B = 0.1, Σ² = 0.2:
	// 0.9²⁰·3 + 4(0.01 + 0.2)/0.2 = 0.36472996 + 4.2 = 4.5647299637717079.
	in := ProxPLInput{T: 20, Beta: 1, Mu: 0.2, Eta: 0.5, Delta: 3, Oracle: OracleBound{B: 0.1, Sigma2: 0.2}}
	checkValue(t, mc(ProxPL(in)), 4.5647299637717079, 1e-14)
	in.Eta = 0.5000001
	checkFails(t, mc(ProxPL(in)), "η = 1/(2β)")
	in.Eta = 0.5 * (1 + 1e-10) // within the stated tolerance
	if !mc(ProxPL(in)).Holds() {
		t.Error("η = 1/(2β)·(1 + 1e−10) should count as 1/(2β)")
	}
	in.Eta, in.Mu = 0.5, 1.5
	checkFails(t, mc(ProxPL(in)), "μ ≤ β")
}

func TestSubgradERM(t *testing.T) {
	mc := certOK(t)
	// k = 2, d = 5, T = 50, η = 0.1, λ = 2, C = 1, σ = 0.3, D = 2, ‖w₀ − ŵ‖ = 1.5, r̂ = 1, r̂_k = 1.2:
	// e^(−5)·2.25 + 0.4(1 + 16 + 0.45) + 20·(1.44)²/4 = 0.01516038 + 6.98 + 10.368 = 17.363160380747942.
	in := SubgradERMInput{K: 2, Dim: 5, T: 50, Eta: 0.1, Lambda: 2, Clip: 1, Sigma: 0.3, Diam: 2, Dist0: 1.5, EmpR2: 1, EmpRk: 1.2}
	c := mc(subgradERM(in))
	checkValue(t, c, 17.363160380747942, 1e-14)
	if !strings.HasPrefix(c.Quantity, "E‖w_T − ŵ‖²") {
		t.Errorf("quantity %q", c.Quantity)
	}
	in.Eta = 1 // = 2/λ: holds
	if !mc(subgradERM(in)).Holds() {
		t.Error("η = 2/λ should hold")
	}
	in.Eta = 1.0000001
	checkFails(t, mc(subgradERM(in)), "η ≤ 2/λ")
	in.Eta, in.Dist0 = 0.1, 2.0000001
	checkFails(t, mc(subgradERM(in)), "‖w₀ − ŵ‖ ≤ D")
}

// twoPhases is a hand-checkable run of Algorithm "localization": k = 2,
// d = 1, D = 1, L = r̃_k = r₂ = 1.
func twoPhases() LocalizedInput {
	return LocalizedInput{K: 2, Dim: 1, Diam: 1, Dist0: 1, L: 1, RkTilde: 1, R2: 1, Phases: []LocalizedPhase{
		{N: 4, T: 10, Eta: 0.1, Lambda: 1, Radius: 4, Clip: 1, Sigma: 0, EmpR2: 1, EmpR2k: 1},
		{N: 2, T: 10, Eta: 0.05, Lambda: 4, Radius: 1, Clip: 2, Sigma: 0.1, EmpR2: 1, EmpR2k: 1},
	}}
}

func TestLocalizedConvex(t *testing.T) {
	mc := certOK(t)
	// Phase 1: D_{W₁} = min(1, 8) = 1, min(D, D₁) = 1:
	//   E₁ = e^(−0.5) + 0.8(1 + 1 + 0) + 20(1/(1·1))²/1 = 22.206530659712633.
	// Phase 2: D_{W₂} = min(1, 2) = 1, min(D, D₂) = 1:
	//   E₂ = e^(−1) + 0.1(1 + 16 + 0.01) + 20(1/2)²/16 = 2.3813794411714423.
	// Value: √E₂ + (2/(1·4) + 2/(4·2)) + (1/2·1 + 4/2·E₁) + 1·1·min(1, (2/4)² + (2/4)²)
	//   = 1.5431718767433012 + 0.75 + 44.913061319425267 + 0.5 = 47.706233196168568 (vacuous at D = 1).
	c := mc(LocalizedConvex(twoPhases()))
	checkValue(t, c, 47.706233196168568, 1e-14)
	want := []float64{1.5431718767433012, 0.75, 44.913061319425267, 0.5}
	for i, w := range want {
		if relErr(c.Terms[i].Value, w) > 1e-14 {
			t.Errorf("term %q = %.17g, want %.17g", c.Terms[i].Name, c.Terms[i].Value, w)
		}
	}
	// No localization ball: no failure probability.
	in := twoPhases()
	in.Phases[0].Radius, in.Phases[1].Radius = math.Inf(1), math.Inf(1)
	if c := mc(LocalizedConvex(in)); c.Terms[3].Value != 0 {
		t.Errorf("D_i = ∞: P_fail term %g", c.Terms[3].Value)
	}
	// k = ∞ Chebyshev: probability 0 when λD/2 ≥ r̃ in every phase, else 1.
	in = twoPhases()
	in.K = math.Inf(1)
	if c := mc(LocalizedConvex(in)); c.Terms[3].Value != 0 {
		t.Errorf("k = ∞, 2r̃/(λD) = 1/2: P_fail term %g", c.Terms[3].Value)
	}
	in.RkTilde = 3
	if c := mc(LocalizedConvex(in)); c.Terms[3].Value != 1 {
		t.Errorf("k = ∞, 2r̃/(λD) = 3/2: P_fail term %g", c.Terms[3].Value)
	}
	// Edges: η_iλ_i/2 = 1 holds; above fails; ‖w₀ − w*‖ > D fails.
	in = twoPhases()
	in.Phases[1].Eta = 0.5 // λ = 4: η = 2/λ
	if !mc(LocalizedConvex(in)).Holds() {
		t.Error("η = 2/λ should hold")
	}
	in.Phases[1].Eta = 0.5000001
	checkFails(t, mc(LocalizedConvex(in)), "η_i ≤ 2/λ_i")
	in = twoPhases()
	in.Dist0 = 1.0000001
	checkFails(t, mc(LocalizedConvex(in)), "‖w₀ − w*‖ ≤ D")
	// Errors name the phase.
	in = twoPhases()
	in.Phases[1].N = 0
	if _, err := LocalizedConvex(in); err == nil || !strings.Contains(err.Error(), "phase 2") {
		t.Errorf("n₂ = 0: %v", err)
	}
	if _, err := LocalizedConvex(LocalizedInput{K: 2, Dim: 1, Diam: 1, L: 1, RkTilde: 1, R2: 1}); err == nil {
		t.Error("no phases accepted")
	}
}

func TestLocalizedSC(t *testing.T) {
	mc := certOK(t)
	// Stage 1 from Δ₀ = 0.1, μ = 1: E‖w₀ − w*‖² ≤ min(1, 0.2) = 0.2, so its
	// localization term drops by (1/2)(1 − 0.2) = 0.4: Δ₁ = 47.306233196168568.
	// Stage 2: min(1, 2Δ₁) = 1: Δ₂ = 47.706233196168568 (the convex value).
	one := LocalizedSCInput{Mu: 1, Delta0: 0.1, Stages: []LocalizedInput{twoPhases()}}
	checkValue(t, mc(LocalizedSC(one)), 47.306233196168568, 1e-14)
	two := one
	two.Stages = []LocalizedInput{twoPhases(), twoPhases()}
	c := mc(LocalizedSC(two))
	checkValue(t, c, 47.706233196168568, 1e-14)
	if len(c.Conditions) != 4 || !strings.HasPrefix(c.Conditions[2].Text, "stage 2: ") {
		t.Errorf("conditions %v", c.Conditions)
	}
	// A failing stage fails the chain.
	bad := twoPhases()
	bad.Phases[0].Eta = 3 // λ₁ = 1: η > 2/λ
	two.Stages = []LocalizedInput{twoPhases(), bad}
	checkFails(t, mc(LocalizedSC(two)), "stage 2: η_i ≤ 2/λ_i")
	if _, err := LocalizedSC(LocalizedSCInput{Mu: 0, Delta0: 1, Stages: []LocalizedInput{twoPhases()}}); err == nil {
		t.Error("μ = 0 accepted")
	}
}

func TestCertificateJSON(t *testing.T) {
	mc := certOK(t)
	ob := OracleBound{B: 0.5, Sigma2: 0.035, Source: "test"}
	c := mc(ACSAGeneric(ACSAInput{T: 10, Eta: 5, Beta: 1, D: 2, Oracle: ob}))
	js, _, keys := jsonKeys(t, c)
	if want := []string{"conditions", "formula", "id", "quantity", "source", "source_pdf", "terms", "value"}; !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	var back Certificate
	if err := json.Unmarshal(js, &back); err != nil || back.Value != c.Value || len(back.Terms) != 3 || back.Terms[2].Value != 1 {
		t.Errorf("round trip %+v, %v", back, err)
	}
	// A failed condition: value null, terms empty, the condition says why.
	f := mc(ACSAGeneric(ACSAInput{T: 10, Eta: 1, Beta: 1, D: 2, Oracle: ob}))
	js, _ = json.Marshal(f)
	if !strings.Contains(string(js), `"value":null`) || !strings.Contains(string(js), `"terms":[]`) || !strings.Contains(string(js), `"holds":false`) {
		t.Errorf("failed certificate JSON %s", js)
	}
	if err := json.Unmarshal(js, &back); err != nil || !math.IsNaN(back.Value) {
		t.Errorf("failed round trip value %g", back.Value)
	}
	// Vacuous (+Inf) reads back as +Inf.
	v := mc(ACSAGeneric(ACSAInput{T: 10, Eta: 5, Beta: 1, D: 2, Oracle: OracleBound{B: math.Inf(1)}}))
	js, _ = json.Marshal(v)
	if err := json.Unmarshal(js, &back); err != nil || !math.IsInf(back.Value, 1) {
		t.Errorf("vacuous round trip %s → %g", js, back.Value)
	}
	if len(certificateIDs()) != 8 {
		t.Errorf("%d ids", len(certificateIDs()))
	}
}

// TestACSAGenericAtLinRegTPrescription: Prop. "ACSA generic" at
// linreg-t's prescribed parameters, n = 10⁴ (k = 2, ε = 1, d = 10, D = 2),
// is 16.8, 16.787 by hand.
func TestACSAGenericAtLinRegTPrescription(t *testing.T) {
	mc := certOK(t)
	// The inputs, from `dpso run --scenario linreg-t --class smooth-convex
	// --json` and `dpso moments --scenario linreg-t`: T = 3, s = 3333,
	// C = 1266.6460933812814, σ = 0.7600636623950083, η = 6.6349903726319885,
	// r̃₂ = 29.6439 (k = 2, so r_k = r₂). By hand: B = 878.76/1266.65 = 0.69377,
	// Σ² = 10·0.57770 + 878.76/3333 = 6.0406; 4·6.635·4/12 + 4·6.5219·5/19.905
	// + 2·0.69377 = 8.8467 + 6.5531 + 1.3875 = 16.787.
	ob, err := MeanOracle1Bound(MeanOracle1Input{K: 2, Dim: 10, Batch: 3333, Clip: 1266.6460933812814,
		Sigma: 0.7600636623950083, Rk: 29.6439, R2: 29.6439})
	if err != nil {
		t.Fatal(err)
	}
	c := mc(ACSAGeneric(ACSAInput{T: 3, Eta: 6.6349903726319885, Beta: 1, D: 2, Oracle: ob}))
	if math.Abs(c.Value-16.8) > 0.05 || math.Abs(c.Value-16.787) > 0.001 {
		t.Errorf("certificate %g, want 16.8 (16.787 by hand)", c.Value)
	}
}

// certificateIDs lists the certificate ids.
func certificateIDs() []string {
	return []string{CertACSA, CertACSASum, CertSCSGD, CertProxPL, CertSubgradERM, CertRegERM, CertLocalized, CertLocalizedSC}
}

// subgradERM is Lemma "lem: subgrad ERM bound" as a certificate of one
// phase (LocalizedConvex composes its terms over the phases): for η ≤ 2/λ
// the output of Algorithm "clipped GD" satisfies
//
//	E‖w_T − ŵ‖² ≤ exp(−ληT/2)‖w₀ − ŵ‖² + (8η/λ)(r̂_n(X)² + λ²D² + dσ²)
//	              + (20/λ²)(r̂_n(X)^(k)/((k−1)C^(k−1)))².
//
// Conditions: η ≤ 2/λ, ‖w₀ − ŵ‖ ≤ D.
func subgradERM(in SubgradERMInput) (Certificate, error) {
	if err := in.check(CertSubgradERM); err != nil {
		return Certificate{}, err
	}
	c := Certificate{ID: CertSubgradERM, Title: "clipped noisy regularized subgradient method on one batch", Label: "lem: subgrad ERM bound",
		Source:   "Lowy & Razaviyayn, Lemma [lem: subgrad ERM bound] (clipping bias by Lemma [lem: empirical bias variance reg ERM])",
		Formula:  "exp(−ληT/2)‖w₀ − ŵ‖² + (8η/λ)(r̂² + λ²D² + dσ²) + (20/λ²)(r̂^(k)/((k−1)C^(k−1)))²",
		Quantity: "E‖w_T − ŵ‖², ŵ = argmin F̂_λ",
		Conditions: []Condition{
			cond(in.Eta <= 2/in.Lambda, "η ≤ 2/λ (lem: subgrad ERM bound; η = %s, 2/λ = %s)", fmtNum(in.Eta), fmtNum(2/in.Lambda)),
			cond(in.Dist0 <= in.Diam, "‖w₀ − ŵ‖ ≤ D (%s ≤ %s)", fmtNum(in.Dist0), fmtNum(in.Diam)),
		}}
	return finish(c, in.terms()), nil
}
