package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// TestDPSGDStepRef: dp-sgd's reference step min{1/β, D/(σ_g√T)}, σ_g² =
// min(C, r)²/B + d(zC/B)², at β = 4, D = 2, d = 3, by hand:
//   - C = 16 above r = 8, B = 20, z = 1.5, T = 125: σ_g² = 64/20 + 3·(24/20)²
//     = 3.2 + 4.32 = 7.52, D/(σ_g√T) = 2/√940 = 0.0652328 (below 1/β = ¼);
//   - r unknown (+Inf), the same point: σ_g² = 256/20 + 4.32 = 17.12, 2/√2140
//     = 0.0432338;
//   - C = 2, B = 20, z = 1.5, T = 125: σ_g² = 0.2 + 3·0.15² = 0.2675,
//     2/√33.4375 = 0.346 above 1/β: ¼;
//   - C = 8 at B = 1600, z = 1, T = 8 (a large batch's small noise): σ_g² =
//     0.04 + 0.000075, 2/√0.3206 = 3.53: ¼.
func TestDPSGDStepRef(t *testing.T) {
	for _, c := range []struct {
		r, C, z float64
		B, T    int
		want    float64
	}{
		{8, 16, 1.5, 20, 125, 2 / math.Sqrt(940)},
		{math.Inf(1), 16, 1.5, 20, 125, 2 / math.Sqrt(2140)},
		{8, 2, 1.5, 20, 125, 0.25},
		{8, 8, 1, 1600, 8, 0.25},
	} {
		t.Run(fmt.Sprintf("C=%g,r=%g,B=%d", c.C, c.r, c.B), func(t *testing.T) {
			if got := dpsgdStepRef(4, 2, c.r, c.C, c.z, 3, c.B, c.T); math.Abs(got-c.want) > 1e-12*c.want {
				t.Errorf("dpsgdStepRef = %.9g, want %.9g", got, c.want)
			}
		})
	}
}

// TestDefaultDPSGDSteps: dp-sgd's default step axis at each grid point is
// that point's reference step times 4^j, j = −3…0 (TuneGrid), with the
// point's z the search's: a search built by hand with z = 1, 2, 0.8, 1.6 at
// the four (B, T) of epochs {1, 5} and batches {100, 1000} on 4000 rows
// (T = ⌈E·4000/B⌉ = 40, 200, 4, 20), the reference written out here.
func TestDefaultDPSGDSteps(t *testing.T) {
	s := tuneSpec
	s.Solver, s.Class = "dp-sgd", theory.SmoothConvex
	r := resolve(t, s)
	g := TuneGrid{Clip: []float64{0.5, 4, 40}, Epochs: []float64{1, 5}, Batch: []int{100, 1000}}
	_, ds, err := resolveTune(r, TuneSpec{Grid: g})
	if err != nil {
		t.Fatal(err)
	}
	in, err := scenarios.Build(context.Background(), r.Problem)
	if err != nil {
		t.Fatal(err)
	}
	z := map[[2]int]float64{{100, 40}: 1, {100, 200}: 2, {1000, 4}: 0.8, {1000, 20}: 1.6}
	search := &DPSGDSearch{}
	for bt, zz := range z {
		search.Mechanisms = append(search.Mechanisms, DPSGDMechanism{Batch: bt[0], Steps: bt[1], Q: float64(bt[0]) / 4000, Z: zz})
	}
	grid, _, err := gridFor(g, in, ds[0], r.Problem.N, r.Config(0, nil), search)
	if err != nil {
		t.Fatal(err)
	}
	c := in.Constants()
	r2 := c.R(2)
	want := map[string][]float64{}
	for _, cd := range grid {
		T := int(math.Ceil(cd.Epochs * 4000 / float64(cd.Batch)))
		zz, ok := z[[2]int{cd.Batch, T}]
		if !ok {
			t.Fatalf("point %+v: T = %d is not the search's", cd, T)
		}
		B := float64(cd.Batch)
		m := math.Min(cd.Clip, r2)
		v := m*m/B + 3*(zz*cd.Clip/B)*(zz*cd.Clip/B)
		ref := math.Min(1/c.Beta, c.D/math.Sqrt(v*float64(T)))
		k := fmt.Sprint(cd.Clip, cd.Epochs, cd.Batch)
		want[k] = append(want[k], cd.Step/ref)
	}
	if len(want) != 12 {
		t.Fatalf("%d (C, E, B) points, want 12", len(want))
	}
	for k, fs := range want {
		if len(fs) != 4 {
			t.Errorf("%s: %d steps, want 4", k, len(fs))
			continue
		}
		for i, f := range []float64{1.0 / 64, 1.0 / 16, 1.0 / 4, 1} {
			if math.Abs(fs[i]-f) > 1e-12 {
				t.Errorf("%s: steps over the reference %v, want 1/64, 1/16, 1/4, 1", k, fs)
				break
			}
		}
	}
}

