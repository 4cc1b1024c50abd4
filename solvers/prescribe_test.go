package solvers

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// declared is a constProblem with d = 4, D = 2 and the moment table
// r̃_2 = 2, r̃_3 = 3, r̃_4 = 5, r̃_6 = 5 (other orders: not declared, NaN).
func declared(beta, mu, lf float64) *constProblem {
	table := map[float64]float64{2: 2, 3: 3, 4: 5, 6: 5}
	return &constProblem{d: 4, c: Constants{D: 2, Beta: beta, Mu: mu, Lf: lf, Moment: func(k float64) float64 {
		if v, ok := table[k]; ok {
			return v
		}
		return math.NaN()
	}}}
}

func near(got, want, rel float64) bool {
	if math.IsInf(want, 0) || want == 0 {
		return got == want
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// The expected values below were computed by hand (an independent Python
// transcription of the formulas quoted in each solver's doc comment) at
// n = 10⁴, d = 4, D = 2, ε = 1.
func TestPrescribeFormulas(t *testing.T) {
	type want struct {
		iters, batch      int
		clip, sigma, step float64
	}
	cases := []struct {
		name   string
		solver Solver
		p      Problem
		n      int
		cfg    Config
		want   want
	}{
		// acsa, k = 2, β = 1, r̃_2 = 2: T₁ = 5000^{2/9} = 6.637, T₂ = 10, T = 7;
		// C = 2(10⁴/√28)^{1/2}; s = 1428; σ = 2C/s; B = 4/C; Σ² = 4σ² + 4/s;
		// η = max{2, 7^{3/2}√(Σ² + B²)/2}.
		{"acsa", ACSA{}, declared(1, 0, math.Inf(1)), 10000, Config{Eps: 1, K: 2},
			want{7, 1428, 86.94417438899828, 0.12177055236554381, 2.3468535839715083}},
		// ε = ∞: T = ⌈√(βD/r̃_2)·n^{1/4}⌉ = 10, no clipping, no noise, B = 0,
		// s = 1000, Σ² = r̃_2²/s: η = max{2β, 10^{3/2}·2/(√1000·2)} = max{2, 1} = 2.
		{"acsa ε=∞", ACSA{}, declared(1, 0, math.Inf(1)), 10000, Config{Eps: math.Inf(1), K: 2},
			want{10, 1000, math.Inf(1), 0, 2}},
		// k = ∞, L_f = 50: exponents 2/5, 2/5; T₁ = (2/50)^{0.4}(5000)^{0.4} = 8.33,
		// T₂ = √(2/50)·10 = 2; C = L_f; s = 5000; σ = 100/5000; B = 0; η = 2β.
		{"acsa k=∞", ACSA{}, declared(1, 0, 50), 10000, Config{Eps: 1, K: math.Inf(1)},
			want{2, 5000, 50, 0.02, 2}},
		// clipped-sgd, β = 2, μ = 1, k = 2: T = ⌈8 ln(2·(10⁴ + 5000))⌉ = ⌈82.47⌉ = 83;
		// C = 2(10⁸/(4·83))^{1/4}; T + 1 = 84 calls of 119; σ = 2C/119; step 1/β.
		{"clipped-sgd", ClippedSGD{}, declared(2, 1, math.Inf(1)), 10000, Config{Eps: 1, K: 2},
			want{83, 119, 46.85387070236361, 2 * 46.85387070236361 / 119, 0.5}},
		// ε = ∞: ln(∞) = ∞, T clamps to n − 1; batches of one sample.
		{"clipped-sgd ε=∞", ClippedSGD{}, declared(2, 1, math.Inf(1)), 10000, Config{Eps: math.Inf(1), K: 2},
			want{9999, 1, math.Inf(1), 0, 0.5}},
		// prox-sgd, β = 2, μ = 1, r̃_2 = r̃_k = 2, Δ = r̃_2·D/2 = 2: the smallest
		// T with T ≥ 2⌈κ ln(Δμ/(B(T)² + Σ(T)²))⌉ is 14 (rhs(14) = 14,
		// rhs(13) = 16); C = 2(10⁸/(4·196))^{1/4}; s = 714; η = 1/(2β).
		{"prox-sgd", ProxSGD{}, declared(2, 1, math.Inf(1)), 10000, Config{Eps: 1, K: 2},
			want{14, 714, 37.79644730092272, 2 * 37.79644730092272 / 714, 0.25}},
		// localized at n = 1024, k = 3 (r̃_3 = 3, r̃_6 = 5, r̃_2 = 2): η = 0.0013008629…
		// (the last of the three terms), η₁ = η/4, n₁ = 512, C₁ = 5(512/√(4 ln 1024))^{1/3};
		// T_i is the proof's fixed point T = a ln(b/T), a = n_i^{4/3},
		// b = D²λ_i n_i²ε²/(4dC_i²η_i), i.e. T = a·W(b/a) (Lambert W), capped at
		// ⌈n_i^{4/3} ln 1024⌉: T₁ = ⌈12744.57⌉ (cap 28392), T₂ = ⌈9964.52⌉ (cap
		// 11268), the cap from phase 3 on; σ₁ = 2C₁√T₁/512. Computed with mpmath
		// (an independent transcription at 40 digits). Work 9790647 < budget.
		{"localized", Localized{}, declared(0, 0, math.Inf(1)), 1024, Config{Eps: 1, K: 3},
			want{12745 + 9965 + 4472 + 1775 + 705 + 280 + 111 + 45 + 18 + 7, 512, 22.99212344871467, 10.139324843355751, 0.0003252157310804578}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pr, err := c.solver.Prescribe(c.p, c.n, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			w := c.want
			if pr.Iters != w.iters || pr.Batch != w.batch || !near(pr.Clip, w.clip, 1e-12) ||
				!near(pr.Sigma, w.sigma, 1e-12) || !near(pr.Step, w.step, 1e-12) {
				t.Errorf("got T=%d batch=%d C=%.17g σ=%.17g step=%.17g\nwant T=%d batch=%d C=%.17g σ=%.17g step=%.17g",
					pr.Iters, pr.Batch, pr.Clip, pr.Sigma, pr.Step, w.iters, w.batch, w.clip, w.sigma, w.step)
			}
			if !pr.Prescribed || len(pr.Overridden) != 0 {
				t.Errorf("Prescribed = %v, Overridden = %v; want true, none", pr.Prescribed, pr.Overridden)
			}
		})
	}
}

// Phase-by-phase values of "localized" at n = 1024 (see above): phases
// 1, 2 and the last (n_l = 1, C_l = r̃_6(ε/√d)^{1/3}).
func TestPrescribeLocalizedPhases(t *testing.T) {
	pr, err := Localized{}.Prescribe(declared(0, 0, math.Inf(1)), 1024, Config{Eps: 1, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Phases) != 10 {
		t.Fatalf("%d phases, want ⌊log₂ 1024⌋ = 10", len(pr.Phases))
	}
	want := map[int]Phase{
		0: {N: 512, Iters: 12745, Step: 0.0003252157310804578, Lambda: 0.7507036150708225, Radius: 63.94001445626661, Clip: 22.99212344871467, Sigma: 10.139324843355751},
		1: {N: 256, Iters: 9965, Step: 8.130393277011445e-05, Lambda: 7.56661829487926, Radius: 7.992501807033325, Clip: 18.248860474736187, Sigma: 14.231950762757281},
		9: {N: 1, Iters: 7, Step: 1.2405995600908577e-09, Lambda: 806061868.9295385, Radius: 4.763902310748892e-07, Clip: 3.968502629920499, Sigma: 20.99934207215087},
	}
	for i, w := range want {
		g := pr.Phases[i]
		if g.N != w.N || g.Iters != w.Iters || !near(g.Step, w.Step, 1e-12) || !near(g.Lambda, w.Lambda, 1e-12) ||
			!near(g.Radius, w.Radius, 1e-12) || !near(g.Clip, w.Clip, 1e-12) || !near(g.Sigma, w.Sigma, 1e-12) {
			t.Errorf("phase %d: got %+v\nwant %+v", i+1, g, w)
		}
	}
	if pr.GradEvals != 9790647 {
		t.Errorf("GradEvals = %d, want Σ n_i T_i = 9790647", pr.GradEvals)
	}
	// At ε = ∞ there is no noise, so the proof's T_i does not exist and
	// every phase runs its cap ⌈n_i^{4/3} ln 1024⌉.
	pr, err = Localized{}.Prescribe(declared(0, 0, math.Inf(1)), 1024, Config{Eps: math.Inf(1), K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Phases[0].Iters != 28392 || pr.Phases[1].Iters != 11268 || pr.GradEvals != 18135479 {
		t.Errorf("ε = ∞: T₁ = %d, T₂ = %d, work %d; want the caps 28392, 11268 and work 18135479", pr.Phases[0].Iters, pr.Phases[1].Iters, pr.GradEvals)
	}
}

// A work budget that binds scales every T_i by the same factor, marks the
// result and says the theorem assumes the full T_i.
func TestLocalizedWorkBudget(t *testing.T) {
	cfg := Config{Eps: 1, K: 3, WorkBudget: 1_000_000}
	pr, err := Localized{}.Prescribe(declared(0, 0, math.Inf(1)), 1024, cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := 1e6 / 9790647.0
	if pr.Phases[0].Iters != int(12745*f) || pr.Phases[9].Iters != 1 {
		t.Errorf("T_1 = %d, T_l = %d; want ⌊12745·%.4f⌋ = %d and max(1, ⌊7·f⌋) = 1", pr.Phases[0].Iters, pr.Phases[9].Iters, f, int(12745*f))
	}
	if pr.GradEvals > 1_000_000 {
		t.Errorf("GradEvals = %d exceeds the budget", pr.GradEvals)
	}
	if !strings.Contains(strings.Join(pr.Notes, "\n"), "the theorem's guarantee assumes the full T_i") {
		t.Errorf("notes %q do not say the guarantee assumes the full T_i", pr.Notes)
	}
	mp := &meanProblem{d: 2, radius: 1, center: []float64{0.1, 0.2}, scale: 1, nu: 9}
	res, err := Localized{}.Run(t.Context(), mp, mp.samples(256, 1, 0), Config{Eps: 1, K: 3, WorkBudget: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if !res.BudgetBound || res.GradEvals > 20000 || res.GradEvals != res.Params.GradEvals {
		t.Errorf("BudgetBound = %v, GradEvals = %d (planned %d); want true and ≤ 20000", res.BudgetBound, res.GradEvals, res.Params.GradEvals)
	}
}

func configErr(err error) (*ConfigError, bool) {
	var ce *ConfigError
	ok := errors.As(err, &ce)
	return ce, ok
}

// Missing or non-existent constants give a *ConfigError naming them.
func TestPrescribeErrors(t *testing.T) {
	noMoments := &constProblem{d: 3, c: Constants{D: 2, Beta: 1, Mu: 1, Lf: math.Inf(1)}}
	heavy := &constProblem{d: 3, c: Constants{D: 2, Beta: 1, Mu: 1, Lf: math.Inf(1), Moment: func(k float64) float64 {
		if k >= 3 {
			return math.Inf(1)
		}
		return 1
	}}}
	cases := []struct {
		name   string
		solver Solver
		p      Problem
		cfg    Config
		field  string
		msg    string
	}{
		{"acsa needs β", ACSA{}, declared(0, 0, 1), Config{Eps: 1, K: 2}, "beta", "smoothness"},
		{"clipped-sgd needs μ", ClippedSGD{}, declared(1, 0, 1), Config{Eps: 1, K: 2}, "mu", "strong convexity"},
		{"prox-sgd needs μ", ProxSGD{}, declared(1, 0, 1), Config{Eps: 1, K: 2}, "mu", "proximal-PL"},
		{"localized-sc needs μ", LocalizedSC{}, declared(1, 0, 1), Config{Eps: 1, K: 2}, "mu", ""},
		{"acsa needs r̃_k", ACSA{}, noMoments, Config{Eps: 1, K: 2}, "rk", "r̃_2"},
		{"localized needs r̃_2k", Localized{}, declared(0, 0, 1), Config{Eps: 1, K: 4}, "r2k", "r̃_8"},
		{"r̃_k = ∞", ACSA{}, heavy, Config{Eps: 1, K: 4}, "k", "r̃_4 = ∞ at k = 4: choose a smaller k (k ≥ 2)"},
		{"r̃_2k = ∞", Localized{}, heavy, Config{Eps: 1, K: 2}, "k", "r̃_4 = ∞ at k = 2: use data with lighter tails"},
		{"L_f = ∞ at k = ∞", ACSA{}, heavy, Config{Eps: 1, K: math.Inf(1)}, "k", "choose a finite k"},
		{"L_f undeclared", ACSA{}, &constProblem{d: 3, c: Constants{D: 2, Beta: 1}}, Config{Eps: 1, K: math.Inf(1)}, "lf", "L_f"},
		{"bad ε", ACSA{}, declared(1, 0, 1), Config{Eps: 0, K: 2}, "eps", "(0, ∞]"},
		{"NaN ε", ACSA{}, declared(1, 0, 1), Config{Eps: math.NaN(), K: 2}, "eps", "(0, ∞]"},
		{"bad k", ACSA{}, declared(1, 0, 1), Config{Eps: 1, K: 1.5}, "k", "[2, ∞]"},
		{"C = ∞ with finite ε", ACSA{}, declared(1, 0, 1), Config{Eps: 1, K: 2, Clip: math.Inf(1)}, "clip", "unbounded sensitivity"},
		{"T > n", ACSA{}, declared(1, 0, 1), Config{Eps: 1, K: 2, Iters: 101}, "iters", "[1, 100]"},
		{"clipped-sgd T > n − 1", ClippedSGD{}, declared(1, 1, 1), Config{Eps: 1, K: 2, Iters: 100}, "iters", "[1, 99]"},
		{"step ≥ 2/μ", ClippedSGD{}, declared(1, 1, 1), Config{Eps: 1, K: 2, Step: 2}, "step", "(0, 2/μ)"},
		{"unknown oracle", ACSA{}, declared(1, 0, 1), Config{Eps: 1, K: 2, Oracle: "nope"}, "oracle", "unknown oracle"},
		{"D missing", ACSA{}, &constProblem{d: 3, c: Constants{Beta: 1}}, Config{Eps: 1, K: 2}, "D", "diameter"},
		{"unknown schedule", SGD{}, declared(1, 0, 1), Config{Eps: 1, K: 2, Schedule: "klz-gd"}, "schedule", "not a paper solver"},
		{"localized-sc n", LocalizedSC{}, declared(1, 1, 1), Config{Eps: 1, K: 2}, "n", "n ≥ 16"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := 100
			if c.field == "n" {
				n = 10
			}
			_, err := c.solver.Prescribe(c.p, n, c.cfg)
			ce, ok := configErr(err)
			if !ok {
				t.Fatalf("err = %v, want a *ConfigError on %q", err, c.field)
			}
			if ce.Field != c.field || !strings.Contains(ce.Msg, c.msg) {
				t.Errorf("got %s: %s\nwant field %q with %q", ce.Field, ce.Msg, c.field, c.msg)
			}
		})
	}
}

// With iters, clip and step all overridden no moment constant is needed;
// overrides mark Params.Prescribed false and list the overridden names.
func TestOverrides(t *testing.T) {
	bare := &constProblem{d: 3, c: Constants{D: 2, Mu: 1}} // no β, no moments, no L_f
	for _, s := range []Solver{ACSA{}, ClippedSGD{}, ProxSGD{}, Localized{}, LocalizedSC{}, SGD{}} {
		t.Run(s.Name(), func(t *testing.T) {
			cfg := Config{Eps: 1, K: 2, Iters: 5, Clip: 3, Step: 0.1}
			pr, err := s.Prescribe(bare, 1000, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if pr.Prescribed || !slices.Equal(pr.Overridden, []string{"iters", "clip", "step"}) {
				t.Errorf("Prescribed = %v, Overridden = %v", pr.Prescribed, pr.Overridden)
			}
			if !strings.Contains(strings.Join(pr.Notes, "\n"), "not in force") {
				t.Errorf("notes %q do not say the prescription is not in force", pr.Notes)
			}
		})
	}
	pr, err := ACSA{}.Prescribe(declared(1, 0, 1), 10000, Config{Eps: 1, K: 2, Clip: 7})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Clip != 7 || pr.Prescribed || !slices.Equal(pr.Overridden, []string{"clip"}) || pr.Iters != 7 {
		t.Errorf("clip override: C = %g, T = %d, Prescribed = %v, Overridden = %v", pr.Clip, pr.Iters, pr.Prescribed, pr.Overridden)
	}
}

func TestRegistry(t *testing.T) {
	want := []string{"acsa", "clipped-sgd", "localized", "localized-sc", "prox-sgd", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd", "dp-sgd"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	for _, n := range want {
		s, ok := Lookup(n)
		if !ok || s.Name() != n || s.Describe() == "" {
			t.Errorf("Lookup(%q) = %v, %v", n, s, ok)
		}
	}
}

// ScheduleWork is the capped schedule's Σ n_i ⌈n_i^p ln n⌉: by hand at
// n = 8, k = 2 (n_i = 4, 2, 1; ⌈n_i^{3/2} ln 8⌉ = 17, 6, 3: 4·17 + 2·6 + 3
// = 83); exactly what Prescribe plans at ε = ∞ (no noise: every T_i is its
// cap) and an upper bound of it at ε = 1, for both localized solvers at
// several (n, k).
func TestLocalizationWork(t *testing.T) {
	if w, ok := (Localized{}).ScheduleWork(8, 2); !ok || w != 83 {
		t.Errorf("localized's ScheduleWork(8, 2) = %g, %v; want 83", w, ok)
	}
	p := declared(1, 1, 10) // r̃_2, r̃_3, r̃_4, r̃_6 and L_f = r̃_∞ declared
	for _, name := range []string{"localized", "localized-sc"} {
		t.Run(name, func(t *testing.T) {
			s, _ := Lookup(name)
			for _, n := range []int{64, 1000, 1024, 5000} {
				for _, k := range []float64{2, 3, math.Inf(1)} {
					w, ok := s.(WorkBounded).ScheduleWork(n, k)
					if !ok {
						t.Fatalf("%s n=%d k=%g: not ok", name, n, k)
					}
					for _, eps := range []float64{math.Inf(1), 1} {
						pr, err := s.Prescribe(p, n, Config{Eps: eps, K: k, WorkBudget: 1 << 50})
						if err != nil {
							t.Fatal(err)
						}
						if g := float64(pr.GradEvals); (math.IsInf(eps, 1) && w != g) || w < g {
							t.Errorf("%s n=%d k=%g ε=%g: ScheduleWork = %g, Prescribe plans %g", name, n, k, eps, w, g)
						}
					}
				}
			}
		})
	}
	for _, c := range []struct {
		solver string
		n      int
	}{{"localized", 1}, {"localized-sc", 15}} {
		t.Run(c.solver, func(t *testing.T) {
			s, _ := Lookup(c.solver)
			if _, ok := s.(WorkBounded).ScheduleWork(c.n, 2); ok {
				t.Errorf("%s's ScheduleWork(%d) ok, want not", c.solver, c.n)
			}
		})
	}
	// The one-pass solvers' work is linear in n: none bounds it.
	for _, name := range []string{"acsa", "nonprivate-schedule", "klz-gd", "dp-sgd"} {
		t.Run(name, func(t *testing.T) {
			if s, _ := Lookup(name); s != nil {
				if _, ok := s.(WorkBounded); ok {
					t.Errorf("%s is WorkBounded", name)
				}
			}
		})
	}
}

// locItersProof is the root of T = a ln(b/T), i.e. a·W(b/a) with W the
// Lambert W function, rounded up and kept in [1, cap]. Values of a·W(b/a)
// from mpmath: a = 100, b = 10⁴: 100·W(100) = 338.5630140290050 → 339;
// a = 1, b = 3: W(3) = 1.0499088949640400 → 2; a = 5, b = 1: 5·W(1/5) =
// 0.8445798674955478 → 1 (less than one step); b = ∞ or NaN (no noise):
// the cap.
func TestLocItersProof(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		cap  int
		want int
	}{
		{100, 1e4, 100000, 339},
		{100, 1e4, 300, 300},
		{1, 3, 10, 2},
		{5, 1, 10, 1},
		{5, math.Inf(1), 77, 77},
		{5, math.NaN(), 77, 77},
	} {
		t.Run(fmt.Sprintf("a=%g b=%g cap=%d", c.a, c.b, c.cap), func(t *testing.T) {
			if got := locItersProof(c.a, c.b, c.cap); got != c.want {
				t.Errorf("locItersProof(%g, %g, %d) = %d, want %d", c.a, c.b, c.cap, got, c.want)
			}
		})
	}
}
