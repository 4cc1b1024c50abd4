package oracle

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dpso/solvers/noise"
)

// NoisySumName is the name outputs give [NoisySum] where a registered
// oracle's name would stand (dp-sgd's "oracle"); it is no --oracle value.
const NoisySumName = "noisy-sum"

// NoisySumDescription says what [NoisySum] is, in a sentence for outputs.
const NoisySumDescription = "dp-sgd's own estimate, not a registered oracle: the sum of the clipped per-sample gradients of a Poisson-sampled batch plus N(0, z²C² I), divided by the expected batch B; its privacy is accounted over the whole run"

// NoisySum is the gradient estimate of DP-SGD (Abadi et al. 2016) on a
// Poisson-sampled batch: clip each vector to ℓ2 norm C, sum, add
// N(0, (zC)² I) with z the noise multiplier, and divide by the expected batch
// size B = qn:
//
//	g̃ = (Σ_{i∈batch} Π_C(z_i) + N(0, z²C² I_d)) / B.
//
// The sum has ℓ2 sensitivity C under add/remove adjacency, so one call is
// the Gaussian mechanism with noise multiplier z; with Poisson sampling of
// rate q it is one step of the Poisson-subsampled Gaussian mechanism, whose
// composition over T steps an accountant (package
// dpso/solvers/accountant) turns into (ε', δ). NoisySum itself charges
// nothing: its caller records the accounted composition once.
//
// It is not a registered [Oracle] (its privacy is not a per-call zCDP or
// (ε, δ) cost and its batch size is random); it shares the oracles' batch
// statistics and their handling of non-finite vectors (they contribute 0
// and still count in the batch). Add also counts the vectors whose norm is
// at most C ([NoisySum.Unclipped]), the statistic of quantile-based
// adaptive clipping (Andrew et al. 2021).
type NoisySum struct {
	// Multiplier is the noise multiplier z ≥ 0 (0: no noise).
	Multiplier float64
	// Divisor is the expected batch size B > 0.
	Divisor float64

	d         int
	c         float64
	sum       []float64
	unclipped int
	rows      scaledRows // AddScaled's scratch
	stats     statsRecorder
	noise     noise.Sampler
}

// SetDetail implements [DetailSetter].
func (o *NoisySum) SetDetail(on bool) { o.stats.noDetail = !on }

// SetExactNoise implements [ExactNoiser]: the sum's coordinates are
// released as lattice points of the noise N(0, z²C²) sampled exactly
// (then divided by B).
func (o *NoisySum) SetExactNoise(on bool) { o.noise.SetExact(on) }

// Begin starts a call on s vectors of dimension d (s may be 0: a Poisson
// batch can be empty) with clip threshold c (+Inf: no clipping, allowed only
// without noise).
func (o *NoisySum) Begin(d, s int, c float64) error {
	o.stats.invalidate()
	switch {
	case d < 1 || s < 0:
		return fmt.Errorf("noisy-sum: d = %d, s = %d; want d ≥ 1, s ≥ 0", d, s)
	case !(c > 0):
		return fmt.Errorf("noisy-sum: clip threshold C = %g, want C > 0", c)
	case math.IsNaN(o.Multiplier) || o.Multiplier < 0 || math.IsInf(o.Multiplier, 1):
		return fmt.Errorf("noisy-sum: noise multiplier z = %g, want a finite z ≥ 0", o.Multiplier)
	case math.IsInf(c, 1) && o.Multiplier > 0:
		return fmt.Errorf("noisy-sum: C = +Inf has unbounded sensitivity; no noise multiplier makes it private")
	case !(o.Divisor > 0) || math.IsInf(o.Divisor, 1):
		return fmt.Errorf("noisy-sum: expected batch size B = %g, want a finite B > 0", o.Divisor)
	}
	o.d, o.c, o.unclipped = d, c, 0
	o.sum = resize(o.sum, d)
	o.stats.begin(s, c)
	return nil
}

// Add feeds one vector.
func (o *NoisySum) Add(z []float64) {
	o.stats.next("noisy-sum", o.d, len(z))
	scale, norm, ok := clipScale(z, o.c)
	if !ok {
		o.stats.record(math.NaN(), false)
		return
	}
	o.stats.record(norm, norm > o.c)
	if norm <= o.c {
		o.unclipped++
	}
	sum := o.sum[:len(z)]
	for j, v := range z {
		sum[j] += scale * v
	}
}

// AddScaled implements [ScaledAdder]: the vectors z_i = k[i]·a_i of a
// block in factored form, each clipped and added as Add does (up to
// rounding: ‖z_i‖ is |k[i]|·√sq[i] and the sum gains (scale·k[i])·a_i).
func (o *NoisySum) AddScaled(k, sq, xs []float64, stride int) {
	o.stats.block("noisy-sum", o.d, stride, len(k), len(xs))
	keep := !o.stats.noDetail
	o.rows.clipScaledRows(o.sum, k, sq, nil, xs, stride, o.d, o.c, 1, keep)
	if !keep && o.rows.exact == 0 {
		// Every norm finite: nclip of them above C, the others at most C.
		o.unclipped += len(k) - o.rows.nclip
		o.stats.t.countScaled(len(k), o.rows.nclip)
		return
	}
	norms := o.rows.norms[:len(k)]
	for _, norm := range norms {
		if norm <= o.c {
			o.unclipped++
		}
	}
	o.stats.recordRows(norms, o.rows.clipped[:len(k)])
}

// Unclipped is the number of finite vectors of the current call whose norm
// was at most C.
func (o *NoisySum) Unclipped() int { return o.unclipped }

// Finish writes g̃ into out (len ≥ d), drawing the noise from r, and returns
// the batch statistics.
func (o *NoisySum) Finish(out []float64, r *rand.Rand) BatchStats {
	o.stats.done("noisy-sum")
	inv := 1 / o.Divisor
	sd := o.Multiplier * o.c
	for j := range out[:o.d] {
		v := o.sum[j]
		if sd > 0 {
			v = o.noise.Add(v, sd, r)
		}
		out[j] = v * inv
	}
	return o.stats.finish()
}
