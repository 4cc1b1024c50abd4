package solvers

import (
	"math"
	"testing"

	"dpso/solvers/ledger"
	"dpso/solvers/noise"
	"dpso/solvers/oracle"
)

// onLattice reports whether x is a multiple of γ (a power of two, and x/γ
// within the float64 range, so that the division is exact).
func onLattice(x, gamma float64) bool { q := x / gamma; return q == math.Trunc(q) }

// TestSecureOraclesReleaseLatticePoints: the oracle every solver's runner
// makes (newOracle) releases, in Secure mode, only lattice points of its
// σ's grid (noise.Grid), for every Gaussian oracle; in Seeded mode the
// same call's release is the floating-point one, bit for bit that of an
// oracle never switched.
func TestSecureOraclesReleaseLatticePoints(t *testing.T) {
	const d, s = 12, 50
	batch := make([][]float64, s)
	for i := range batch {
		batch[i] = make([]float64, d)
		for j := range batch[i] {
			batch[i][j] = math.Sin(float64(7*i+j)) * 3
		}
	}
	call := func(o oracle.Oracle, seed uint64) ([]float64, float64) {
		if err := o.Begin(d, s, o.Threshold(2, d), ledger.Cost{Rho: 0.5}); err != nil {
			t.Fatal(err)
		}
		for _, z := range batch {
			o.Add(z)
		}
		out := make([]float64, d)
		o.Finish(out, NewRand(Seeded, seed, 0, "noise"))
		return out, o.(interface{ Sigma() float64 }).Sigma()
	}
	for _, name := range oracle.Names() {
		if k, _ := oracle.KindOf(name); k != oracle.ZCDP {
			continue
		}
		t.Run(name, func(t *testing.T) {
			o, err := newOracle(name, Config{Rand: Secure})
			if err != nil {
				t.Fatal(err)
			}
			out, sigma := call(o, 1)
			gamma, _ := noise.Grid(sigma)
			for j, v := range out {
				if !onLattice(v, gamma) {
					t.Errorf("secure release %d = %v is not a multiple of γ = %g", j, v, gamma)
				}
			}
			seeded, _ := newOracle(name, Config{Rand: Seeded})
			plain, _ := oracle.New(name)
			a, _ := call(seeded, 2)
			b, _ := call(plain, 2)
			for j := range a {
				if math.Float64bits(a[j]) != math.Float64bits(b[j]) {
					t.Errorf("seeded release %d = %v, an unswitched oracle's %v", j, a[j], b[j])
				}
			}
		})
	}
}

// TestDPSGDSecureStepOnLattice: dp-sgd's noisy sum under Secure
// randomness is a lattice point of its noise's grid. One step from w₀ = 0
// with η = 2⁻¹⁰ and B = 4 (powers of two, so w₁ = −η·v/B is exact and well
// inside W) gives back the released sum v = −w₁·B/η.
func TestDPSGDSecureStepOnLattice(t *testing.T) {
	const n = 400
	s := DPSGD{Batch: 4}
	cfg := Config{Eps: 1, K: 2, Iters: 1, Clip: 1, Step: 0x1p-10, Rand: Secure}
	pl, _, err := s.plan(tpLinReg, n, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if pl.B != 4 || pl.eta != 0x1p-10 || pl.adaptive {
		t.Fatalf("plan B = %v, η = %v, adaptive %v", pl.B, pl.eta, pl.adaptive)
	}
	gamma, _ := noise.Grid(pl.zSum * pl.clip)
	for trial := range 5 {
		cfg.Trial = trial
		res, err := s.Run(t.Context(), tpLinReg, tpLinReg.samples(n, 3, trial), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for j, w := range res.W {
			if v := -w * pl.B / pl.eta; !onLattice(v, gamma) {
				t.Errorf("trial %d: released sum coordinate %d = %v is not a multiple of γ = %g", trial, j, v, gamma)
			}
		}
	}
}
