package scenarios

import (
	"context"
	"math"
	"strings"
	"testing"

	"dpso/solvers"
)

// sampleOf is the exact law "uniform on rows" as a sample risk: F̂ and F̂*
// minimized on it (user data's kind, no Monte Carlo error).
func sampleOf(t *testing.T, m *model, rows [][]float64) *sampleRisk {
	t.Helper()
	data := &solvers.Matrix{Dim: len(rows[0])}
	for _, r := range rows {
		data.Data = append(data.Data, r...)
	}
	s, err := newSampleRisk(context.Background(), m.obj, m.reg, data, m.radius, Empirical, "test rows", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The clipped fixed point by hand, on laws with four equally likely
// points (so that the sample is the law): mean estimation of
// x ∈ {0, 0, 0, 4} (p = ¼, atom A = 4, μ = 1) and the squared loss
// ½(w − y)² with a = 1 and the same four y. F̂(w) − F̂* = ½(w − 1)² in
// both (F̂* at the mean, 1). At C = 1 the clipped mean gradient on
// w ∈ [0, 1] is ¾·w − ¼·1 (the far point's pull is clipped to 1), zero at
// w_C = ⅓: bias ½(⅔)² = 2/9. At C = ½, on w ∈ [0, ½]: ¾w − ¼·½ = 0 at
// w_C = ⅙: bias ½(⅚)² = 25/72. At C ≥ μ(R + A) = 5 nothing is clipped
// anywhere on W: 0. The mean-estimation ball has R = p·A = 1, so its
// minimizer lies on the sphere; the regression's ball is larger (R = 10),
// so its minimizer is interior. The two-point law's closed form (the hard
// instance's formula) must agree with the generic minimization on the rows.
func TestClipBiasByHand(t *testing.T) {
	mean := &model{obj: &meanQuad{d: 1, mu: 1}, d: 1, sdim: 1, radius: 1}
	law := &twoPointLaw{p: 0.25, atom: []float64{4}}
	meanRows := [][]float64{{0}, {0}, {0}, {4}}
	reg := &model{obj: &glm{loss: squaredLoss{}, d: 1}, d: 1, sdim: 2, radius: 10}
	regRows := [][]float64{{1, 0}, {1, 0}, {1, 0}, {1, 4}}
	for _, c := range []struct {
		name string
		c    float64
		want float64
	}{
		{"C=1", 1, 2.0 / 9}, {"C=0.5", 0.5, 25.0 / 72}, {"C=5 above the support", 5, 0}, {"C=100", 100, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			closed := law.clipBias(mean, c.c)
			if math.Abs(closed.Excess-c.want) > 1e-12 {
				t.Errorf("two-point closed form %v, want %v", closed.Excess, c.want)
			}
			for _, tc := range []struct {
				name string
				m    *model
				rows [][]float64
			}{{"mean on the rows", mean, meanRows}, {"squared loss on the rows", reg, regRows}} {
				got, err := clipBiasOn(context.Background(), tc.m, sampleOf(t, tc.m, tc.rows), c.c)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(got.Excess-c.want) > 1e-8 || got.SE != 0 {
					t.Errorf("%s: %v ± %v, want %v", tc.name, got.Excess, got.SE, c.want)
				}
			}
		})
	}
}

// clippedSmoothed's gradient is the clipped per-sample gradient: for every
// loss, at points where its smoothing does not matter (τ → 0 is checked
// through the smooth losses, and the non-smooth ones away from their
// kinks), −∇h_C equals clip_C(∇f) computed from objective.grad, and h_C's
// finite differences agree with it (the potential is the field's).
func TestClippedPotentialGradient(t *testing.T) {
	r := testRand(5)
	for _, tc := range testObjectives {
		o := tc.obj
		if o.inLossL2() != 0 {
			continue // ClipBias refuses an in-loss ℓ2 term
		}
		d := o.dim()
		kind := tc.name
		for trial := range 50 {
			x, w := tc.x(r, d), make([]float64, d)
			for j := range x[:d] {
				x[j] *= 2
			}
			for j := range w {
				w[j] = r.NormFloat64()
			}
			full := make([]float64, d)
			o.grad(full, w, x)
			norm := math.Sqrt(sqnorm(full))
			c := norm * (0.2 + 1.2*r.Float64()) // clipped about two times in three
			want := make([]float64, d)
			for j := range want {
				want[j] = full[j] * clipWeight(c, norm)
			}
			const tau = 1e-9
			g := make([]float64, d)
			o.clippedSmoothed(w, x, c, tau, 1, g)
			for j := range g {
				if math.Abs(g[j]-want[j]) > 1e-6*(1+norm) {
					t.Fatalf("%v trial %d: ∇h_C = %v, clip_C(∇f) = %v", kind, trial, g, want)
				}
			}
			const h = 1e-6
			for j := range w {
				wp, wm := append([]float64(nil), w...), append([]float64(nil), w...)
				wp[j] += h
				wm[j] -= h
				fd := (o.clippedSmoothed(wp, x, c, tau, 1, make([]float64, d)) - o.clippedSmoothed(wm, x, c, tau, 1, make([]float64, d))) / (2 * h)
				if math.Abs(fd-g[j]) > 1e-4*(1+norm) {
					t.Fatalf("%v trial %d coordinate %d: finite difference %v, gradient %v", kind, trial, j, fd, g[j])
				}
			}
		}
	}
}

// On linear regression with symmetric noise the clipped fixed point is
// w* at every C (ClipBias's symmetry case), and the generic minimization
// says the same on a sample symmetrized by reflecting each label about
// ⟨w*, a⟩: there the clipped mean gradient at w* is exactly 0.
func TestClipBiasSymmetric(t *testing.T) {
	in := build(t, ProblemDef{Scenario: LinRegT, D: 4, Tail: 6})
	for _, c := range []float64{1e-3, 0.5, 10} {
		b, err := in.ClipBias(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if b.Excess != 0 || b.SE != 0 || !strings.Contains(b.Method, "symmetric") {
			t.Errorf("C = %v: %+v, want exactly 0 by symmetry", c, b)
		}
	}
	m := in.m
	ws := m.symAt
	src := &streamSamples{n: 2000, sdim: m.sdim, key: solvers.StreamKey(solvers.Seeded, 0, 0, "test"), draw: m.draw}
	data, err := src.materialize(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for i := range data.Len() {
		x := append([]float64(nil), data.Row(i)...)
		refl := append([]float64(nil), x...)
		refl[m.d] = 2*dot(ws, x[:m.d]) - x[m.d]
		rows = append(rows, x, refl)
	}
	s := sampleOf(t, m, rows)
	for _, c := range []float64{0.05, 1, 20} {
		b, err := clipBiasOn(context.Background(), m, s, c)
		if err != nil {
			t.Fatal(err)
		}
		if b.Excess > 1e-9 {
			t.Errorf("symmetrized sample, C = %v: bias %v, want 0", c, b.Excess)
		}
	}
}

// Where the law is not symmetric the bias is positive. Contaminated data
// in closed form: the clean part is symmetric about the regression's w*
// (so its clipped mean gradient vanishes there), and an outlier's two
// labels ±M give residuals M(⟨w, u⟩ ∓ 1) of opposite signs whose
// gradients, norms M²(1 ∓ ⟨w, u⟩) ≥ M²(1 − ‖w*‖) at w = w*, are both
// clipped to C·(±u) for C below that and cancel: so w_C = w* exactly, and
// the bias is F(w*) − F* = ½h‖w* − c‖², the outliers' pull that clipping
// removes (c = (1 − η)w*/h the population's optimum). The evaluation
// sample's estimate must agree within 4 standard errors; at C above every
// gradient on W it is 0. Then the lower bound's mean instance in closed
// form. Affine-hard's is 0 (its one atom keeps its direction); an ℓ2 term
// in the loss has no potential (NaN); C = ∞ is 0; C ≤ 0 is NaN.
func TestClipBiasCases(t *testing.T) {
	ctx := context.Background()
	const d, wn = 3, 0.5
	cont := build(t, ProblemDef{Scenario: Contaminated, D: d, Params: map[string]float64{"wstar": wn}})
	ws := make([]float64, d)
	for j := range ws {
		ws[j] = wn / math.Sqrt(d)
	}
	exact, _ := cont.Excess(ws)
	for _, c := range []float64{0.3, 100} {
		b, err := cont.ClipBias(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if !(b.SE > 0) || math.Abs(b.Excess-exact) > 4*b.SE || !strings.Contains(b.Method, "evaluation sample") {
			t.Errorf("contaminated at C = %v: %+v, want ½h‖w* − c‖² = %v within 4 s.e.", c, b, exact)
		}
	}
	if b, _ := cont.ClipBias(ctx, 1e9); b.Excess != 0 {
		t.Errorf("contaminated at C = 10⁹, above every gradient: %+v, want 0", b)
	}

	hard := build(t, ProblemDef{Scenario: MeanHard, N: 1000})
	law := hard.m.twoPoint
	a := math.Sqrt(sqnorm(law.atom))
	mu, R, p := hard.m.obj.(*meanQuad).mu, hard.m.radius, law.p
	c := mu * a / 10
	// g(t) = (1 − p)μt − pC on 0 ≤ μt ≤ C: root t = pC/((1 − p)μ), if μt ≤ C there.
	tc := p * c / ((1 - p) * mu)
	if !(mu*tc <= c && tc < R) {
		t.Fatalf("test case outside its formula's range: t_C = %v, R = %v", tc, R)
	}
	b, err := hard.ClipBias(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if want := mu / 2 * (R - tc) * (R - tc); math.Abs(b.Excess-want) > 1e-12*want {
		t.Errorf("mean-hard at C = μA/10: %v, want %v", b.Excess, want)
	}
	if b, _ := hard.ClipBias(ctx, mu*(R+a)); b.Excess != 0 {
		t.Errorf("mean-hard at C = μ(R + A), above every gradient on W: %v, want 0", b.Excess)
	}

	aff := build(t, ProblemDef{Scenario: AffineHard, N: 1000})
	if b, _ := aff.ClipBias(ctx, 1e-3); b.Excess != 0 {
		t.Errorf("affine-hard: %+v, want 0", b)
	}
	l2 := 0.1
	lr := build(t, ProblemDef{Scenario: LogRegT, Class: "smooth-sc", D: 3, Lambda2: &l2})
	if b, _ := lr.ClipBias(ctx, 1); !math.IsNaN(b.Excess) || !strings.Contains(b.Method, "ℓ2") {
		t.Errorf("logreg-t with λ₂ in the loss: %+v, want NaN with the reason", b)
	}
	for _, c := range []struct {
		c    float64
		zero bool
	}{{math.Inf(1), true}, {0, false}, {-1, false}, {math.NaN(), false}} {
		b, _ := cont.ClipBias(ctx, c.c)
		if c.zero != (b.Excess == 0) || !c.zero && !math.IsNaN(b.Excess) {
			t.Errorf("C = %v: %+v", c.c, b)
		}
	}
}
