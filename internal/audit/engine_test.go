package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"dpso/solvers"
	"dpso/solvers/oracle"
)

// shiftDrawer is a synthetic mechanism with a known privacy curve: D0
// outputs noise, D1 outputs shift + noise (shift < 0 tests the
// orientation).
type shiftDrawer struct {
	shift   float64
	laplace bool // Laplace(0, 1) noise instead of N(0, 1)
}

func (d shiftDrawer) draw(_ context.Context, side int, _ int, r *rand.Rand) (float64, error) {
	var z float64
	if d.laplace {
		z = distuv.Laplace{Mu: 0, Scale: 1, Src: r}.Rand()
	} else {
		z = r.NormFloat64()
	}
	return float64(side)*d.shift + z, nil
}

// synthetic audits a shiftDrawer against a claim.
func synthetic(t *testing.T, d shiftDrawer, kind oracle.Kind, eps, delta float64, trials int) *Result {
	t.Helper()
	p := plan{trials: trials, pilot: max(2000, trials/10), chunk: 1000, workers: 2, mode: solvers.Seeded, seed: 7,
		newDrawer: func() (drawer, error) { return d, nil }}
	smp, err := p.collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Kind: kind, Eps: eps, Delta: delta, NegativeControl: 1, Direction: []float64{1}}
	analyze(r, smp)
	return r
}

// TestSyntheticGaussian: a Gaussian shift by μ is exactly μ-GDP. Audited
// against the claim μ it must show no violation and μ̂ within 4 standard
// errors of μ (a 6·10⁻⁵ two-sided normal tail); against the claim μ/1.5
// it must show one. Power: at N = 40000 MuLower sits about
// 2·3.1·1.3/√N ≈ 0.04 (μ ≤ 1) to 0.2 (μ = 4) below μ (see analyze), far
// less than the gap μ/3 at every μ here.
func TestSyntheticGaussian(t *testing.T) {
	for _, mu := range []float64{0.3, 1, 4} {
		r := synthetic(t, shiftDrawer{shift: mu}, oracle.ZCDP, mu, math.NaN(), 40000)
		if r.Violation || r.MuLower > mu {
			t.Errorf("μ = %g: MuLower = %.4g > μ: a false violation", mu, r.MuLower)
		}
		if math.Abs(r.MuHat-mu) > 4*r.MuSE {
			t.Errorf("μ = %g: μ̂ = %.4g ± %.2g", mu, r.MuHat, r.MuSE)
		}
		if !(r.MuUpper >= r.MuLower) {
			t.Errorf("μ = %g: interval [%.4g, %.4g] is empty", mu, r.MuLower, r.MuUpper)
		}
		weak := synthetic(t, shiftDrawer{shift: mu}, oracle.ZCDP, mu/1.5, math.NaN(), 40000)
		if !weak.Violation {
			t.Errorf("μ = %g against the claim %g: MuLower = %.4g, no violation", mu, mu/1.5, weak.MuLower)
		}
	}
}

// TestSyntheticOrientation: when D1's outputs are the smaller ones the
// pilot flips the projection, so the bounds are unchanged in law and the
// reported direction is −1.
func TestSyntheticOrientation(t *testing.T) {
	r := synthetic(t, shiftDrawer{shift: -1}, oracle.ZCDP, 1, math.NaN(), 20000)
	if r.Direction[0] != -1 {
		t.Errorf("direction %v, want [-1]", r.Direction)
	}
	if math.Abs(r.MuHat-1) > 4*r.MuSE || r.Violation {
		t.Errorf("μ̂ = %.4g ± %.2g, violation %v; want ≈ 1 and none", r.MuHat, r.MuSE, r.Violation)
	}
}

