package cli

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/theory"
)

// empiricalOut is the "empirical" block of `dpso moments --json`, with the
// r̃_k it is computed from.
type empiricalOut struct {
	Moments []struct {
		K     float64
		Value *float64
	}
	Empirical *struct {
		Symbol  string
		K       float64
		N, M, L int
		Value   *float64
		Lower   *float64
		Stderr  *float64
		Exact   bool
		Method  string
	}
}

// TestMomentsEmpirical: dpso moments shows the empirical moment of "lem:
// empirical moments" that the class's localized theorem reads, at the
// resolved n: R̃_{2k,n} exactly on hinge-t (λ₂ = 0: r̃_2k·√(1 − 2^−l),
// l = ⌊log₂ n⌋), R̃_{2k,n/4} bracketed for hinge-t's strongly convex class
// (λ₂ > 0), and nothing on a smooth class (linreg-t).
func TestMomentsEmpirical(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		class theory.Class
		sym   string
		exact bool
		row   string // the table's row starts so
	}{
		{"hinge-t exact", []string{"--scenario", "hinge-t"}, theory.NonsmoothConvex, "R̃_{2k,n}", true, "R̃_{2k,n}  "},
		{"hinge-t sc bracket", []string{"--scenario", "hinge-t", "--class", "nonsmooth-sc"}, theory.NonsmoothSC, "R̃_{2k,n/4}", false, "R̃_{2k,n/4}  "},
		{"linreg-t none", []string{"--scenario", "linreg-t"}, "", "", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := dpsoCLI(append(append([]string{"moments"}, tc.args...), "--json")...)
			if code != 0 || errs != "" {
				t.Fatalf("status %d: %s", code, errs)
			}
			var m empiricalOut
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, `"empirical":`) {
				t.Errorf("no empirical key: %s", out)
			}
			_, table, _ := dpsoCLI(append([]string{"moments"}, tc.args...)...)
			if tc.sym == "" {
				if m.Empirical != nil {
					t.Errorf("empirical = %+v, want null for a smooth class", *m.Empirical)
				}
				if strings.Contains(table, "R̃_{2k") || strings.Contains(table, "empirical moment") {
					t.Errorf("table shows an empirical moment for a smooth class:\n%s", table)
				}
				return
			}
			e := m.Empirical
			if e == nil {
				t.Fatal("empirical = null")
			}
			s := spec.Spec{Scenario: "hinge-t", Solver: "nonprivate-schedule", Class: tc.class}
			r, err := s.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			n, k := r.Spec.N, r.Spec.K
			wantM := n
			if tc.class == theory.NonsmoothSC {
				wantM = n / 4
			}
			l := int(math.Floor(math.Log2(float64(wantM))))
			if e.Symbol != tc.sym || e.K != 2*k || e.N != n || e.M != wantM || e.L != l || e.Exact != tc.exact {
				t.Errorf("empirical %+v, want %s at 2k = %g, n = %d, m = %d, l = %d, exact %v", *e, tc.sym, 2*k, n, wantM, l, tc.exact)
			}
			var r2k float64
			for _, mo := range m.Moments {
				if mo.K == 2*k && mo.Value != nil {
					r2k = *mo.Value
				}
			}
			up := r2k * math.Sqrt(1-math.Exp2(-float64(l)))
			if r2k == 0 || e.Value == nil || math.Abs(*e.Value-up) > 1e-12*up {
				t.Fatalf("value %v, want r̃_2k·√(1 − 2^−l) = %g (r̃_2k = %g)", e.Value, up, r2k)
			}
			switch {
			case tc.exact && (e.Lower == nil || *e.Lower != *e.Value || !strings.HasPrefix(e.Method, "exact")):
				t.Errorf("exact: lower %v, method %q", e.Lower, e.Method)
			case !tc.exact && (e.Lower == nil || !(*e.Lower < *e.Value) || !(*e.Lower > 0) || !strings.Contains(e.Method, "upper end")):
				t.Errorf("bracket: lower %v, value %g, method %q", e.Lower, *e.Value, e.Method)
			}
			// The table: the row with its order, m, l, value (a bracket lo…hi) and method.
			cell := theory.Sig6.Format(*e.Value)
			if !tc.exact {
				cell = theory.Sig6.Format(*e.Lower) + "…" + cell
			}
			var row string
			for _, line := range strings.Split(table, "\n") {
				if strings.HasPrefix(line, tc.row) {
					row = line
				}
			}
			for _, w := range []string{" " + theory.Sig6.Format(2*k) + " ", " " + theory.FormatCount(wantM) + " ", " " + theory.FormatCount(l) + " ", " " + cell + " ", theory.Cite(e.Method)} {
				if !strings.Contains(row, w) {
					t.Errorf("table row %q lacks %q:\n%s", row, w, table)
				}
			}
			if !strings.Contains(table, "at n = "+theory.FormatCount(n)+":") || !strings.Contains(table, "class "+string(tc.class)) {
				t.Errorf("table does not state n = %d and the class:\n%s", n, table)
			}
		})
	}
}
