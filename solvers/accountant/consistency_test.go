package accountant_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dpso/solvers/accountant"
	"dpso/theory"
)

// Consistency checks from first principles, under both adjacencies: q = 1
// is the Gaussian mechanism (whose exact curve theory/privacy.go computes),
// PLD is never above RDP, ε' grows with q and T and falls with σ, and the
// calibration meets its target with the smallest σ.

var adjacencies = []accountant.Adjacency{accountant.ReplaceOne, accountant.AddRemove}

// sensitivity is how far one record moves a step's sum under adj, in
// units of the clip threshold: 2 under replace-one (g − g', ‖g‖, ‖g'‖ ≤ 1),
// 1 under add/remove.
func sensitivity(adj accountant.Adjacency) float64 {
	if adj == accountant.ReplaceOne {
		return 2
	}
	return 1
}

func TestFullBatchIsGaussian(t *testing.T) {
	t.Parallel()
	// q = 1: T steps of the Gaussian mechanism with noise multiplier σ are
	// one Gaussian mechanism with μ = Δ√T/σ (GDP composition; Δ = 2 under
	// replace-one, 1 under add/remove), whose exact ε'(δ) is
	// theory.EpsExact. PLD must bracket it; RDP must bound it.
	for _, adj := range adjacencies {
		t.Run(adj.String(), func(t *testing.T) { fullBatchIsGaussian(t, adj) })
	}
}

func fullBatchIsGaussian(t *testing.T, adj accountant.Adjacency) {
	for _, c := range []struct {
		sigma float64
		steps int
		delta float64
	}{{1, 1, 1e-5}, {2, 10, 1e-5}, {5, 100, 1e-6}, {0.8, 3, 1e-3}, {20, 1000, 1e-5},
		// σ = 0.04: the loss spans ~10⁷ points of the default h = 10⁻⁴,
		// past the grid's cap: computed on h = 10⁻³, still bracketing.
		// σ = 0.002: ε' ≈ 1.3·10⁵, where e^ε overflows (δ(ε) was 0 there)
		// and h = 0.1.
		{0.04, 1, 1e-5}, {0.002, 1, 1e-5}} {
		t.Run(fmt.Sprintf("sigma=%g steps=%d", c.sigma, c.steps), func(t *testing.T) {
			// σ scaled with Δ: the same μ, the same regimes, in both relations.
			sigma := c.sigma * sensitivity(adj)
			exact := theory.EpsExact(math.Sqrt(float64(c.steps))/c.sigma, c.delta)
			m := accountant.Mechanism{Sigma: sigma, Q: 1, Steps: c.steps, Adjacency: adj}
			lo, hi, err := accountant.PLDBounds(m, c.delta, accountant.PLDOptions{})
			if err != nil || exact < lo-1e-12 || exact > hi+1e-12 {
				t.Errorf("%+v δ = %g: PLD [%.10g, %.10g] (%v) must contain the exact %.10g", m, c.delta, lo, hi, err, exact)
			}
			r, _, err := accountant.RDPEpsilon(m, c.delta, nil)
			if err != nil || r < exact {
				t.Errorf("%+v δ = %g: RDP %.10g (%v) below the exact %.10g", m, c.delta, r, err, exact)
			}
		})
	}
}