// TestSyntheticLaplace: the Laplace mechanism with scale 1 and shift ε is
// ε-DP (δ = 0), and its tail tests attain ε (TestEpsOfRates). The
// (ε, δ) path must show no violation of the true ε, catch the claim ε/2,
// and come close to ε: at N = 100000 the best tail threshold (FPR ≈ 0.01,
// about 1000 counts) loses about 2·3.2/√1000 ≈ 0.2 to the Clopper–Pearson
// bounds, so EpsLower > 0.6ε at ε = 1.
func TestSyntheticLaplace(t *testing.T) {
	const eps, delta = 1.0, 1e-6
	r := synthetic(t, shiftDrawer{shift: eps, laplace: true}, oracle.Shuffle, eps, delta, 100000)
	if r.Violation || r.EpsLower > eps {
		t.Errorf("EpsLower = %.4g > ε = %g: a false violation", r.EpsLower, eps)
	}
	if r.EpsLower < 0.6*eps {
		t.Errorf("EpsLower = %.4g, want > %g (the test has lost its power)", r.EpsLower, 0.6*eps)
	}
	weak := synthetic(t, shiftDrawer{shift: eps, laplace: true}, oracle.Shuffle, eps/2, delta, 100000)
	if !weak.Violation {
		t.Errorf("claim ε/2: EpsLower = %.4g, no violation", weak.EpsLower)
	}
}

// TestWorkersDeterminism: a seeded audit is the same bit for bit for any
// number of workers (fixed chunks, each with its own stream, whose moments
// are merged in order and whose counts are summed), for a Gaussian, a
// coordinate-wise and a shuffle oracle (whose local randomizers draw from
// the chunk's stream too) and for a whole-run audit.
func TestWorkersDeterminism(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		audit func(workers int) (*Result, error)
	}{
		{"clip-gaussian", func(w int) (*Result, error) {
			return Oracle(context.Background(), Config{Oracle: "clip-gaussian", Eps: 1, D: 2, Trials: 9000, Seed: 3, Workers: w})
		}},
		{"coordinate", func(w int) (*Result, error) {
			return Oracle(context.Background(), Config{Oracle: "coordinate", Eps: 1, D: 3, Trials: 5000, Seed: 3, Workers: w})
		}},
		{"shuffle-clip", func(w int) (*Result, error) {
			return Oracle(context.Background(), Config{Oracle: "shuffle-clip", Eps: 1, Trials: 5000, Seed: 3, Workers: w})
		}},
		{"whole run acsa", func(w int) (*Result, error) {
			return Run(context.Background(), RunConfig{Solver: "acsa", Eps: 1, N: 50, Trials: 1000, Seed: 3, Workers: w})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first *Result
			for _, w := range []int{1, 2, 5} {
				r, err := tc.audit(w)
				if err != nil {
					t.Fatal(err)
				}
				r.Workers = 0
				if first == nil {
					first = r
					continue
				}
				// %#v prints every field, NaN included (which DeepEqual
				// would call unequal to itself), and floats to the last bit.
				if fmt.Sprintf("%#v", *first) != fmt.Sprintf("%#v", *r) {
					t.Errorf("%d workers: μ̂ = %.17g, 1 worker: %.17g; results differ", w, r.MuHat, first.MuHat)
				}
			}
		})
	}
}

// nanDrawer is a broken mechanism: its output at run `at` of the pilot's
// D1 is NaN.
type nanDrawer struct{ at int }

func (d nanDrawer) draw(_ context.Context, side int, run int, r *rand.Rand) (float64, error) {
	if side == 1 && run == runIndex(job{side: 1}, d.at) {
		return math.NaN(), nil
	}
	return r.NormFloat64(), nil
}

// TestNonFiniteOutputRefused: a NaN output is refused as a bug, in the
// pilot (whose quantiles it would corrupt) as in the main sample.
func TestNonFiniteOutputRefused(t *testing.T) {
	p := plan{trials: 1000, pilot: 2000, chunk: 100, workers: 2, mode: solvers.Seeded,
		newDrawer: func() (drawer, error) { return nanDrawer{at: 1234}, nil }}
	if _, err := p.collect(context.Background()); err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Errorf("err = %v, want the non-finite output refused", err)
	}
}
