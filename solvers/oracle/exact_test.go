package oracle

import (
	"math"
	"testing"

	"dpso/solvers/ledger"
	"dpso/solvers/noise"
)

// TestGaussianOraclesAreExactNoisers: every registered oracle of kind ZCDP
// (Gaussian noise) can be switched to exact noise, so that a secure run
// cannot reach a Gaussian oracle whose noise stays floating point.
func TestGaussianOraclesAreExactNoisers(t *testing.T) {
	for _, name := range Names() {
		o, _ := New(name)
		if _, ok := o.(ExactNoiser); ok != (o.Kind() == ZCDP) {
			t.Errorf("%s (kind %v): ExactNoiser %v", name, o.Kind(), ok)
		}
	}
	if _, ok := any(&NoisySum{}).(ExactNoiser); !ok {
		t.Error("NoisySum is not an ExactNoiser")
	}
}

// TestExactNoiseOnLattice: with exact noise, every coordinate a Gaussian
// oracle releases is a multiple of the lattice spacing γ of its σ
// (noise.Grid), and the call reports σ̃ = noise.Tilde(σ); NoisySum's sum
// is such a point before its division by B = 4 (exact, a power of two),
// and its sampler's σ is σ̃.
// With floating-point noise (the default) no coordinate of these draws
// falls on that lattice.
func TestExactNoiseOnLattice(t *testing.T) {
	const s, d = 40, 30
	nu := make([]float64, d)
	for j := range nu {
		nu[j] = 0.3*float64(j) - 4
	}
	batch := studentBatch(newRand(3), s, nu, 3)
	onLattice := func(x, gamma float64) bool { q := x / gamma; return q == math.Trunc(q) } // x/γ is exact: γ = 2^e
	for _, exact := range []bool{true, false} {
		for _, name := range []string{"clip-gaussian", "coordinate", NoisySumName} {
			var out []float64
			var sigma, reported float64
			r := newRand(17)
			switch name {
			case NoisySumName:
				ns := &NoisySum{Multiplier: 0.8, Divisor: 4}
				ns.SetExactNoise(exact)
				if err := ns.Begin(d, s, 2); err != nil {
					t.Fatal(err)
				}
				for _, z := range batch {
					ns.Add(z)
				}
				out = make([]float64, d)
				ns.Finish(out, r)
				for j := range out {
					out[j] *= 4
				}
				sigma = 0.8 * 2
				reported = ns.noise.Sigma(sigma) // NoisySum reports no σ: its sampler's
			default:
				or, _ := New(name)
				SetExactNoise(or, exact)
				var call Call
				out, call = run(t, or, batch, or.Threshold(2, d), ledger.Cost{Rho: 0.3}, r)
				sigma, reported = or.(interface{ Sigma() float64 }).Sigma(), call.Sigma
			}
			gamma, _ := noise.Grid(sigma)
			hits := 0
			for _, v := range out {
				if onLattice(v, gamma) {
					hits++
				}
			}
			want, wantSigma := d, noise.Tilde(sigma)
			if !exact {
				want, wantSigma = 0, sigma
			}
			if hits != want {
				t.Errorf("%s exact=%v: %d of %d coordinates on γ = %g's lattice, want %d", name, exact, hits, d, gamma, want)
			}
			if reported != wantSigma {
				t.Errorf("%s exact=%v: reported σ = %v, want %v", name, exact, reported, wantSigma)
			}
		}
	}
}
