package solvers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// linRegT10 is the solvers-level twin of scenarios' linreg-t at its
// defaults: d = 10, W the unit ball, w* = 0.5·(1, …, 1)/√10, label noise
// s = 1, tail ν = 6; F(0) − F* = ½·(ν/(ν−2))·‖w*‖² = 0.1875.
func linRegT10() *linRegProblem {
	ws := make([]float64, 10)
	for i := range ws {
		ws[i] = 0.5 / math.Sqrt(10)
	}
	return &linRegProblem{d: 10, radius: 1, wstar: ws, s: 1, nu: 6}
}

// The prescription minimises the error expression it documents: moving T,
// m or τ to a neighbour does not lower E (T, m integers; τ by ±1%).
func TestKLZPrescriptionMinimisesItsBound(t *testing.T) {
	p := linRegT10()
	c := p.Constants()
	for _, n := range []int{2000, 20000, 100000} {
		for _, eps := range []float64{0.5, 1, 4} {
			pl, _, err := KLZGD{}.plan(p, n, Config{Eps: eps, K: 2})
			if err != nil {
				t.Fatal(err)
			}
			g := c.Coord(2)
			par := klzParams{beta: c.Beta, D: c.D, d: 10, n: float64(n), eps: eps, k: 2, g: g, L: math.Min(math.Sqrt(10)*g, c.Beta*c.D)}
			T, m, tau := float64(pl.T), float64(pl.m), pl.tau
			e := par.err(T, m, tau)
			for _, nb := range [][3]float64{{T + 1, m, tau}, {math.Max(1, T-1), m, tau}, {T, m + 1, tau}, {T, math.Max(1, m-1), tau}, {T, m, tau * 1.01}, {T, m, math.Max(2*par.L, tau*0.99)}} {
				// τ is re-optimised at the neighbour's (T, m) unless the
				// neighbour moves τ itself.
				nt := nb[2]
				if nb[2] == tau && (nb[0] != T || nb[1] != m) {
					nt = par.tau(nb[0], nb[1])
				}
				if en := par.err(nb[0], nb[1], nt); en < e*(1-1e-12) {
					t.Errorf("n = %d, ε = %g: E(T=%g, m=%g, τ=%.4g) = %.6g below the prescribed E(%g, %g, %.4g) = %.6g", n, eps, nb[0], nb[1], nt, en, T, m, tau, e)
				}
			}
		}
	}
}

// The baselines on the same data: on the linreg-t twin at n = 10⁵, ε = 1,
// k = 2, four trials on the same draws for each solver (common random
// numbers), each at its own accounting: acsa and klz-gd are ρ = ½-zCDP,
// dp-sgd is (ε', 10⁻⁵)-DP with ε' ≤ 4.3772, the exact ε' of ρ = ½ at
// δ = 10⁻⁵. Each must beat returning w₀ = 0 (F(0) − F* = 0.1875) by more
// than 3 standard errors of its mean. Measured (mean ± s.e.): dp-sgd
// 0.0033 ± 0.0008, acsa 0.077 ± 0.025, klz-gd 0.065 ± 0.014.
func TestBaselinesBeatTheStart(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("12 runs at n = 10⁵")
	}
	p := linRegT10()
	const S = 4
	for _, name := range []string{"dp-sgd", "acsa", "klz-gd"} {
		t.Run(name, func(t *testing.T) {
			s, _ := Lookup(name)
			var sum, sq float64
			for tr := range S {
				data := Materialize(p.samples(100000, 5, tr))
				res, err := s.Run(context.Background(), p, data, Config{Eps: 1, K: 2, Seed: 5, Trial: tr})
				if err != nil {
					t.Fatal(err)
				}
				if name == "dp-sgd" && !(res.Spent.Eps <= 4.3772 && res.Spent.Delta == 1e-5) {
					t.Errorf("dp-sgd spent %+v; want ε' ≤ 4.3772 at δ = 1e-5", res.Spent)
				}
				e := p.excess(res.W)
				sum += e
				sq += e * e
			}
			mean := sum / S
			se := math.Sqrt(math.Max(0, sq/S-mean*mean) / (S - 1))
			t.Logf("%s at n = 10⁵: excess %.4f ± %.4f (start: 0.1875)", name, mean, se)
			if mean+3*se >= 0.1875 {
				t.Errorf("%s: excess %.4f ± %.4f does not beat the start's 0.1875", name, mean, se)
			}
		})
	}
}

