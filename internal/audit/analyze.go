package audit

import (
	"fmt"
	"math"

	"dpso/solvers/oracle"
	"dpso/theory"
)

// analyze fills the statistics of r (whose claim fields are set) from the
// collected sample.
//
// Confidence. Each of the K thresholds gives four one-sided
// Clopper–Pearson bounds (FPR and FNR, upper and lower), each at level
// β = Alpha/(4K); by the union bound all 4K hold together with probability
// ≥ 1 − Alpha. The thresholds were chosen on the pilot, which is
// independent of the main sample, so they are fixed for the bounds.
//
//   - On that event, every threshold's MuOfRates(FPR_u, FNR_u) is at most
//     MuOfRates(FPR, FNR) ≤ μ for a μ-GDP mechanism (MuOfRates decreases in
//     both rates), so MuLower = max over thresholds ≤ μ: a mechanism that
//     keeps a zCDP claim ε (μ = ε) shows MuLower > ε with probability
//     ≤ Alpha, whatever the shape of its output distribution.
//   - Likewise EpsLower = max EpsOfRates(FPR_u, FNR_u, δ) ≤ ε for an
//     (ε, δ)-DP mechanism.
//   - For a Gaussian shift every threshold has MuOfRates(FPR, FNR) = μ, so
//     MuUpper = min MuOfRates(FPR_l, FNR_l) ≥ μ on the same event.
func analyze(r *Result, smp *sample) {
	n := smp.n[0]
	k := len(smp.thresholds)
	beta := Alpha / float64(4*max(k, 1))
	r.Trials = int(n)
	r.Workers = smp.workers
	r.Mean0, r.Mean1 = smp.mean[0], smp.mean[1]
	r.SD0 = math.Sqrt(smp.m2[0] / float64(n-1))
	r.SD1 = math.Sqrt(smp.m2[1] / float64(n-1))
	sp := math.Sqrt((smp.m2[0] + smp.m2[1]) / float64(2*n-2))
	r.MuHat = (r.Mean1 - r.Mean0) / sp
	if sp == 0 { // no noise at all: μ = ∞ if the outputs differ
		r.MuHat = math.NaN()
		if r.Mean1 != r.Mean0 {
			r.MuHat = math.Inf(1)
		}
	}
	r.MuSE = muSE(r.MuHat, n)
	r.Hist = smp.hist
	if smp.sign < 0 {
		for j := range r.Direction {
			r.Direction[j] = -r.Direction[j]
		}
	}

	shuffle := r.Kind == oracle.Shuffle
	r.MuLower, r.MuUpper = math.Inf(-1), math.Inf(1)
	r.EpsLower = math.NaN()
	if shuffle {
		r.EpsLower = 0
	}
	r.Thresholds = make([]Threshold, k)
	for i, t := range smp.thresholds {
		fp := smp.exceed[0][i]
		fn := n - smp.exceed[1][i]
		th := Threshold{
			T: t, FP: fp, FN: fn,
			FPR: float64(fp) / float64(n), FNR: float64(fn) / float64(n),
			FPRUpper: cpUpper(fp, n, beta), FNRUpper: cpUpper(fn, n, beta),
			FPRLower: cpLower(fp, n, beta), FNRLower: cpLower(fn, n, beta),
			EpsLower: math.NaN(),
		}
		th.MuLower = MuOfRates(th.FPRUpper, th.FNRUpper)
		th.MuUpper = MuOfRates(th.FPRLower, th.FNRLower)
		if !math.IsNaN(th.MuLower) {
			r.MuLower = math.Max(r.MuLower, th.MuLower)
		}
		if !math.IsNaN(th.MuUpper) {
			r.MuUpper = math.Min(r.MuUpper, th.MuUpper)
		}
		if shuffle {
			th.EpsLower = EpsOfRates(th.FPRUpper, th.FNRUpper, r.Delta)
			r.EpsLower = math.Max(r.EpsLower, th.EpsLower)
		}
		r.Thresholds[i] = th
	}
	// No threshold proves anything below μ = 0 (the identity trade-off).
	r.MuLower = math.Max(r.MuLower, 0)
	if math.IsInf(r.MuUpper, 1) {
		r.MuUpper = math.NaN()
	}

	if shuffle {
		r.MuClaim = theory.EpsForTarget(r.Eps, r.Delta)
		r.EpsGauss = theory.EpsExact(math.Max(r.MuHat, 0), r.Delta)
		r.Violation = r.EpsLower > r.Eps
	} else {
		r.MuClaim = r.Eps
		r.EpsGauss = math.NaN()
		r.Violation = r.MuLower > r.Eps
	}
	r.NoiseWaste = r.MuClaim / r.MuHat
	if !(r.MuHat > 0) {
		r.NoiseWaste = math.Inf(1)
	}
	r.Notes = append(r.Notes, verdict(r)...)
}

