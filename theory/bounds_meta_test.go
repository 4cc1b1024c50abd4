package theory

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// What a bound says beside its value: conditions, refused inputs, the
// class's chart bounds and metadata, the dominant term, the JSON shape;
// the test points and helpers are in bounds_test.go.

func TestConditions(t *testing.T) {
	type check struct {
		id       string
		mod      func(*pt)
		contains string
		holds    bool
	}
	checks := []check{
		// P1: T = ⌈min{1·(εn/√d)^(2/9), 1·n^(1/4)}⌉ = ⌈min{10^(2/3), 10}⌉ = ⌈4.6416⌉ = 5 ≤ n.
		{SmoothConvexACSA, func(q *pt) {}, "T = 5)", true},
		// β = 10¹², n = 100, d = 100: (10¹²)^(4/9)·10^(2/9) = 10^5.5556 = 359381.4 →
		// T = 359382 > n = 100 (the other branch is 10⁶·100^(1/4) = 3.2e6).
		{SmoothConvexACSA, func(q *pt) { q.beta, q.n = 1e12, 100 }, "T = 3.5938·10⁵)", false},
		{SmoothSCSGD, func(q *pt) {}, "κ ≤ n/ln n", true},
		// κ = 10⁴ > n/ln n = 10⁴/9.21 = 1085.7.
		{SmoothSCSGD, func(q *pt) { q.beta = 1e4 }, "n/ln n = 1085.7", false},
		{SmoothSCSGD, func(q *pt) { q.beta = 0.5 }, "κ = β/μ ≥ 1", false},
		{PPLProxSGD, func(q *pt) { q.beta = 1e4 }, "κ ≤ n/ln n", false},
		{NonsmoothConvexLocalized, func(q *pt) {}, "ε ≤ √d (ε = 1, √d = 10)", true},
		{NonsmoothConvexLocalized, func(q *pt) { q.eps = 11 }, "ε ≤ √d", false},
		{NonsmoothSCLocalized, func(q *pt) { q.eps = 11 }, "ε ≤ √d", false},
		// ρ = 15²/2 = 112.5 > d = 100.
		{LowerConvex, func(q *pt) { q.eps = 15 }, "ρ = ε²/2 ≤ d (ρ = 112.5", false},
		{LowerConvex, func(q *pt) {}, "n > 7202", true},
		{LowerConvex, func(q *pt) { q.n = 7202 }, "n > 7202", false},
		{LowerSC, func(q *pt) { q.d = 39 }, "d ≥ 40", false},
		{LowerSC, func(q *pt) {}, "d ≥ 40", true},
		{PriorKLZ21Convex, func(q *pt) {}, "ε ≈ 1", true},
		{PriorKLZ21Convex, func(q *pt) { q.eps = 3 }, "ε ≈ 1", false},
		{PriorKLZ21SC, func(q *pt) { q.kf = math.Inf(1) }, "κ_f < ∞", false},
		{PriorLipschitzConvex, func(q *pt) {}, "L_f < ∞", true},
	}
	for _, c := range checks {
		t.Run(fmt.Sprintf("%s: %s holds=%v", c.id, c.contains, c.holds), func(t *testing.T) {
			q := P1
			c.mod(&q)
			b := mustEval(t, c.id, q.params())
			found := false
			for _, cd := range b.Conditions {
				if strings.Contains(cd.Text, c.contains) {
					found = true
					if cd.Holds != c.holds {
						t.Errorf("%s %q: holds = %v, want %v", c.id, cd.Text, cd.Holds, c.holds)
					}
				}
			}
			if !found {
				t.Errorf("%s: no condition containing %q in %+v", c.id, c.contains, b.Conditions)
			}
			// The value is computed by the formula whether or not conditions hold.
			if want := direct(c.id, q); relErr(b.Value, want) > 1e-12 {
				t.Errorf("%s: value %g, formula %g", c.id, b.Value, want)
			}
		})
	}
}

