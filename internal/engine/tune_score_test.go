package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	privest "dpso/solvers/estimate"
	"dpso/theory"
)

// scoreData writes n rows of one of the score tests' data sets to a CSV:
//
//   - "t2.5", "t3": y = ⟨a, w*⟩ + ξ, a ∈ R³ with i.i.d. Student-t(ν)
//     entries, w* = (0.5, −0.3, 0.2), ξ ~ Student-t(ν) (squared loss);
//   - "counts": y negative binomial (dispersion 0.45) with mean
//     exp(0.6 + ⟨a, b⟩), a ∈ R⁴ standard normal, b = (0.5, −0.3, 0.2,
//     0.1): many zeros and ties (squared loss);
//   - "logistic": y = ±1, P(y = 1) = σ(⟨a, w*⟩), a standard normal in R³
//     (logistic loss: every loss at w₀ = 0 is ln 2).
func scoreData(t *testing.T, kind string, n int, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 17))
	studentT := func(nu float64) float64 { // Z/√(χ²_ν/ν), χ²_ν = 2·Gamma(ν/2)
		return rng.NormFloat64() / math.Sqrt(2*gammaDraw(rng, nu/2)/nu)
	}
	var b strings.Builder
	for range n {
		var row []float64
		switch kind {
		case "t2.5", "t3":
			nu := 2.5
			if kind == "t3" {
				nu = 3
			}
			a := []float64{studentT(nu), studentT(nu), studentT(nu)}
			row = append(a, 0.5*a[0]-0.3*a[1]+0.2*a[2]+studentT(nu))
		case "counts":
			a := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			mean := math.Exp(0.6 + 0.5*a[0] - 0.3*a[1] + 0.2*a[2] + 0.1*a[3])
			// negative binomial as a Poisson–Gamma mixture, dispersion k
			const k = 0.45
			row = append(a, poissonDraw(rng, gammaDraw(rng, k)*mean/k))
		case "logistic":
			a := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			y := -1.0
			if rng.Float64() < 1/(1+math.Exp(-(0.8*a[0]-0.5*a[1]+0.3*a[2]))) {
				y = 1
			}
			row = append(a, y)
		}
		for i, v := range row {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(theory.Arg.Format(v))
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), kind+".csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// gammaDraw is a Gamma(k, 1) variate (Marsaglia & Tsang, with the k < 1 boost).
func gammaDraw(rng *rand.Rand, k float64) float64 {
	if k < 1 {
		return gammaDraw(rng, k+1) * math.Pow(1-rng.Float64(), 1/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if u := 1 - rng.Float64(); math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// poissonDraw is a Poisson(λ) variate by inversion (λ ≤ a few hundred).
func poissonDraw(rng *rand.Rand, lam float64) float64 {
	if lam > 500 {
		return math.Round(lam + math.Sqrt(lam)*rng.NormFloat64())
	}
	u := rng.Float64()
	p := math.Exp(-lam)
	k := 0.0
	for cdf := p; u > cdf && p > 0; cdf += p {
		k++
		p *= lam / k
	}
	return k
}

// searchDraws draws K candidates as trial 0's search draws them (private
// constants, the default grid, uniform grid points, seeded noise; the
// stream is the search's, less the draws of the score clip and of K) and
// returns
// their validation losses (losses[k][i]), the validation rows' losses at
// w₀ (the score's window offsets' data), the training rows' losses at w₀
// (the score clip's data), their excess risks, and the search's
// accounting.
func searchDraws(t *testing.T, path, loss string, K int) ([][]float64, []float64, []float64, []float64, TunePrivacy) {
	t.Helper()
	r := resolve(t, spec.Spec{Data: path, Loss: loss, Constants: spec.ConstantsPrivate, Eps: 1, Rand: "seeded", Seed: 3})
	ts, ds, err := resolveTune(r, TuneSpec{})
	if err != nil {
		t.Fatal(err)
	}
	pv, err := tunePrivacy(r, ts.Repetitions)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in, err := scenarios.Build(ctx, r.Problem)
	if err != nil {
		t.Fatal(err)
	}
	n := in.Def().N
	nv := int(math.Round(ts.Validation * float64(n)))
	data := in.Dataset(r.Rand, r.Spec.Seed, 0)
	train := prefix(data, n-nv)
	valid, err := suffixRows(ctx, data, n-nv)
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	rng := solvers.NewNoise(r.Rand, r.Spec.Seed, 0, "tune/"+d.Name())
	e, err := in.EstimatePrivately(ctx, train, in.PrivateNeeds(r.Problem.Needs.R2k), pv.ConstantsRho, rng)
	if err != nil {
		t.Fatal(err)
	}
	ref := in.WithEstimates(e)
	cfg := r.Config(0, nil)
	cfg.Eps = math.Sqrt(2 * pv.CandidateRho)
	grid, _, err := gridFor(ts.Grid, ref, d, n-nv, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	w0 := make([]float64, in.Dim())
	l0 := make([]float64, n-nv) // the training rows' losses at w₀: what the score clip reads
	x := make([]float64, train.SampleDim())
	rd := train.Open()
	for i := range l0 {
		rd.Next(x)
		l0[i] = in.Loss(w0, x)
	}
	v0 := make([]float64, nv) // the validation rows' losses at w₀: the score's window offsets
	for i := range v0 {
		v0[i] = in.Loss(w0, valid.Row(i))
	}
	var losses [][]float64
	var ex []float64
	for c := range K {
		ccfg := cfg
		solver := grid[rng.Rand.IntN(len(grid))].apply(&ccfg, d, 0)
		ccfg.Seed = candidateSeed(r.Spec.Seed, 0, d.Name(), c)
		res, err := solver.Run(ctx, ref, train, ccfg)
		if err != nil {
			t.Fatal(err)
		}
		ls := make([]float64, nv)
		for i := range ls {
			ls[i] = in.Loss(res.W, valid.Row(i))
		}
		x, _ := in.Excess(res.W)
		losses, ex = append(losses, ls), append(ex, x)
	}
	return losses, v0, l0, ex, pv
}

// argminLaw is P(k = argmin_j (s_j + σZ_j)) for i.i.d. standard normal Z_j:
// with a_j = s_j/σ and u = z + a_k,
//
//	∫ φ(z) Π_{j≠k} Φ̄(z + a_k − a_j) dz = ∫ φ(u − a_k) Π_{j≠k} Φ̄(u − a_j) du,
//
// by the trapezoid rule with step h = 0.02 on the lattice u_i = ih, over
// the points with u − a_k in [−12, 12] (1201 or 1200 points; the integrand
// varies on the scale of 1 and its tails beyond |z| = 11.98 are below
// 10⁻³¹, so the error is far below 10⁻⁹). The lattice is the same for
// every k, so each Φ̄(u_i − a_j) is computed once for all k. A point whose
// partial product falls below 10⁻⁴⁰ counts as 0 (the factors are at most
// 1: at most 1201·h·10⁻⁴⁰ < 10⁻³⁷ in all).
func argminLaw(s []float64, sigma float64) []float64 {
	const half, h = 12.0, 0.02
	K := len(s)
	a := make([]float64, K)
	lo, hi := make([]int, K), make([]int, K)
	imin, imax := math.MaxInt, math.MinInt
	for k := range s {
		a[k] = s[k] / sigma
		lo[k], hi[k] = int(math.Ceil((a[k]-half)/h)), int(math.Floor((a[k]+half)/h))
		imin, imax = min(imin, lo[k]), max(imax, hi[k])
	}
	// tail[(i−imin)K + j] = Φ̄(u_i − a_j), computed when first read (NaN
	// before); past 10⁵ lattice points each is computed where read.
	var tail []float64
	if imax-imin < 100_000 {
		tail = make([]float64, (imax-imin+1)*K)
		for i := range tail {
			tail[i] = math.NaN()
		}
	}
	sf := func(i, j int) float64 {
		if tail == nil {
			return 0.5 * math.Erfc((h*float64(i)-a[j])/math.Sqrt2)
		}
		v := &tail[(i-imin)*K+j]
		if math.IsNaN(*v) {
			*v = 0.5 * math.Erfc((h*float64(i)-a[j])/math.Sqrt2)
		}
		return *v
	}
	p := make([]float64, K)
	for k := range s {
		var acc float64
		for i := lo[k]; i <= hi[k]; i++ {
			z := h*float64(i) - a[k]
			f := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
			for j := range s {
				if j != k {
					if f *= sf(i, j); f < 1e-40 {
						f = 0
						break
					}
				}
			}
			if i == lo[k] || i == hi[k] {
				f /= 2
			}
			acc += f
		}
		p[k] = acc * h
	}
	return p
}

// TestScoreRanks measures the search's score on the data sets of the
// quantile's tests, as regressions and a classification: Student-t
// features and noise (ν = 2.5, 3), negative-binomial counts with many
// zeros and ties, a logistic problem whose losses at w₀ are all ln 2; with
// 150, 1500 and 20 validation rows (n = 1500, 15000, 200). For 10
// candidates drawn as trial 0's search draws them (seeded: the same 10
// every run), it
// computes exactly — the clip's law enumerated (estimate.QuantileLaw, the
// clip's points of probability ≥ 10⁻⁶), the argmin of the noisy scores by
// quadrature (argminLaw), no Monte Carlo — the released candidate's
// expected excess risk, and compares it with the best of the 10 and with
// the candidate the same score without noise would pick on the same
// validation rows; it logs the release of the loss clipped at c_s (no
// window) beside them. The expectation leaves out clip points of total
// mass below 10⁻³, each at most the largest excess risk; the comparisons
// below hold with that margin. The 10 are drawn from acsa's default grid:
// which case each data set falls in moves with that grid.
//
// Where the score's noise is small against the candidates' differences the
// release is within 3× of the best. Where it is not, the test pins why:
// either the score cannot tell the candidates apart on these validation
// rows even without noise (the noiseless choice is more than 3× the best
// too, and the noisy one within 3× of it: the rows' own sampling error),
// or the noise σ = c_s/(n_v√(2ρ_Q)) is above the differences the
// noiseless score sees (the noisy choice is more than 3× the noiseless
// one, and the best): docs/privacy.md quotes the numbers.
func TestScoreRanks(t *testing.T) {
	t.Parallel()
	const (
		within    = "within 3× of the best"
		undecided = "the score cannot decide without noise"
		noise     = "the noise exceeds the differences"
	)
	for _, c := range []struct {
		kind, loss string
		n          int
		want       string
	}{
		{"t2.5", "squared", 1500, undecided}, {"t3", "squared", 1500, noise},
		{"counts", "squared", 1500, within}, {"logistic", "logistic", 1500, within},
		{"t2.5", "squared", 15000, noise}, {"t3", "squared", 15000, undecided},
		{"counts", "squared", 15000, within}, {"logistic", "logistic", 15000, within},
		{"t2.5", "squared", 200, within}, {"counts", "squared", 200, within},
		{"logistic", "logistic", 200, within},
	} {
		t.Run(fmt.Sprintf("%s/n=%d", c.kind, c.n), func(t *testing.T) {
			path := scoreData(t, c.kind, c.n, 5)
			losses, v0, l0, ex, pv := searchDraws(t, path, c.loss, 10)
			best, worst := math.Inf(1), 0.0
			for _, x := range ex {
				best, worst = math.Min(best, x), math.Max(worst, x)
			}
			nv := float64(len(losses[0]))
			law, err := privest.QuantileLaw(l0, 0.9, privest.DefaultGrid, pv.ScoreRho)
			if err != nil {
				t.Fatal(err)
			}
			var private, noiseless, clipped, mass float64
			for j, pc := range law.P {
				if pc < 1e-6 {
					continue
				}
				mass += pc
				cs := law.Values[j]
				s := make([]float64, len(losses))
				sc := make([]float64, len(losses)) // the loss clipped at c_s, no window
				for k, ls := range losses {
					for i, v := range ls {
						s[k] += math.Max(0, math.Min(v-scoreShift(v0[i], cs), cs)) / nv
						sc[k] += math.Min(v, cs) / nv
					}
				}
				sigma := cs / (nv * math.Sqrt(2*pv.CandidateRho))
				for k, p := range argminLaw(sc, sigma) {
					clipped += pc * p * ex[k]
				}
				pk := argminLaw(s, sigma)
				kmin := 0
				for k := range pk {
					private += pc * pk[k] * ex[k]
					if s[k] < s[kmin] {
						kmin = k
					}
				}
				noiseless += pc * ex[kmin]
			}
			if mass < 1-1e-3 {
				t.Fatalf("the clip's points of probability ≥ 10⁻⁶ hold %g < 1 − 10⁻³", mass)
			}
			slack := (1 - mass) * worst // the left-out clip points' most
			t.Logf("n_v = %d: best %.3g, released %.3g (%.2f×), noiseless score's pick %.3g (%.2f×), the clipped loss's release %.3g (%.2f×); clip median %.3g, x₍ᵣ₎ %.3g; ρ_Q = %.4g",
				int(nv), best, private, private/best, noiseless, noiseless/best, clipped, clipped/best, law.Median(), law.Q, pv.CandidateRho)
			switch c.want {
			case within:
				if private+slack > 3*best {
					t.Errorf("released %.3g > 3 × best %.3g", private+slack, best)
				}
			case undecided:
				if noiseless < 3*best || private+slack > 3*noiseless {
					t.Errorf("noiseless pick %.3g, released %.3g, best %.3g: want the noiseless pick > 3× the best and the released within 3× of it", noiseless, private+slack, best)
				}
			case noise:
				if private < 3*best || private < 3*(noiseless+slack) {
					t.Errorf("noiseless pick %.3g, released %.3g, best %.3g: want the released above 3× the best and 3× the noiseless pick", noiseless, private, best)
				}
			}
		})
	}
}

// TestScoreWindow checks the score's per-row term clip(ℓ − (ℓ₀ − c)⁺, 0, c)
// from its definition: it lies in [0, c] on every row (so replacing one
// validation row moves the sum by at most c: sensitivity c/n_v, what the
// noise is calibrated to), equals the loss clipped at c on a row whose loss
// at w₀ is at most c, and a row above c scores its gain over w₀: ℓ₀ − ℓ
// gained (up to c) lowers the term by as much.
func TestScoreWindow(t *testing.T) {
	term := func(l, l0, c float64) float64 { return math.Max(0, math.Min(l-scoreShift(l0, c), c)) }
	const c = 2.0
	for _, tc := range []struct {
		name        string
		l, l0, want float64
	}{
		{"below c at w₀: the clipped loss", 1.5, 1, 1.5},
		{"below c at w₀, above c at w", 7, 1, c},
		{"above c at w₀, no gain", 10, 10, c},
		{"above c at w₀, gain 1.5", 8.5, 10, 0.5},
		{"above c at w₀, gain above c", 3, 10, 0},
		{"above c at w₀, worse than w₀", 12, 10, c},
		{"w₀'s loss infinite: the clipped loss", 1, math.Inf(1), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := term(tc.l, tc.l0, c); math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("term(%g, %g) = %g, want %g", tc.l, tc.l0, got, tc.want)
			}
		})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		l, l0 := math.Exp(8*rng.NormFloat64()), math.Exp(8*rng.NormFloat64())
		if v := term(l, l0, c); !(v >= 0 && v <= c) {
			t.Fatalf("term(%g, %g) = %g outside [0, %g]", l, l0, v, c)
		}
	}
}