func TestPLDBelowRDP(t *testing.T) {
	t.Parallel()
	// Both are upper bounds on the same ε'; RDP's conversion is lossy, so
	// PLD (tight to its reported gap) must not exceed it. Fixed seed.
	r := rand.New(rand.NewPCG(12, 0))
	for i := range 16 {
		m := accountant.Mechanism{
			Sigma:     0.6 + 3*r.Float64(),
			Q:         math.Exp(math.Log(1e-3) + r.Float64()*math.Log(300)),
			Steps:     int(math.Exp(r.Float64() * math.Log(2000))),
			Adjacency: adjacencies[i%2],
		}
		delta := math.Pow(10, -4-3*r.Float64())
		pld, err := accountant.PLDEpsilon(m, delta, accountant.PLDOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rdp, _, err := accountant.RDPEpsilon(m, delta, nil)
		if err != nil {
			t.Fatal(err)
		}
		if pld > rdp {
			t.Errorf("%+v δ = %.3g: PLD %.6g above RDP %.6g", m, delta, pld, rdp)
		}
	}
}

func TestMonotone(t *testing.T) {
	t.Parallel()
	// Each step of the grid changes the mechanism by 20%, far beyond the
	// PLD's discretisation error (≤ 10⁻² here), so ε' must move strictly.
	for _, adj := range adjacencies {
		t.Run(adj.String(), func(t *testing.T) {
			monotone(t, accountant.Mechanism{Sigma: 1.2, Q: 0.02, Steps: 300, Adjacency: adj})
		})
	}
}

func monotone(t *testing.T, base accountant.Mechanism) {
	for _, k := range []accountant.Kind{accountant.RDP, accountant.PLD} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			eps := func(m accountant.Mechanism) float64 {
				e, err := accountant.Epsilon(k, m, 1e-5)
				if err != nil {
					t.Fatal(err)
				}
				return e
			}
			prev := math.Inf(1)
			for s := 0.8; s < 3; s *= 1.2 {
				m := base
				m.Sigma = s
				e := eps(m)
				if !(e < prev) {
					t.Errorf("%v: ε'(σ = %.3g) = %.6g not below ε' at the smaller σ, %.6g", k, s, e, prev)
				}
				prev = e
			}
			prev = 0
			for q := 0.005; q < 0.2; q *= 1.5 {
				m := base
				m.Q = q
				e := eps(m)
				if !(e > prev) {
					t.Errorf("%v: ε'(q = %.3g) = %.6g not above ε' at the smaller q, %.6g", k, q, e, prev)
				}
				prev = e
			}
			prev = 0
			for T := 10; T < 3000; T = T * 3 / 2 {
				m := base
				m.Steps = T
				e := eps(m)
				if !(e > prev) {
					t.Errorf("%v: ε'(T = %d) = %.6g not above ε' at the smaller T, %.6g", k, T, e, prev)
				}
				prev = e
			}
		})
	}
}

func TestCalibrateNeverOvershoots(t *testing.T) {
	t.Parallel()
	// Property test over random (q, T, ε', δ) under both adjacencies,
	// fixed seed: the calibrated σ meets the target, and σ·(1 − 10⁻³) does
	// not (CalibrateContext stops at a relative width of 10⁻⁴, ten times finer).
	r := rand.New(rand.NewPCG(2026, 12))
	n := map[accountant.Kind]int{accountant.RDP: 12, accountant.PLD: 3}
	if testing.Short() {
		n[accountant.PLD] = 1
	}
	for _, k := range []accountant.Kind{accountant.RDP, accountant.PLD} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			for i := range 2 * n[k] {
				adj := adjacencies[i%2]
				q := math.Exp(math.Log(1e-3) + r.Float64()*math.Log(200))
				T := int(math.Exp(math.Log(5) + r.Float64()*math.Log(600)))
				target := 0.5 + 9.5*r.Float64()
				delta := math.Pow(10, -4-3*r.Float64())
				s, err := accountant.CalibrateContext(context.Background(), k, adj, q, T, target, delta)
				if err != nil {
					t.Fatalf("%v %v q=%g T=%d ε'=%g δ=%g: %v", k, adj, q, T, target, delta, err)
				}
				at := func(s float64) float64 {
					e, err := accountant.Epsilon(k, accountant.Mechanism{Sigma: s, Q: q, Steps: T, Adjacency: adj}, delta)
					if err != nil {
						t.Fatal(err)
					}
					return e
				}
				if e := at(s); e > target {
					t.Errorf("%v %v q=%.4g T=%d δ=%.3g: σ = %.6g gives ε' = %.8g above the target %.8g", k, adj, q, T, delta, s, e, target)
				}
				if e := at(s * (1 - 1e-3)); e <= target {
					t.Errorf("%v %v q=%.4g T=%d δ=%.3g: σ(1 − 1e-3) = %.6g still meets the target %.8g (ε' = %.8g): not the smallest", k, adj, q, T, delta, s*(1-1e-3), target, e)
				}
			}
		})
	}
}