func TestMissingAndInvalidInputs(t *testing.T) {
	p := P1.params()
	p.Beta, p.R2 = math.NaN(), math.NaN()
	_, err := Evaluate(SmoothConvexACSA, p)
	var me *MissingError
	if !errors.As(err, &me) || !slices.Equal(me.Missing, []string{"r2", "beta"}) {
		t.Fatalf("missing β, r̃₂: err %v", err)
	}
	if got := err.Error(); got != "smooth-convex-acsa needs r2 (r̃₂), beta (β)" {
		t.Errorf("message %q", got)
	}
	// Every bound that needs neither β nor r̃₂ evaluates; every other one
	// names what is missing.
	evaluated := 0
	for _, id := range IDs() {
		needs := slices.Contains(Needs(id), "beta") || slices.Contains(Needs(id), "r2")
		_, err := Evaluate(id, p)
		var me *MissingError
		switch {
		case needs && !errors.As(err, &me):
			t.Errorf("%s needs β or r̃₂: error %v, want a *MissingError", id, err)
		case !needs && err != nil:
			t.Errorf("%s needs neither β nor r̃₂: %v", id, err)
		case !needs:
			evaluated++
		}
	}
	// 6 chart bounds and 10 variants (localized-emp ×2, asymptotic ×4,
	// lower-*-nc ×2, lower-*-coord ×2) need neither β nor r̃₂.
	if evaluated != 16 {
		t.Errorf("%d bounds evaluated without β, r̃₂, want 16", evaluated)
	}
	for _, id := range IDs() {
		if _, err := Evaluate(id, NewParams()); !errors.As(err, &me) {
			t.Errorf("%s with nothing given: %v, want a *MissingError", id, err)
		}
	}
	invalid := []struct {
		mod   func(*Params)
		field string
		msg   string
	}{
		{func(p *Params) { p.N = 0.5 }, "n", "n (n) = 0.5 is not in [1, ∞)"},
		{func(p *Params) { p.Eps = 0 }, "eps", "eps (ε) = 0 is not in (0, ∞)"},
		{func(p *Params) { p.Eps = math.Inf(1) }, "eps", "eps (ε) = ∞ is not in (0, ∞)"},
		{func(p *Params) { p.K = 1.5 }, "k", "k (k) = 1.5 is not in [2, ∞]"},
		{func(p *Params) { p.Dim = 0 }, "d", "d (d) = 0 is not in [1, ∞)"},
		{func(p *Params) { p.Diam = -1 }, "diam", "diam (D) = −1 is not in (0, ∞)"},
		{func(p *Params) { p.Rk = 0 }, "rk", "rk (r̃_k) = 0 is not in (0, ∞]"},
		{func(p *Params) { p.Beta = -1 }, "beta", "beta (β) = −1 is not in [0, ∞)"},
		{func(p *Params) { p.Mu = 0 }, "mu", "mu (μ) = 0 is not in (0, ∞)"},
		{func(p *Params) { p.KappaF = 0.5 }, "kappa-f", "kappa-f (κ_f) = 0.5 is not in [1, ∞]"},
		{func(p *Params) { p.Lf = -2 }, "lf", "lf (L_f) = −2 is not in (0, ∞]"},
	}
	for _, c := range invalid {
		t.Run(c.msg, func(t *testing.T) {
			p := P1.params()
			c.mod(&p)
			var pe *ParamError
			err := p.Validate()
			if !errors.As(err, &pe) || pe.Field != c.field || err.Error() != c.msg {
				t.Errorf("Validate: %v, want %q", err, c.msg)
			}
			// Some bound that needs the field refuses it.
			refused := false
			for _, id := range IDs() {
				if _, err := Evaluate(id, p); slices.Contains(Needs(id), c.field) && errors.As(err, &pe) && pe.Field == c.field {
					refused = true
				}
			}
			if !refused {
				t.Errorf("no bound that needs %s refuses it", c.field)
			}
		})
	}
	if _, err := Evaluate("no-such-bound", P1.params()); err == nil || !strings.Contains(err.Error(), "unknown bound id") {
		t.Errorf("unknown id: %v", err)
	}
	if Needs("no-such-bound") != nil || ForClass("no-such-class") != nil {
		t.Error("unknown id/class gave a list")
	}
}

