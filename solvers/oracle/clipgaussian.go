package oracle

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dpso/solvers/ledger"
	"dpso/solvers/noise"
	"dpso/solvers/vec"
)

func init() {
	register("clip-gaussian",
		"MeanOracle1: clip each vector to ℓ2 norm C, average, add N(0, σ²I) with σ = 2C/(sε); ε²/2-zCDP",
		func() Oracle { return &ClipGaussian{} })
}

// ClipGaussian is MeanOracle1 (the paper's Algorithm "MeanOracle1", label
// alg: MeanOracle2, after Barber & Duchi 2014):
//
//	ν̃ = (1/s) Σ_i Π_C(z_i) + N(0, σ² I_d),  Π_C(z) = z·min(1, C/‖z‖),
//
// with ℓ2 sensitivity Δ = 2C/s under replace-one and σ = Δ/√(2ρ), which is
// ρ-zCDP (Bun & Steinke 2016, Prop. 1.6; the paper's Proposition
// "prop: gauss"); at ρ = ε²/2 this is the paper's σ = 2C/(sε). Lemma "lem:
// bias and variance of bd14": if E z = ν and E‖z‖^k ≤ r^{(k)} then
// ‖E ν̃ − ν‖ ≤ r^{(k)}/((k−1)C^{k−1}) and E‖ν̃ − E ν̃‖² ≤ dσ² + r^{(2)}/s.
//
// A vector with a non-finite entry contributes 0 and still counts in s. A
// finite vector whose norm overflows float64 is clipped exactly (by
// rescaling first). C = +Inf (no clipping) is allowed only with ρ = +Inf
// (no noise).
type ClipGaussian struct {
	d, s  int
	c     float64
	rho   float64
	inv   float64    // 1/s
	sum   []float64  // running (1/s) Σ Π_C(z_i)
	rows  scaledRows // AddScaled's scratch
	stats statsRecorder
	noise noise.Sampler
}

// Name implements Oracle.
func (*ClipGaussian) Name() string { return "clip-gaussian" }

// Kind implements Oracle.
func (*ClipGaussian) Kind() Kind { return ZCDP }

// Threshold implements Oracle: the ℓ2 threshold is used as is.
func (*ClipGaussian) Threshold(c float64, _ int) float64 { return c }

// Begin implements Oracle.
func (o *ClipGaussian) Begin(d, s int, c float64, b ledger.Cost) error {
	o.stats.invalidate()
	if err := checkGaussianCall(o.Name(), "C", d, s, c, b); err != nil {
		return err
	}
	o.d, o.s, o.c, o.rho = d, s, c, b.Rho
	o.inv = 1 / float64(s)
	o.sum = resize(o.sum, d)
	o.stats.begin(s, c)
	return nil
}

// Add implements Oracle.
func (o *ClipGaussian) Add(z []float64) {
	o.stats.next(o.Name(), o.d, len(z))
	o.stats.record(clipAdd(o.sum, z, o.c, o.inv))
}

// Sigma is the noise standard deviation σ = 2C/(s√(2ρ)) for a call with
// the parameters of the latest Begin (0 when ρ = +Inf).
func (o *ClipGaussian) Sigma() float64 { return gaussSigma(o.sensitivity(), o.rho) }

func (o *ClipGaussian) sensitivity() float64 { return 2 * o.c / float64(o.s) }

// Finish implements Oracle.
func (o *ClipGaussian) Finish(out []float64, r *rand.Rand) Call {
	o.stats.done(o.Name())
	sigma := o.Sigma()
	for j := range out[:o.d] {
		out[j] = o.sum[j]
		if sigma > 0 {
			out[j] = o.noise.Add(out[j], sigma, r)
		}
	}
	return Call{
		Sigma:       o.noise.Sigma(sigma),
		Sensitivity: o.sensitivity(),
		Cost:        ledger.Cost{Rho: o.rho},
		Stats:       o.stats.finish(),
	}
}

// gaussSigma is the Gaussian mechanism's σ = Δ/√(2ρ) for ρ-zCDP (Bun &
// Steinke 2016, Prop. 1.6), 0 for ρ = +Inf.
func gaussSigma(sensitivity, rho float64) float64 {
	if math.IsInf(rho, 1) {
		return 0
	}
	return sensitivity / math.Sqrt(2*rho)
}

// clipScale returns the factor min(1, c/‖z‖) of the projection Π_c onto
// the ℓ2 ball of radius c, and the norm ‖z‖ to record in the batch
// statistics. ok is false when z has a NaN or ±Inf entry. A finite z whose
// norm overflows float64 is scaled by its largest entry first, so its
// projection is still exact; its recorded norm is math.MaxFloat64.
func clipScale(z []float64, c float64) (scale, norm float64, ok bool) {
	norm = vec.Norm(z)
	if !math.IsInf(norm, 0) && !math.IsNaN(norm) {
		if norm <= c {
			return 1, norm, true
		}
		return c / norm, norm, true
	}
	if !finite(z) {
		return 0, norm, false
	}
	// Finite entries, overflowing norm: ‖z‖ = a·‖z/a‖ with a = max|z_j|.
	if math.IsInf(c, 1) {
		return 1, math.MaxFloat64, true
	}
	var a float64
	for _, v := range z {
		a = math.Max(a, math.Abs(v))
	}
	var ssq float64
	for _, v := range z {
		ssq += (v / a) * (v / a)
	}
	return (c / a) / math.Sqrt(ssq), math.MaxFloat64, true
}

// checkShape validates the batch shape every oracle needs.
func checkShape(name string, d, s int) error {
	switch {
	case d < 1:
		return fmt.Errorf("%s: dimension d = %d, want d ≥ 1", name, d)
	case s < 1:
		return fmt.Errorf("%s: batch size s = %d, want s ≥ 1", name, s)
	}
	return nil
}

// checkGaussianCall checks the arguments of Begin for the Gaussian (zCDP)
// oracles: the shape, a clip threshold (named sym) c > 0, a per-call budget
// ρ > 0, and c = +Inf (no clipping: unbounded sensitivity) only with
// ρ = +Inf (no noise).
func checkGaussianCall(name, sym string, d, s int, c float64, b ledger.Cost) error {
	if err := checkShape(name, d, s); err != nil {
		return err
	}
	switch {
	case !(c > 0):
		return fmt.Errorf("%s: clip threshold %s = %s, want %s > 0", name, sym, exact(c), sym)
	case !(b.Rho > 0):
		return fmt.Errorf("%s: per-call budget ρ = %s, want ρ > 0", name, exact(b.Rho))
	case math.IsInf(c, 1) && !math.IsInf(b.Rho, 1):
		return fmt.Errorf("%s: clip threshold %s = +Inf has unbounded sensitivity; it needs ε = +Inf", name, sym)
	}
	return nil
}

// resize returns buf with length n and every entry 0, reusing its storage
// when it is large enough.
func resize(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// SetDetail implements DetailSetter.
func (o *ClipGaussian) SetDetail(on bool) { o.stats.noDetail = !on }

// SetExactNoise implements [ExactNoiser].
func (o *ClipGaussian) SetExactNoise(on bool) { o.noise.SetExact(on) }