// verdict states the outcome in sentences.
func verdict(r *Result) []string {
	var out []string
	claim := fmt.Sprintf("ρ = ε²/2 = %s zCDP (μ = %s GDP)", theory.Sig4.Format(theory.Rho(r.Eps)), theory.Sig4.Format(r.Eps))
	if r.Kind == oracle.Shuffle {
		claim = fmt.Sprintf("(ε, δ) = (%s, %s)-DP", theory.Sig4.Format(r.Eps), theory.Sig4.Format(r.Delta))
	}
	switch {
	case r.Violation && r.Kind == oracle.Shuffle:
		out = append(out, fmt.Sprintf("VIOLATION: with 95%% confidence ε ≥ %s at δ = %s, more than the claimed %s.", theory.Sig4.Format(r.EpsLower), theory.Sig4.Format(r.Delta), claim))
	case r.Violation:
		out = append(out, fmt.Sprintf("VIOLATION: with 95%% confidence μ ≥ %s, more than the claimed %s.", theory.Sig4.Format(r.MuLower), claim))
	default:
		out = append(out, fmt.Sprintf("No violation of the claimed %s was found (95%% confidence); an audit's lower bound cannot prove the claim.", claim))
	}
	if r.NegativeControl != 1 {
		if r.Violation {
			out = append(out, fmt.Sprintf("Negative control: the noise was weakened (budget × %s) and the audit caught it, as it should.", theory.Sig4.Format(r.NegativeControl)))
		} else {
			out = append(out, fmt.Sprintf("Negative control: the noise was weakened (budget × %s) but the audit did not catch it: at these parameters it has too little power (more trials), or the mechanism is far more private than claimed.", theory.Sig4.Format(r.NegativeControl)))
		}
	}
	switch {
	case r.Solver != "" && r.MuHat+4*r.MuSE < r.MuClaim:
		// A whole run releases w only; its claim covers every row and
		// every release, so a μ̂ below the claim is no waste of noise.
		out = append(out, fmt.Sprintf("The run's output w is less distinguishable (μ̂ = %s ± %s) than the claim allows (μ = %s): the canary enters one oracle call and the run's other calls add noise. This is expected, not by itself wasted noise: the claim covers every row's every release, and the audit tried one canary position (an oracle audit of %s measures the oracle's own calibration).", theory.Sig4.Format(r.MuHat), theory.Sig4.Format(r.MuSE), theory.Sig4.Format(r.MuClaim), r.Oracle))
	case r.Solver != "":
	case r.MuHat <= 2*r.MuSE && r.MuUpper < r.MuClaim:
		out = append(out, fmt.Sprintf("Wasted noise: the outputs' Gaussian-equivalent μ̂ = %s ± %s cannot be told from 0 at %d runs; with 95%% confidence (if the outputs are Gaussian) μ ≤ %s, and Gaussian noise at least %s× smaller would still keep the claim (μ = %s).", theory.Sig4.Format(r.MuHat), theory.Sig4.Format(r.MuSE), r.Trials, theory.Sig4.Format(r.MuUpper), theory.Sig4.Format(r.MuClaim/r.MuUpper), theory.Sig4.Format(r.MuClaim)))
	case r.MuHat > 2*r.MuSE && r.MuHat+4*r.MuSE < r.MuClaim && r.NoiseWaste > 1.05:
		out = append(out, fmt.Sprintf("Wasted noise: the outputs' Gaussian-equivalent μ̂ = %s ± %s is below the %s the claim allows; Gaussian noise %s× smaller would still keep the claim.", theory.Sig4.Format(r.MuHat), theory.Sig4.Format(r.MuSE), theory.Sig4.Format(r.MuClaim), theory.Sig4.Format(r.NoiseWaste)))
	}
	return out
}
