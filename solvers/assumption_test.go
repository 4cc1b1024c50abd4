package solvers

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestAssumptionConstants: under AssumeNoncentral the one-pass
// prescriptions read Constants.Noncentral where they read r̃_k (C scales
// with it: C = r·(εn/√(dT))^{1/k} for acsa at a fixed T), under
// AssumeCoordinatewise the proof's bound of "lem: comparing assumptions"
// 2(L^k + d^{k/2}γ_k)^{1/k}; missing or infinite constants are refused
// naming the assumption or k; the localized methods refuse both; an unknown
// name is refused.
func TestAssumptionConstants(t *testing.T) {
	const d, n = 4, 10000
	c := Constants{D: 2, Beta: 1, Lf: math.Inf(1), Moment: func(k float64) float64 { return 10 },
		Noncentral: func(k float64) float64 { return 3 }, Coord: func(k float64) float64 { return 0.5 }, GradSup: 1.5}
	p := &constProblem{d: d, c: c}
	base := Config{Eps: 1, K: 2, Iters: 5}
	clip := func(a Assumption) float64 {
		cfg := base
		cfg.Assumption = a
		pr, err := ACSA{}.Prescribe(p, n, cfg)
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		return pr.Clip
	}
	scale := math.Pow(1*n/math.Sqrt(d*5), 0.5) // (εn/√(dT))^{1/k}
	// 2(L² + d·γ₂)^{1/2} with L = 1.5, γ₂^{1/2} = 0.5: 2·√(2.25 + 4·0.25).
	coord := 2 * math.Sqrt(2.25+1)
	for _, tc := range []struct {
		a    Assumption
		want float64
	}{{"", 10}, {AssumeTilde, 10}, {AssumeNoncentral, 3}, {AssumeCoordinatewise, coord}} {
		t.Run(fmt.Sprintf("%q", tc.a), func(t *testing.T) {
			if got := clip(tc.a); math.Abs(got-tc.want*scale) > 1e-12*got {
				t.Errorf("%q: C = %g, want %g·%g", tc.a, got, tc.want, scale)
			}
		})
	}
	// L unknown: the assumption's own L ≤ √d·γ_k^{1/k}, 2^{3/2}·√d·γ₂^{1/2}.
	if got := rkFromCoord(2, d, 0.5, math.NaN()); math.Abs(got-math.Pow(2, 1.5)*2*0.5) > 1e-15 {
		t.Errorf("rkFromCoord with L unknown = %g", got)
	}
	refusals := []struct {
		c     Constants
		a     Assumption
		field string
	}{
		{Constants{D: 2, Beta: 1, Moment: c.Moment}, AssumeNoncentral, "assumption"},
		{Constants{D: 2, Beta: 1, Moment: c.Moment, Noncentral: func(float64) float64 { return math.NaN() }}, AssumeNoncentral, "assumption"},
		{Constants{D: 2, Beta: 1, Moment: c.Moment, Noncentral: func(float64) float64 { return math.Inf(1) }}, AssumeNoncentral, "k"},
		{Constants{D: 2, Beta: 1, Moment: c.Moment}, AssumeCoordinatewise, "assumption"},
		{c, "central", "assumption"},
	}
	for _, r := range refusals {
		t.Run(fmt.Sprintf("%q on %s", r.a, r.field), func(t *testing.T) {
			cfg := Config{Eps: 1, K: 2, Assumption: r.a}
			_, err := ACSA{}.Prescribe(&constProblem{d: d, c: r.c}, n, cfg)
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != r.field {
				t.Errorf("%q: %v, want a ConfigError on %s", r.a, err, r.field)
			}
		})
	}
	for _, s := range []Solver{Localized{}, LocalizedSC{}} {
		t.Run(s.Name(), func(t *testing.T) {
			cc := c
			cc.Mu = 1
			_, err := s.Prescribe(&constProblem{d: d, c: cc}, 1024, Config{Eps: 1, K: 2, Assumption: AssumeNoncentral})
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != "assumption" {
				t.Errorf("%s under noncentral: %v", s.Name(), err)
			}
		})
	}
}

// TestShuffleEpsPrescription: with a shuffle oracle, acsa's T and C are its
// zCDP formulas at ε̃ = ε/ln(d/δ) — here compared with the same solver's
// zCDP prescription at ε̃ — and the note says so.
func TestShuffleEpsPrescription(t *testing.T) {
	const d, n, delta = 10, 20000, 1e-6
	p := &constProblem{d: d, c: Constants{D: 2, Beta: 3, Lf: math.Inf(1), Moment: func(float64) float64 { return 5 }}}
	sh, err := ACSA{}.Prescribe(p, n, Config{Eps: 2, K: 2, Oracle: "shuffle-clip", Delta: delta})
	if err != nil {
		t.Fatal(err)
	}
	et := 2 / math.Log(d/delta)
	z, err := ACSA{}.Prescribe(p, n, Config{Eps: et, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sh.Iters != z.Iters || math.Abs(sh.Clip-z.Clip) > 1e-12*z.Clip {
		t.Errorf("shuffle T, C = %d, %g; zCDP at ε̃ = %g: %d, %g", sh.Iters, sh.Clip, et, z.Iters, z.Clip)
	}
	found := false
	for _, n := range sh.Notes {
		found = found || strings.Contains(n, "ε̃ = ε/ln(d/δ)")
	}
	if !found {
		t.Errorf("no note on ε̃: %v", sh.Notes)
	}
	// Each shuffle oracle's note names the statement behind its ε̃: lem:
	// pvec for the ℓ2 one, prop: sdp bias var for the coordinate-wise one,
	// whose T and C are the same.
	for o, want := range map[string]string{"shuffle-clip": "lem: pvec", "shuffle-coordinate": "prop: sdp bias var"} {
		pr, err := ACSA{}.Prescribe(p, n, Config{Eps: 2, K: 2, Oracle: o, Delta: delta})
		if err != nil {
			t.Fatal(err)
		}
		names := 0
		for _, n := range pr.Notes {
			if strings.Contains(n, "ε̃ = ε/ln(d/δ)") && strings.Contains(n, want) {
				names++
			}
		}
		if names != 1 || pr.Iters != sh.Iters || pr.Clip != sh.Clip {
			t.Errorf("%s: T, C = %d, %g (want %d, %g), notes %v lack %q", o, pr.Iters, pr.Clip, sh.Iters, sh.Clip, pr.Notes, want)
		}
	}
}
