package cli

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"dpso/theory"
)

// mapDoc is `dpso bounds --map … --json`.
type mapDoc struct {
	Class, X, Y      string
	Xs, Ys           []float64
	UpperID, LowerID string `json:"-"`
	Fixed            string
	Cells            [][]struct {
		X, Y                float64
		Upper, Lower, Prior *float64
		PriorID             string `json:"prior_id"`
		Best                string
		Gap                 *float64
		ACSAGap             *float64 `json:"acsa_gap"`
	}
}

func mapJSON(t *testing.T, args ...string) mapDoc {
	t.Helper()
	code, out, errs := dpsoCLI(append(append([]string{"bounds"}, args...), "--json")...)
	if code != 0 || errs != "" {
		t.Fatalf("%v: status %d, %s", args, code, errs)
	}
	var m mapDoc
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBoundsMapShape: the text map has, per layer, one row per y value
// with exactly one mark per x value, the axis, the x range, and a legend
// saying what each shade means; all three layers for smooth-convex.
func TestBoundsMapShape(t *testing.T) {
	code, out, errs := dpsoCLI("bounds", "--map", "n,eps", "--map-size", "12x5")
	if code != 0 || errs != "" {
		t.Fatalf("status %d: %s", code, errs)
	}
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "│"); i >= 0 && strings.HasPrefix(strings.TrimSpace(l), "eps=") {
			rows++
			if n := utf8.RuneCountInString(l[i+len("│"):]); n != 12 {
				t.Errorf("row %q has %d cells, want 12", l, n)
			}
		}
	}
	if rows != 3*5 {
		t.Errorf("%d map rows, want 3 layers × 5:\n%s", rows, out)
	}
	for _, want := range []string{
		"Rate map of class smooth-convex over n × eps (log grids, 12 × 5): fixed d = 100, k = 2, diam = 1, beta = 1",
		"r̃₂ = r̃_k = r̃_2k = √d at each cell",
		"█ smooth-convex-acsa is the smaller upper bound  ░ prior work's is",
		"best upper / lower-convex:  ' ' < 2  ░ < 10",
		theory.Cite("rem: affine optimal: ' ' optimal  suboptimal by ░ < 1.5"),
		"n = 100 … 10⁸ (log scale)",
		"min{(n/d)^(1/16), (εn/d^(3/2))^(1/18)}",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("map lacks %q:\n%s", want, out)
		}
	}
	// One layer only; a non-smooth class has no regime layer.
	_, one, _ := dpsoCLI("bounds", "--map", "d,k", "--map-size", "4x3", "--layer", "gap", "--class", "nonsmooth-convex")
	if strings.Count(one, "│") != 3 || strings.Contains(one, "Which upper bound") || !strings.Contains(one, "lower-convex") {
		t.Errorf("--layer gap:\n%s", one)
	}
}

