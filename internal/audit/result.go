package audit

import (
	"dpso/solvers"
	"dpso/solvers/oracle"
)

// Alpha is the audit's error probability: every confidence statement of a
// [Result] (the Clopper–Pearson bounds of all thresholds together, and
// with them MuLower, MuUpper and EpsLower) holds with probability at least
// 1 − Alpha = 95%.
const Alpha = 0.05

// Result is one audit: the claim, what was run, the measured distributions
// of the projected outputs on the two neighbouring inputs, and the bounds.
// Quantities that do not apply are NaN (gonum's convention); a JSON layer
// writes them as null (internal/report's Audit document).
type Result struct {
	// What was audited.
	Oracle string      // the oracle's registry name
	Solver string      // the solver of a whole-run audit; "" for an oracle audit
	Kind   oracle.Kind // ZCDP: the claim is ρ = ε²/2 (μ = ε GDP); Shuffle: (ε, δ)-DP
	Eps    float64     // the claimed ε
	Delta  float64     // the claimed δ (shuffle oracles); NaN for zCDP claims
	D      int         // dimension
	S      int         // vectors per oracle call (oracle audits); samples n (whole runs)
	Groups int         // groups m of a coordinate-wise oracle, else 0
	// NegativeControl is F: the mechanism ran at budget F·ε (ρ·F²) while
	// the claim stays ε, so a Gaussian oracle's noise is σ/F. 1: none.
	NegativeControl float64

	// How it was run.
	Trials  int              // runs per input in the main sample
	Pilot   int              // runs per input in the pilot that chose the thresholds
	Rand    solvers.RandMode // seeded (reproducible) or secure
	Seed    uint64           // the seed (seeded mode)
	Workers int              // goroutines used (the result does not depend on it)

	// The neighbouring inputs.
	//
	// Sensitivity is the ℓ2 sensitivity the mechanism is calibrated to
	// (the oracle's Call.Sensitivity; NaN for whole runs). Shift is the ℓ2
	// distance between the mechanism's noiseless outputs on the two inputs
	// (measured by running it with privacy off; NaN for whole runs): equal
	// to Sensitivity when the inputs are worst-case neighbours.
	Sensitivity float64
	Shift       float64
	// Direction is what the outputs were projected on (a unit vector).
	Direction []float64

	// The projected outputs of the main sample (D0: the canary at −, D1:
	// the canary at +): means and standard deviations.
	Mean0, Mean1, SD0, SD1 float64

	// MuHat = (Mean1 − Mean0)/s_p (s_p the pooled standard deviation): the
	// Gaussian-DP μ of a Gaussian shift with the observed means and noise,
	// with its standard error MuSE (delta method, Gaussian outputs). For a
	// zCDP oracle exactly calibrated to worst-case neighbours, μ = ε. For a
	// shuffle oracle it is the Gaussian-equivalent ε of its observed noise.
	MuHat, MuSE float64
	// MuLower is the 95% lower confidence bound on the mechanism's GDP μ
	// from the threshold tests (distribution-free: it holds for any
	// mechanism). MuUpper is the 95% upper bound that holds when the
	// projected outputs are a Gaussian shift (then every threshold implies
	// the same μ); NaN when no threshold bounds it.
	MuLower, MuUpper float64
	// MuClaim is the GDP μ the claim allows for a Gaussian mechanism: ε for
	// zCDP claims, the μ whose exact Gaussian curve is (ε, δ)-DP for shuffle
	// claims (theory.EpsForTarget). NoiseWaste = MuClaim/MuHat: by how much
	// the noise's standard deviation could shrink if it were Gaussian and
	// the claim still held (≈ 1: calibrated; ≫ 1: wasted noise).
	MuClaim, NoiseWaste float64
	// EpsLower is the 95% lower confidence bound on ε at the claimed δ from
	// the threshold tests (shuffle claims; NaN for zCDP claims). EpsGauss is
	// the exact (ε, δ) of a Gaussian mechanism with μ = MuHat at the same δ.
	EpsLower, EpsGauss float64
	// Violation: MuLower > Eps (zCDP) or EpsLower > Eps (shuffle). With
	// probability at least 95% an audit of a mechanism that keeps its
	// claim does not report one.
	Violation bool

	// Thresholds are the tests tried (chosen on the pilot, counted on the
	// main sample), in increasing order of T.
	Thresholds []Threshold
	// Hist are histograms of the two projected output samples.
	Hist Histogram

	// Notes are sentences a reader needs (the even-m median, a wasted
	// noise finding, a negative control's outcome).
	Notes []string
}

// Threshold is one test "the input was D1 when the projected output exceeds
// T" and its error counts on the main sample.
type Threshold struct {
	T      float64
	FP, FN int64 // D0 outputs > T; D1 outputs ≤ T (out of Trials each)
	// Observed rates FP/Trials, FN/Trials and their one-sided
	// Clopper–Pearson bounds, each at level Alpha/(4K) for K thresholds.
	FPR, FNR           float64
	FPRUpper, FNRUpper float64
	FPRLower, FNRLower float64
	// MuLower = MuOfRates(FPRUpper, FNRUpper); MuUpper =
	// MuOfRates(FPRLower, FNRLower); EpsLower = EpsOfRates(FPRUpper,
	// FNRUpper, δ) (NaN for zCDP claims).
	MuLower, MuUpper, EpsLower float64
}

// Histogram counts the projected outputs of the two inputs in Bins equal
// bins over [Lo, Hi) (chosen on the pilot); outputs outside go to Under
// and Over.
type Histogram struct {
	Lo, Hi         float64
	Bins           int
	Count0, Count1 []int64
	Under, Over    [2]int64
}

// Edges returns the lower and upper edge of bin b.
func (h *Histogram) Edges(b int) (lo, hi float64) {
	w := (h.Hi - h.Lo) / float64(h.Bins)
	return h.Lo + float64(b)*w, h.Lo + float64(b+1)*w
}

// ClaimCurve samples the Gaussian trade-off curve G_μ of the claim
// (μ = MuClaim) at n ≥ 2 false-positive rates α evenly spaced in [0, 1]:
// no test may reach below it. The audit's thresholds, as points
// (FPR, FNR), are plotted against it; a point below the curve (beyond its
// confidence bounds) is a violation.
func (r *Result) ClaimCurve(n int) (alpha, fnr []float64) {
	n = max(n, 2)
	alpha, fnr = make([]float64, n), make([]float64, n)
	for i := range n {
		a := float64(i) / float64(n-1)
		alpha[i], fnr[i] = a, TradeOff(r.MuClaim, a)
	}
	return alpha, fnr
}