func TestForClassAndMetadata(t *testing.T) {
	want := map[Class][]string{
		SmoothConvex:    {"smooth-convex-acsa", "lower-convex", "prior-klz21-convex", "prior-lipschitz-convex"},
		SmoothSC:        {"smooth-sc-sgd", "lower-sc", "prior-klz21-sc", "prior-lipschitz-sc"},
		NonsmoothConvex: {"nonsmooth-convex-localized", "lower-convex", "prior-lipschitz-convex"},
		NonsmoothSC:     {"nonsmooth-sc-localized", "lower-sc", "prior-lipschitz-sc"},
		PPL:             {"ppl-prox-sgd", "lower-sc", "prior-lipschitz-sc"},
	}
	for _, c := range Classes {
		t.Run(string(c), func(t *testing.T) {
			if got := ForClass(c); !slices.Equal(got, want[c]) {
				t.Errorf("ForClass(%s) = %v, want %v", c, got, want[c])
			}
			for i, id := range ForClass(c) {
				b := mustEval(t, id, P1.params())
				if !slices.Contains(b.Classes, c) {
					t.Errorf("%s.Classes = %v lacks %s", id, b.Classes, c)
				}
				wantKind := Prior
				switch {
				case i == 0:
					wantKind = Upper
				case i == 1:
					wantKind = Lower
				}
				if b.Kind != wantKind {
					t.Errorf("%s kind %s, want %s", id, b.Kind, wantKind)
				}
			}
		})
	}
	ids := IDs()
	if len(ids) != 28 {
		t.Errorf("%d ids", len(ids))
	}
	for _, id := range ids {
		b := mustEval(t, id, P1.params())
		if b.Source == "" || b.Formula == "" || b.Label == "" || b.Title == "" || b.Dominant == "" || len(b.Terms) == 0 {
			t.Errorf("%s: incomplete %+v", id, b)
		}
		if !strings.Contains(b.Source, "["+b.Label+"]") {
			t.Errorf("%s: source %q does not cite its label %q", id, b.Source, b.Label)
		}
	}
}

// TestDominantIsLargestTerm: every bound with terms names its dominant
// term, exactly one of its terms, and no term is larger; a bound without
// terms names none.
func TestDominantIsLargestTerm(t *testing.T) {
	named := 0
	for _, q := range grid() {
		for _, id := range IDs() {
			b := mustEval(t, id, q.params())
			if len(b.Terms) == 0 {
				if b.Dominant != "" {
					t.Errorf("%s: no terms, dominant %q", id, b.Dominant)
				}
				continue
			}
			i := slices.IndexFunc(b.Terms, func(tm Term) bool { return tm.Name == b.Dominant })
			if i < 0 || slices.IndexFunc(b.Terms[i+1:], func(tm Term) bool { return tm.Name == b.Dominant }) >= 0 {
				t.Errorf("%s: dominant %q is not the name of exactly one of its terms %+v", id, b.Dominant, b.Terms)
				continue
			}
			named++
			for _, tm := range b.Terms {
				if tm.Value > b.Terms[i].Value {
					t.Errorf("%s: dominant %q (%g) < %q (%g)", id, b.Dominant, b.Terms[i].Value, tm.Name, tm.Value)
				}
			}
		}
	}
	if named < len(IDs()) {
		t.Errorf("only %d bounds over the grid named a dominant term", named)
	}
}

func TestBoundJSONShape(t *testing.T) {
	b := mustEval(t, SmoothSCSGD, P1.params())
	js, m, keys := jsonKeys(t, b)
	if want := []string{"conditions", "dominant", "formula", "id", "kind", "meaning", "rate_n", "source", "source_pdf", "terms", "value"}; !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	if m["meaning"] != RateMeaning {
		t.Errorf("meaning %v, want %q", m["meaning"], RateMeaning)
	}
	terms := m["terms"].([]any)
	if len(terms) != 2 {
		t.Fatalf("terms %v", terms)
	}
	for _, tm := range terms {
		tk := tm.(map[string]any)
		if len(tk) != 2 || tk["name"] == nil || tk["value"] == nil {
			t.Errorf("term %v", tk)
		}
	}
	cd := m["conditions"].([]any)[0].(map[string]any)
	if len(cd) != 2 || cd["text"] == nil || cd["holds"] == nil {
		t.Errorf("condition %v", cd)
	}
	var back Bound
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Value != b.Value || back.RateN != b.RateN || back.ID != b.ID || len(back.Terms) != 2 || back.Terms[1].Value != b.Terms[1].Value {
		t.Errorf("round trip %+v, want %+v", back, b)
	}
}