// TestBoundsMapCells: the JSON cells are theory's bounds at each cell's
// parameters: at the Figure-1 setting (k = 2, β = D = 1, r̃ = √d) the
// upper, lower and KLZ21 bounds there, and the regime
// the remark's min{(n/d)^(1/16), (εn/d^(3/2))^(1/18)};
// with the user's own k, d, β, D and moments, theory.Evaluate there.
func TestBoundsMapCells(t *testing.T) {
	m := mapJSON(t, "--map", "n,eps", "--map-size", "7x4")
	if len(m.Cells) != 4 || len(m.Cells[0]) != 7 || m.Xs[0] != 100 || m.Xs[6] != 1e8 || m.Ys[0] != 0.01 || m.Ys[3] != 100 {
		t.Fatalf("grid %v × %v, %d rows", m.Xs, m.Ys, len(m.Cells))
	}
	for _, ij := range [][2]int{{0, 0}, {3, 2}, {6, 3}, {5, 0}} {
		i, j := ij[0], ij[1]
		c := m.Cells[j][i]
		n, eps := m.Xs[i], m.Ys[j]
		p := theory.NewParams() // Figure 1's setting at d = 100: r̃₂ = r̃_k = √d
		p.N, p.Dim, p.Eps, p.K, p.Diam, p.Beta = n, 100, eps, 2, 1, 1
		p.R2, p.Rk, p.R2k, p.Lf = 10, 10, 10, math.Inf(1)
		for _, b := range []struct {
			id  string
			got *float64
		}{{theory.SmoothConvexACSA, c.Upper}, {theory.LowerConvex, c.Lower}, {theory.PriorKLZ21Convex, c.Prior}} {
			want, err := theory.Evaluate(b.id, p)
			if err != nil || b.got == nil || math.Abs(*b.got-want.Value) > 1e-12*want.Value {
				t.Errorf("n = %g, ε = %g: %s = %v, theory %v (%v)", n, eps, b.id, b.got, want.Value, err)
			}
		}
		if g := math.Min(math.Pow(n/100, 1.0/16), math.Pow(eps*n/1000, 1.0/18)); c.ACSAGap == nil || math.Abs(*c.ACSAGap-g) > 1e-11*g {
			t.Errorf("n = %g, ε = %g: regime %v, the remark's %g", n, eps, c.ACSAGap, g)
		}
		if c.X != n || c.Y != eps || c.PriorID != theory.PriorKLZ21Convex || (c.Best == "upper") != (*c.Upper <= *c.Prior) {
			t.Errorf("cell %+v", c)
		}
	}
	// The user's own constants, held fixed while d varies.
	u := mapJSON(t, "--map", "n,d", "--map-size", "3x3", "--k", "4", "--beta", "0.5", "--diam", "3", "--r2", "1", "--rk", "2", "--eps", "0.3")
	c := u.Cells[1][2]
	p := theory.NewParams()
	p.N, p.Dim, p.Eps, p.K, p.Diam, p.Beta, p.R2, p.Rk, p.Lf = u.Xs[2], u.Ys[1], 0.3, 4, 3, 0.5, 1, 2, math.Inf(1)
	want, _ := theory.Evaluate(theory.SmoothConvexACSA, p)
	gap, _ := theory.ACSAGapAt(p)
	if math.Abs(*c.Upper-want.Value) > 1e-12*want.Value || math.Abs(*c.ACSAGap-gap) > 1e-12*gap || !strings.Contains(u.Fixed, "rk = 2") {
		t.Errorf("k = 4 cell %+v, theory %g, gap %g; fixed %q", c, want.Value, gap, u.Fixed)
	}
}

func TestBoundsMapInvalid(t *testing.T) {
	checkInvalid(t, []invalidRun{
		{[]string{"bounds", "--map", "n,n"}, []string{"--map:", "two distinct axes"}},
		{[]string{"bounds", "--map", "n,mu"}, []string{"--map:", "among n, eps, d, k"}},
		{[]string{"bounds", "--map", "n,eps", "--map-x", "0:10"}, []string{"--map-x:", "1 ≤ lo < hi"}},
		{[]string{"bounds", "--map", "k,eps", "--map-x", "1:10"}, []string{"--map-x:", "2 ≤ lo < hi"}},
		{[]string{"bounds", "--map", "n,eps", "--map-y", "1"}, []string{"--map-y:", "lo:hi"}},
		{[]string{"bounds", "--map", "n,eps", "--map-size", "1x5"}, []string{"--map-size:", "[2, 400]"}},
		{[]string{"bounds", "--map", "n,eps", "--layer", "regime", "--class", "smooth-sc"}, []string{"--layer:", "smooth-convex"}},
		{[]string{"bounds", "--map", "n,eps", "--layer", "all-of-it"}, []string{"--layer:", "best, gap, regime, all"}},
		{[]string{"bounds", "--map", "n,eps", "--class", "nonsmooth-convex", "--rk", "1"}, []string{"--map:", "needs --r2k"}},
		{[]string{"bounds", "--map-size", "5x5", "--n", "10"}, []string{"--map-size:", "give --map too"}},
	})
}