// TestDefaultClipAxis: a solver's default clip axis, as TuneGrid states
// it, written out here, not read from defaultAxes — dp-sgd's r̃₂·4^j, j =
// −3…1 (r̃₂/64 to 4r̃₂, five points, whatever T); acsa's the C whose step
// noise has norm σ√d = r̃₂·2^j, j = −10…−5: C = r̃₂·2^j·sε/(2√d) with s
// = ⌊n/T⌋. By hand, on the scenario's n = 4000 rows, d = 3, ε = 1: T =
// 10 gives s = 400 and C/r̃₂ = 2^j·200/√3 = 2^j·115.4700538, so 0.1127637245
// (j = −10) to 3.6084391824 (j = −5); T = 20 halves s, and every C.
func TestDefaultClipAxis(t *testing.T) {
	for _, c := range []struct {
		name, solver string
		iters        int
		want         []float64
	}{
		{"acsa/T=10", "acsa", 10, []float64{0.1127637245, 0.2255274489, 0.4510548978, 0.9021097956, 1.8042195912, 3.6084391824}},
		{"acsa/T=20", "acsa", 20, []float64{0.0563818622, 0.1127637245, 0.2255274489, 0.4510548978, 0.9021097956, 1.8042195912}},
		{"dp-sgd", "dp-sgd", 0, []float64{1.0 / 64, 1.0 / 16, 1.0 / 4, 1, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := tuneSpec
			s.Solver, s.Class = c.solver, theory.SmoothConvex
			r := resolve(t, s)
			// Every other axis one value: the clip axis alone is the default's.
			g := TuneGrid{Step: []float64{0.1}, Iters: []int{c.iters}}
			if c.solver == "dp-sgd" {
				g = TuneGrid{Step: []float64{0.1}, Epochs: []float64{1}, Batch: []int{100}}
			}
			ts, ds, err := resolveTune(r, TuneSpec{Grid: g})
			if err != nil {
				t.Fatal(err)
			}
			in, err := scenarios.Build(context.Background(), r.Problem)
			if err != nil {
				t.Fatal(err)
			}
			cfg := r.Config(0, nil)
			if r.Problem.N != 4000 || in.Dim() != 3 || cfg.Eps != 1 {
				t.Fatalf("n = %d, d = %d, ε = %g: the values by hand are for 4000, 3, 1", r.Problem.N, in.Dim(), cfg.Eps)
			}
			r2 := in.Constants().R(2)
			grid, _, err := gridFor(ts.Grid, in, ds[0], r.Problem.N, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			for _, cd := range grid {
				got = append(got, cd.Clip/r2)
			}
			slices.Sort(got)
			got = slices.Compact(got)
			if len(got) != len(c.want) {
				t.Fatalf("clip axis C/r̃₂ = %v, want %v", got, c.want)
			}
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > 1e-9*c.want[i] {
					t.Errorf("clip axis C/r̃₂ = %v, want %v", got, c.want)
					break
				}
			}
		})
	}
}

// TestNoiseClip: acsa's step on s rows at the clip noiseClip(ν, s, d, ε)
// has noise of norm σ√d = ν, σ = 2C/(sε) the per-coordinate noise its
// prescription reports; by hand, ν = 1, s = 216, d = 3, ε = 0.5 gives C =
// 216·0.5/(2√3) = 31.1769145.
func TestNoiseClip(t *testing.T) {
	if got, want := noiseClip(1, 216, 3, 0.5), 31.1769145362; math.Abs(got-want) > 1e-9*want {
		t.Errorf("noiseClip(1, 216, 3, 0.5) = %.10g, want %.10g", got, want)
	}
	s := tuneSpec
	s.Solver, s.Class = "acsa", theory.SmoothConvex
	r := resolve(t, s)
	in, err := scenarios.Build(context.Background(), r.Problem)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		nu    float64
		iters int
		eps   float64
	}{{0.5, 10, 1}, {3, 7, 0.25}, {0.01, 40, 2}} {
		cfg := r.Config(0, nil)
		cfg.Eps, cfg.Iters, cfg.Step = c.eps, c.iters, 1
		cfg.Clip = noiseClip(c.nu, r.Problem.N/c.iters, in.Dim(), c.eps)
		par, err := (solvers.ACSA{}).Prescribe(in, r.Problem.N, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := par.Sigma * math.Sqrt(float64(in.Dim())); math.Abs(got-c.nu) > 1e-9*c.nu {
			t.Errorf("ν = %g, T = %d, ε = %g: acsa's σ√d = %.10g", c.nu, c.iters, c.eps, got)
		}
	}
}