func TestKLZOverrides(t *testing.T) {
	p := linRegT10()
	pr, err := KLZGD{Groups: 7, Tau: 3}.Prescribe(p, 10000, Config{Eps: 1, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Clip != 3*math.Sqrt(10) || pr.Prescribed || !slices.Contains(pr.Overridden, "klz-groups") || !slices.Contains(pr.Overridden, "klz-tau") {
		t.Errorf("overrides: C = %g, Prescribed %v, Overridden %v", pr.Clip, pr.Prescribed, pr.Overridden)
	}
	if pl, _, _ := (KLZGD{Groups: 7, Tau: 3}).plan(p, 10000, Config{Eps: 1, K: 2}); pl.m != 7 || pl.tau != 3 {
		t.Errorf("m = %d, τ = %g; want 7, 3", pl.m, pl.tau)
	}
	for _, c := range []struct {
		o     KLZGD
		clip  float64
		field string
	}{{KLZGD{Groups: -1}, 0, "klz-groups"}, {KLZGD{Tau: -1}, 0, "klz-tau"}, {KLZGD{Tau: 2}, 5, "klz-tau"}} {
		t.Run(fmt.Sprintf("%s: %+v clip=%g", c.field, c.o, c.clip), func(t *testing.T) {
			_, err := c.o.Prescribe(p, 10000, Config{Eps: 1, K: 2, Clip: c.clip})
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != c.field {
				t.Errorf("%+v: %v, want a ConfigError on %s", c.o, err, c.field)
			}
		})
	}
	// Without a declared coordinate moment the prescription says it uses
	// the loose bound 2r̃_k.
	q := &constProblem{d: 10, c: Constants{D: 2, Beta: 1.5, Lf: math.Inf(1), Moment: p.Constants().Moment}}
	pr, err = KLZGD{}.Prescribe(q, 10000, Config{Eps: 1, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(pr.Notes, "\n"), "2r̃_k") {
		t.Errorf("notes %q do not say γ_k was bounded by 2r̃_k", pr.Notes)
	}
}

// TestKLZNeedsASmoothLoss: klz-gd is gradient descent on a β-smooth loss;
// on a problem that declares no β and is not affine (hinge, absolute
// deviation) it says so on the solver, naming the classes it runs on; an
// affine problem (β = 0) keeps the general "give β" on beta.
func TestKLZNeedsASmoothLoss(t *testing.T) {
	moment := func(float64) float64 { return 1 }
	for _, c := range []struct {
		affine bool
		field  string
		want   string
	}{{false, "solver", "smooth-convex, smooth-sc and ppl"}, {true, "beta", "give a finite β > 0"}} {
		t.Run(fmt.Sprintf("affine=%v", c.affine), func(t *testing.T) {
			p := &constProblem{d: 3, c: Constants{D: 2, Lf: math.Inf(1), Affine: c.affine, Moment: moment}}
			for _, eps := range []float64{1, math.Inf(1)} {
				_, err := KLZGD{}.Prescribe(p, 1000, Config{Eps: eps, K: 2})
				if ce, ok := configErr(err); !ok || ce.Field != c.field || !strings.Contains(ce.Msg, c.want) {
					t.Errorf("affine %v, ε = %g: %v, want a ConfigError on %s saying %q", c.affine, eps, err, c.field, c.want)
				}
			}
		})
	}
}

// TestKLZBestIsTheSearchOnErr: best, which computes E's terms that do not
// depend on T once per m, picks the same (T, m, τ), bit for bit, as the
// search that evaluates err and tau at every point, over k (2, 4, ∞),
// ε, n, T, m and τ fixed or searched.
func TestKLZBestIsTheSearchOnErr(t *testing.T) {
	search := func(c klzParams, tmax, tFix, mmax, mFix int, tauFix float64) (T, m int, tau float64) {
		bestE := math.Inf(1)
		ms := []int{mFix}
		if mFix == 0 {
			ms = ms[:0]
			for mm := 1; mm <= mmax; mm++ {
				ms = append(ms, mm)
			}
		}
		for _, mm := range ms {
			fm := float64(mm)
			tauAt := func(T float64) float64 {
				if tauFix > 0 {
					return tauFix
				}
				return c.tau(T, fm)
			}
			eval := func(t int) float64 { return c.err(float64(t), fm, tauAt(float64(t))) }
			t0 := tFix
			if tFix == 0 {
				lo, hi := 0.0, math.Log(float64(tmax))
				f := func(x float64) float64 { return c.err(math.Exp(x), fm, tauAt(math.Exp(x))) }
				const gr = 0.6180339887498949
				a, b := hi-gr*(hi-lo), lo+gr*(hi-lo)
				fa, fb := f(a), f(b)
				for hi-lo > 1e-3 {
					if fa < fb {
						hi, b, fb = b, a, fa
						a = hi - gr*(hi-lo)
						fa = f(a)
					} else {
						lo, a, fa = a, b, fb
						b = lo + gr*(hi-lo)
						fb = f(b)
					}
				}
				t0 = max(1, min(tmax, int(math.Floor(math.Exp((lo+hi)/2)))))
				if t1 := min(tmax, t0+1); eval(t1) < eval(t0) {
					t0 = t1
				}
			}
			if e := eval(t0); e < bestE {
				bestE, T, m, tau = e, t0, mm, tauAt(float64(t0))
			}
		}
		return T, m, tau
	}
	for _, k := range []float64{2, 4, math.Inf(1)} {
		for _, eps := range []float64{0.3, 3} {
			for _, n := range []float64{1000, 2e6} {
				c := klzParams{beta: 2, D: 1.5, d: 10, n: n, eps: eps, k: k, g: 1.7, L: 0.4}
				for _, fix := range []struct {
					tmax, tFix, mmax, mFix int
					tau                    float64
				}{{1000, 0, 300, 0, 0}, {1 << 20, 0, 2000, 0, 0}, {500, 40, 300, 0, 0}, {500, 0, 300, 7, 0}, {500, 0, 300, 0, 2.5}} {
					T, m, tau := c.best(fix.tmax, fix.tFix, fix.mmax, fix.mFix, fix.tau)
					wT, wm, wtau := search(c, fix.tmax, fix.tFix, fix.mmax, fix.mFix, fix.tau)
					if T != wT || m != wm || math.Float64bits(tau) != math.Float64bits(wtau) {
						t.Errorf("k = %g, ε = %g, n = %g, %+v: best (%d, %d, %v), the search on err (%d, %d, %v)", k, eps, n, fix, T, m, tau, wT, wm, wtau)
					}
					for range 2 { // the search, then the cache's answer
						cT, cm, ctau := c.bestCached(fix.tmax, fix.tFix, fix.mmax, fix.mFix, fix.tau)
						if cT != T || cm != m || math.Float64bits(ctau) != math.Float64bits(tau) {
							t.Errorf("k = %g, ε = %g, n = %g, %+v: bestCached (%d, %d, %v), best (%d, %d, %v)", k, eps, n, fix, cT, cm, ctau, T, m, tau)
						}
					}
				}
			}
		}
	}
}

// tau is the τ minimising E at (T, m), at least 2L, written plainly: the
// reference that klz-gd's plan, which computes its terms once per m, is
// held to.
func (c klzParams) tau(T, m float64) float64 {
	if math.IsInf(c.k, 1) {
		return math.Max(2*c.L, c.g)
	}
	sd := math.Sqrt(c.d)
	coef := c.zeta(m)*sd + m*c.d*math.Sqrt(T)/(c.n*c.eps)
	gk := math.Pow(c.g, c.k) // γ
	return math.Max(2*c.L, math.Pow((c.k-1)*sd*gk/coef, 1/c.k))
}
