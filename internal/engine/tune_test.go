package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/accountant"
	"dpso/theory"
)

// tuneSpec is a small linreg-t search the tests share.
var tuneSpec = spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 4000, Trials: 3, Seed: 11}

// TestTunePrivacyMeetsTarget: the calibrated search meets the exact
// (ε', δ) of ρ = ε²/2 and misses it by less than the bisection's
// resolution (ρ_Q is the largest that meets it), for several laws of K and
// budgets; its curve is Theorem 2's (Theorem 6's) for ρ_Q·λ plus
// (ρ_s + ρ₀)·λ.
func TestTunePrivacyMeetsTarget(t *testing.T) {
	for _, c := range []struct {
		name string
		eps  float64
		reps accountant.Repetitions
		priv bool
	}{
		{"geometric", 1, accountant.Repetitions{Shape: 1, Mean: 10}, false},
		{"logarithmic", 0.5, accountant.Repetitions{Shape: 0, Mean: 5}, false},
		{"poisson", 2, accountant.Repetitions{Shape: math.Inf(1), Mean: 8}, false},
		{"private constants", 1, accountant.Repetitions{Shape: 2, Mean: 10}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := tuneSpec
			s.Eps = c.eps
			if c.priv {
				s.Constants = spec.ConstantsPrivate + ":0.2"
			}
			r := resolve(t, s)
			pv, err := tunePrivacy(r, c.reps)
			if err != nil {
				t.Fatal(err)
			}
			target := theory.EpsExact(c.eps, r.Privacy.Delta)
			if !(pv.Eps <= target) || pv.Eps < target*(1-1e-4) {
				t.Errorf("search ε' = %.8g, want just at most the target %.8g", pv.Eps, target)
			}
			if !(pv.CandidateRho > 0 && pv.CandidateRho < r.Privacy.Rho) {
				t.Errorf("ρ_Q = %g, want in (0, ρ = %g)", pv.CandidateRho, r.Privacy.Rho)
			}
			fixed := ScoreShare*r.Privacy.Rho + r.ConstantsRho()
			base := make([]float64, len(pv.Orders))
			for i, a := range pv.Orders {
				base[i] = pv.CandidateRho * a
			}
			rs, err := accountant.RepeatAndSelectRDP(pv.Orders, base, c.reps)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range pv.Orders {
				if want := rs[i] + fixed*a; math.Abs(pv.RDP[i]-want) > 1e-12*want {
					t.Fatalf("order %g: curve %g, want %g", a, pv.RDP[i], want)
				}
			}
			if math.Abs(pv.Overhead-(pv.Eps-theory.EpsExact(math.Sqrt(2*pv.CandidateRho), r.Privacy.Delta))) > 1e-12 {
				t.Errorf("overhead %g is not ε' − ε'(ρ_Q)", pv.Overhead)
			}
		})
	}
}

// TestTuneBeatsPrescription: on linreg-t (smooth-sc, n = 10⁴, ε = 1) the
// private search's released candidates are at least 10× better than the
// prescribed run on the same draws, and the oracle-tuned reference is no
// worse than the tuned run (it picks over the same grid with the full
// budget and the true excess risk); 5 seeded trials.
func TestTuneBeatsPrescription(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the search with its references (about 2 s)")
	}
	r := resolve(t, spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 10000, Eps: 1})
	rep, err := Tune(context.Background(), r, TuneSpec{References: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Solvers[0]
	pre, tu, or := s.Prescribed.Excess, s.Tuned.Excess, s.Oracle.Excess
	if !(10*tu.Mean <= pre.Mean) {
		t.Errorf("tuned %.4g ± %.2g, prescribed %.4g ± %.2g: want ≥ 10× better", tu.Mean, tu.SE, pre.Mean, pre.SE)
	}
	if or.Mean > tu.Mean+2*math.Hypot(or.SE, tu.SE) {
		t.Errorf("oracle-tuned %.4g ± %.2g is worse than tuned %.4g ± %.2g", or.Mean, or.SE, tu.Mean, tu.SE)
	}
	if rep.Privacy.Eps > r.Privacy.EpsDelta {
		t.Errorf("ε' = %g above the budget's %g", rep.Privacy.Eps, r.Privacy.EpsDelta)
	}
}

// TestTuneSameForAnyWorkers: a seeded search gives the same result bit
// for bit on 1 and 3 workers.
func TestTuneSameForAnyWorkers(t *testing.T) {
	var reps []*TuneReport
	for _, w := range []int{1, 3} {
		s := tuneSpec
		s.Workers = w
		rep, err := Tune(context.Background(), resolve(t, s), TuneSpec{References: true, Solvers: []string{"clipped-sgd", "lipschitz-dpsgd", "sgd"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep.Elapsed = 0
		for _, sv := range rep.Solvers {
			if sv.Prescribed != nil {
				sv.Prescribed.Elapsed = 0
				for i := range sv.Prescribed.Trials {
					sv.Prescribed.Trials[i].Elapsed = 0
				}
			}
		}
		reps = append(reps, rep)
	}
	for i := range reps[0].Solvers {
		a, b := reps[0].Solvers[i], reps[1].Solvers[i]
		if !sameJSON(t, a.Tuned, b.Tuned) || !sameJSON(t, a.Oracle, b.Oracle) {
			t.Errorf("%s: 1 and 3 workers differ", a.Solver)
		}
	}
}

// TestTunePoissonNothingReleased: with K ~ Poisson(0.05) most searches
// draw K = 0 and release nothing; such a trial counts the start point and
// says so (Chosen = −1), and the others release one of their candidates.
func TestTunePoissonNothingReleased(t *testing.T) {
	s := tuneSpec
	s.Trials = 6
	rep, err := Tune(context.Background(), resolve(t, s), TuneSpec{Repetitions: accountant.Repetitions{Shape: math.Inf(1), Mean: 0.05}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	for _, tr := range rep.Solvers[0].Tuned.Trials {
		switch {
		case tr.K == 0 && (tr.Chosen != -1 || tr.Excess != rep.W0.Mean):
			t.Errorf("trial %d: K = 0 but chosen %d, excess %g (w₀: %g)", tr.Trial, tr.Chosen, tr.Excess, rep.W0.Mean)
		case tr.K > 0 && (tr.Chosen < 0 || tr.Chosen >= tr.K || len(tr.Scores) != tr.K):
			t.Errorf("trial %d: K = %d, chosen %d, %d scores", tr.Trial, tr.K, tr.Chosen, len(tr.Scores))
		}
		if tr.K == 0 {
			zero++
		}
	}
	if zero == 0 {
		t.Error("no trial drew K = 0 (P = e^{−0.05} each)")
	}
}

// TestTuneChoosesBestScore: the released candidate is the one with the
// smallest private score, and every candidate ran at ρ_Q.
func TestTuneChoosesBestScore(t *testing.T) {
	rep, err := Tune(context.Background(), resolve(t, tuneSpec), TuneSpec{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range rep.Solvers[0].Tuned.Trials {
		for i, sc := range tr.Scores {
			if sc < tr.Scores[tr.Chosen] {
				t.Errorf("trial %d: candidate %d scored %g below the chosen one's %g", tr.Trial, i, sc, tr.Scores[tr.Chosen])
			}
		}
		if tr.Candidate != tr.Grid[tr.Tried[tr.Chosen]] {
			t.Errorf("trial %d: released %+v, the grid's point is %+v", tr.Trial, tr.Candidate, tr.Grid[tr.Tried[tr.Chosen]])
		}
		if want := tr.ScoreClip / (float64(rep.NValid) * math.Sqrt(2*rep.Privacy.CandidateRho)); math.Abs(tr.ScoreSigma-want) > 1e-12*want {
			t.Errorf("trial %d: score noise %g, want c_s/(n_v√(2ρ_Q)) = %g", tr.Trial, tr.ScoreSigma, want)
		}
	}
}

// TestCandidateSeedsDiffer: every candidate of a search has its own noise
// stream (the theorem's runs are independent), distinct across candidates,
// trials and solvers.
func TestCandidateSeedsDiffer(t *testing.T) {
	seen := map[uint64]bool{}
	for tr := range 3 {
		for _, s := range []string{"acsa", "clipped-sgd"} {
			for j := range 50 {
				k := candidateSeed(7, tr, s, j)
				if seen[k] {
					t.Fatalf("seed repeated at trial %d, %s, candidate %d", tr, s, j)
				}
				seen[k] = true
			}
		}
	}
}

// TestPrefixSamples: the training rows of a search are the dataset's first
// n rows, read in order or chunk by chunk.
func TestPrefixSamples(t *testing.T) {
	in := build(t, tuneSpec)
	data := in.Dataset(solvers.Seeded, 1, 0)
	const n = 1234
	p := prefix(data, n)
	whole := solvers.Materialize(data)
	got := solvers.Materialize(p)
	if got.Len() != n {
		t.Fatalf("prefix has %d rows, want %d", got.Len(), n)
	}
	for i, v := range got.Data {
		if v != whole.Data[i] {
			t.Fatalf("row %d differs", i/whole.Dim)
		}
	}
	ch, ok := p.(solvers.Chunked)
	if !ok {
		t.Fatal("the prefix of a chunked dataset is not chunked")
	}
	rd := ch.NewChunkReader()
	buf := make([]float64, ch.ChunkLen()*whole.Dim)
	var rows int
	for c := 0; c*ch.ChunkLen() < n; c++ {
		rd.Seek(c)
		k := rd.Read(buf)
		for i := range k * whole.Dim {
			if buf[i] != whole.Data[(c*ch.ChunkLen())*whole.Dim+i] {
				t.Fatalf("chunk %d differs", c)
			}
		}
		rows += k
	}
	if rows != n {
		t.Errorf("the chunks hold %d rows, want %d", rows, n)
	}
}

// TestTuneRefuses names the flag of each search it cannot run.
// seq is lo, lo + 1, …, hi.
func seq(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}

func TestTuneRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     spec.Spec
		ts    TuneSpec
		field string
	}{
		{"no privacy", spec.Spec{Scenario: scenarios.LinRegT, Eps: math.Inf(1)}, TuneSpec{}, "eps"},
		{"an override", spec.Spec{Scenario: scenarios.LinRegT, Clip: 2}, TuneSpec{}, "clip"},
		{"epochs without dp-sgd", spec.Spec{Scenario: scenarios.LinRegT}, TuneSpec{Grid: TuneGrid{Epochs: []float64{1}}}, "grid-epochs"},
		{"a bad clip", spec.Spec{Scenario: scenarios.LinRegT}, TuneSpec{Grid: TuneGrid{Clip: []float64{-1}}}, "grid-clip"},
		{"validation", spec.Spec{Scenario: scenarios.LinRegT}, TuneSpec{Validation: 0.9}, "validation"},
		{"add-remove", spec.Spec{Scenario: scenarios.LinRegT, Adjacency: "add-remove"}, TuneSpec{Solvers: []string{"dp-sgd"}}, "adjacency"},
		// 6 C × 4 steps × 7 epochs × 8 batches = 1344 > 512 points, refused
		// before the search calibrates its 56 (batch, T) mechanisms
		// (tens of seconds), naming the longest axis given.
		{"too large a grid", spec.Spec{Scenario: scenarios.LinRegT, N: 20000}, TuneSpec{Solvers: []string{"dp-sgd"},
			Grid: TuneGrid{Epochs: []float64{1, 2, 3, 5, 8, 13, 21}, Batch: []int{100, 200, 400, 800, 1600, 3200, 6400, 9000}}}, "grid-batch"},
		// 6 C × 3 steps × 200 T: every solver of the call is checked.
		{"too large a grid, T", spec.Spec{Scenario: scenarios.LinRegT}, TuneSpec{Solvers: []string{"dp-sgd", "acsa"}, Grid: TuneGrid{Iters: seq(1, 200)}}, "grid-iters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Tune(context.Background(), resolve(t, c.s), c.ts, nil)
			se, ok := err.(*spec.SpecError)
			if !ok || se.Field != c.field {
				t.Errorf("error %v, want a SpecError on %s", err, c.field)
			}
		})
	}
}

// TestTuneDPSGDCandidates: a dp-sgd candidate runs at its (batch, T)'s
// noise multiplier in the search's calibration — its σ is z·C/B — and
// the search's curve is Papernot & Steinke's theorem on the pointwise
// maximum of each mechanism's own subsampled-Gaussian curve at its z and
// the score's Gaussian curve, plus (ρ_s + ρ₀)·λ, which meets the
// target; each z is below a third of the one that would keep its curve
// under ρ_Q·λ at every order (a zCDP candidate's, the accounting it
// replaces): 0.878, 0.971, 1.254, 1.555 against 7.10, 8.64, 4.24, 5.79 at
// (batch, T) = (100, 36), (100, 72), (400, 9), (400, 18) on 3600 rows
// (docs/tuning.md).
func TestTuneDPSGDCandidates(t *testing.T) {
	s := tuneSpec
	s.Trials = 1
	r := resolve(t, s)
	reps := accountant.Repetitions{Shape: 1, Mean: 2}
	rep, err := Tune(context.Background(), r, TuneSpec{Solvers: []string{"dp-sgd"}, Repetitions: reps,
		Grid: TuneGrid{Clip: []float64{1}, Step: []float64{0.1}, Epochs: []float64{1, 2}, Batch: []int{100, 400}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sr := rep.Solvers[0].DPSGD
	if sr == nil || len(sr.Mechanisms) != 4 {
		t.Fatalf("dp-sgd's search: %+v, want 4 mechanisms", sr)
	}
	tr := rep.Solvers[0].Tuned.Trials[0]
	if tr.Chosen < 0 {
		t.Fatal("nothing released")
	}
	p := tr.Params
	z, ok := sr.multiplier(p.Batch, p.Iters)
	if !ok {
		t.Fatalf("no mechanism for batch %d, T = %d", p.Batch, p.Iters)
	}
	if want := z * p.Clip / float64(p.Batch); math.Abs(p.Sigma-want) > 1e-9*want {
		t.Errorf("σ = %g, want z·C/B = %g (z = %g, T = %d)", p.Sigma, want, z, p.Iters)
	}
	o := sr.Orders
	var cand [][]float64
	for _, m := range sr.Mechanisms {
		if m.Q != float64(m.Batch)/float64(rep.NTrain) {
			t.Errorf("batch %d: q = %g, want B/n_train", m.Batch, m.Q)
		}
		t.Logf("batch %d, T = %d, q = %.4g: z = %.4g", m.Batch, m.Steps, m.Q, m.Z)
		c := accountant.ComposedRDP(accountant.ReplaceOne, m.Q, m.Z, m.Steps, o)
		cand = append(cand, c)
		// The accounting it replaces: the smallest z whose curve stays
		// under ρ_Q·λ at every order is over 3 times larger.
		under := func(z float64) bool {
			for i, v := range accountant.ComposedRDP(accountant.ReplaceOne, m.Q, z, m.Steps, o) {
				if v > rep.Privacy.CandidateRho*o[i] {
					return false
				}
			}
			return true
		}
		if under(3 * m.Z) {
			t.Errorf("batch %d, T = %d: 3z = %g already keeps the curve under ρ_Q·λ", m.Batch, m.Steps, 3*m.Z)
		}
	}
	cand = append(cand, accountant.GaussianCurve(sr.ScoreZ, o))
	fixed := rep.Privacy.ScoreRho + rep.Privacy.ConstantsRho
	rdp, eps, _, err := accountant.SearchEpsilon(o, cand, reps, accountant.GaussianCurve(1/math.Sqrt(2*fixed), o), r.Privacy.Delta)
	if err != nil {
		t.Fatal(err)
	}
	if eps != sr.Eps || !(eps <= r.Privacy.EpsDelta) {
		t.Errorf("search ε' = %g, reported %g, target %g", eps, sr.Eps, r.Privacy.EpsDelta)
	}
	for i := range rdp {
		if rdp[i] != sr.RDP[i] {
			t.Fatalf("order %g: curve %g, reported %g", o[i], rdp[i], sr.RDP[i])
		}
	}
	if math.Abs(sr.ScoreRho-1/(2*sr.ScoreZ*sr.ScoreZ)) > 1e-15 || tr.ScoreSigma <= 0 {
		t.Errorf("score ρ = %g at z = %g", sr.ScoreRho, sr.ScoreZ)
	}
}

// TestTuneDropsWorkAboveBudget: a dp-sgd grid point whose work (T·B)
// would exceed the work budget is dropped, with its reason, rather than
// run with its T cut (which would run a point other than the one drawn);
// the points within the budget are kept.
func TestTuneDropsWorkAboveBudget(t *testing.T) {
	t.Parallel()
	s := tuneSpec
	s.Trials, s.WorkBudget = 1, 100_000
	rep, err := Tune(context.Background(), resolve(t, s), TuneSpec{Solvers: []string{"dp-sgd"}, Repetitions: accountant.Repetitions{Shape: 1, Mean: 2},
		Grid: TuneGrid{Clip: []float64{1}, Step: []float64{0.1}, Epochs: []float64{1, 50}, Batch: []int{100}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := rep.Solvers[0].Tuned.Trials[0]
	if len(tr.Grid) != 1 || tr.Grid[0].Epochs != 1 || tr.Dropped != 1 || tr.Drops.Work != 1 || len(tr.Drops.Notes()) != 1 {
		t.Errorf("grid %+v, dropped %d (%+v), want the 1-epoch point kept and the 50-epoch one dropped for its work", tr.Grid, tr.Dropped, tr.Drops)
	}
	if ms := rep.Solvers[0].DPSGD.Mechanisms; len(ms) != 1 || ms[0].Steps != 36 {
		t.Errorf("the search's mechanisms %+v, want batch 100 at T = 36 only", ms)
	}
}

// constantsCases is a small smooth-convex search (n = 1000, 2 trials)
// with its constants declared and with them private.
func constantsCases() []struct {
	name string
	s    spec.Spec
} {
	s := tuneSpec
	s.Class, s.N, s.Trials = theory.SmoothConvex, 1000, 2
	p := s
	p.Constants = "private"
	return []struct {
		name string
		s    spec.Spec
	}{{"declared", s}, {"private-constants", p}}
}

// refSearch is a search of constantsCases with the references (acsa and
// klz-gd), as Tune returned it, with the reports set.Searched was given,
// in order, and whether any of them had an oracle-tuned reference when it
// was given.
type refSearch struct {
	rep          *TuneReport
	early        []*TuneReport
	earlyOracles bool
	err          error
}

// refSearches are the searches referenceSearch ran, by case name.
var refSearches sync.Map

// referenceSearch is constantsCases' search name (Spec s) with the
// references, run once for the tests that read it
// (TestSearchReadsTheDrawsCopy, TestTuneReferenceComesLast,
// TestTuneCoarseFirst). The report is shared: a test changes nothing in
// it.
func referenceSearch(t *testing.T, name string, s spec.Spec) refSearch {
	t.Helper()
	r := resolve(t, s)
	run, _ := refSearches.LoadOrStore(name, sync.OnceValue(func() refSearch {
		var out refSearch
		set := &Settings{Searched: func(r *TuneReport) {
			for _, ts := range r.Solvers {
				out.earlyOracles = out.earlyOracles || ts.Oracle != nil
			}
			out.early = append(out.early, r)
		}}
		out.rep, out.err = Tune(context.Background(), r, TuneSpec{Solvers: []string{"acsa", "klz-gd"}, References: true}, set)
		return out
	}))
	rs := run.(func() refSearch)()
	if rs.err != nil {
		t.Fatal(rs.err)
	}
	return rs
}

// TestSearchReadsTheDrawsCopy: a search that materializes each trial's
// draw once (tuner.draw) — its candidates, validation rows and oracle grid
// reading that copy — reports the same bits as one that streams the draw
// for each of them, for a one-pass and a multi-pass solver, with the
// references and with private constants.
func TestSearchReadsTheDrawsCopy(t *testing.T) {
	for _, c := range constantsCases() {
		t.Run(c.name, func(t *testing.T) {
			if _, stored := build(t, c.s).Dataset(solvers.Seeded, c.s.Seed, 0).(*solvers.Matrix); stored {
				t.Fatal("the draw is stored: the test would not reach the copy")
			}
			ts := TuneSpec{References: true, Solvers: []string{"acsa", "klz-gd"}}
			copied := referenceSearch(t, c.name, c.s).rep
			defer func(b float64) { tuneDrawMaxBytes = b }(tuneDrawMaxBytes)
			tuneDrawMaxBytes = 0
			streamed, err := Tune(context.Background(), resolve(t, c.s), ts, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range copied.Solvers {
				a, b := copied.Solvers[i], streamed.Solvers[i]
				if a.Refused != "" || b.Refused != "" {
					t.Fatalf("%s refused: %q / %q", a.Solver, a.Refused, b.Refused)
				}
				if !sameJSON(t, a.Tuned, b.Tuned) || !sameJSON(t, a.Oracle, b.Oracle) {
					t.Errorf("%s: the search on the draw's copy differs from the search on the stream", a.Solver)
				}
			}
		})
	}
}

// TestTuneReferenceComesLast: the oracle-tuned reference changes no bit of
// the private search — the tuned runs with the references equal those
// without — and set.Searched is given, before the reference runs, the
// report Tune returns less its references, then less its oracle-tuned
// references.
func TestTuneReferenceComesLast(t *testing.T) {
	for _, c := range constantsCases() {
		t.Run(c.name, func(t *testing.T) {
			solvers := []string{"acsa", "klz-gd"}
			alone, err := Tune(context.Background(), resolve(t, c.s), TuneSpec{Solvers: solvers}, &Settings{Searched: func(*TuneReport) {
				t.Error("Searched called without references")
			}})
			if err != nil {
				t.Fatal(err)
			}
			rs := referenceSearch(t, c.name, c.s)
			full, early := rs.rep, rs.early
			if rs.earlyOracles {
				t.Error("Searched was given an oracle-tuned reference")
			}
			if len(early) != 2 {
				t.Fatalf("Searched called %d times, want twice", len(early))
			}
			for i := range full.Solvers {
				a, b := alone.Solvers[i], full.Solvers[i]
				if b.Refused != "" || b.Oracle == nil || b.Prescribed == nil {
					t.Fatalf("%s: refused %q, oracle %v, prescribed %v", b.Solver, b.Refused, b.Oracle, b.Prescribed)
				}
				if !sameJSON(t, a.Tuned, b.Tuned) {
					t.Errorf("%s: the tuned run with the references differs from the one without", a.Solver)
				}
				for k, what := range []string{"its references", "its oracle-tuned reference"} {
					e := early[k].Solvers[i]
					if k == 0 && e.Prescribed != nil {
						t.Errorf("%s: Searched's first report has the prescribed run", b.Solver)
					}
					e.Oracle, e.Prescribed = b.Oracle, b.Prescribed
					if !sameJSON(t, e, b) {
						t.Errorf("%s: Searched's report %d is not the final one less %s", b.Solver, k, what)
					}
				}
			}
			for _, e := range early {
				if !sameJSON(t, e.Total, full.Total) || !sameJSON(t, e.Privacy, full.Privacy) {
					t.Error("Searched's report states another privacy than the final one")
				}
			}
		})
	}
}

// TestTuneDPSGDSelectionPLD: with SelectionPLD dp-sgd's search is
// calibrated to the privacy-profile bound (accountant.SelectionEpsilon)
// where it allows smaller noise: every noise multiplier is one factor
// f < 1 times the Rényi calibration's, the profile bound recomputed here
// from the candidates' PLDs meets the target, the Rényi curve at those
// multipliers misses it (else the factor would be 1), the released
// candidate runs its mechanism's multiplier, and the single search's total
// is that bound. The profile search runs no Rényi calibration of its own:
// it starts from the one its question already has (the first Tune's).
func TestTuneDPSGDSelectionPLD(t *testing.T) {
	s := tuneSpec
	s.Trials = 1
	r := resolve(t, s)
	// K geometric with mean 2 as in TestTuneDPSGDCandidates; at the default
	// mean 10 the factor is 0.819 (docs/privacy.md).
	for _, reps := range []accountant.Repetitions{{Shape: 1, Mean: 2}} {
		t.Run(fmt.Sprintf("geometric mean %g", reps.Mean), func(t *testing.T) {
			ts := TuneSpec{Solvers: []string{"dp-sgd"}, Repetitions: reps,
				Grid: TuneGrid{Clip: []float64{1}, Step: []float64{0.1}, Epochs: []float64{1, 2}, Batch: []int{100, 400}}}
			base, err := Tune(context.Background(), r, ts, nil)
			if err != nil {
				t.Fatal(err)
			}
			ts.SelectionPLD = true
			before := renyiCalibrations.Load()
			rep, err := Tune(context.Background(), r, ts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n := renyiCalibrations.Load() - before; n != 0 {
				t.Errorf("the search by privacy profiles ran %d Rényi calibrations, want 0 (the one its question already has)", n)
			}
			b, sr := base.Solvers[0].DPSGD, rep.Solvers[0].DPSGD
			if b.Accountant != accountant.RDP || sr.Accountant != accountant.PLD || !(sr.PLDFactor < 1) {
				t.Fatalf("accountants %v, %v; factor %g", b.Accountant, sr.Accountant, sr.PLDFactor)
			}
			var ms []accountant.Mechanism
			for i, m := range sr.Mechanisms {
				if want := sr.PLDFactor * b.Mechanisms[i].Z; math.Abs(m.Z-want) > 1e-12*want {
					t.Errorf("batch %d, T = %d: z = %g, want f·z_RDP = %g", m.Batch, m.Steps, m.Z, want)
				}
				t.Logf("batch %d, T = %d, q = %.4g: z = %.4f by Rényi, %.4f by the profile", m.Batch, m.Steps, m.Q, b.Mechanisms[i].Z, m.Z)
				ms = append(ms, accountant.Mechanism{Sigma: m.Z, Q: m.Q, Steps: m.Steps, Adjacency: accountant.ReplaceOne})
			}
			t.Logf("score z = %.4f by Rényi, %.4f by the profile (f = %.4f, ε₂ = %.4f)", b.ScoreZ, sr.ScoreZ, sr.PLDFactor, sr.PLDShift)
			ps := []accountant.Profile{accountant.GaussianProfile(sr.ScoreZ)}
			for _, m := range ms {
				p, err := accountant.SubsampledGaussianProfile(m, accountant.PLDOptions{})
				if err != nil {
					t.Fatal(err)
				}
				ps = append(ps, p)
			}
			fixed := rep.Privacy.ScoreRho + rep.Privacy.ConstantsRho
			eps, err := accountant.SelectionEpsilon(accountant.MaxProfile(ps...), reps, fixed, r.Privacy.Delta)
			if err != nil {
				t.Fatal(err)
			}
			if eps != sr.Eps || !(eps <= r.Privacy.EpsDelta) {
				t.Errorf("profile ε' = %g, reported %g, target %g", eps, sr.Eps, r.Privacy.EpsDelta)
			}
			if !(sr.RDPEps > r.Privacy.EpsDelta) {
				t.Errorf("Rényi ε' at the smaller noise = %g, not above the target %g", sr.RDPEps, r.Privacy.EpsDelta)
			}
			if rep.Total.Searches != 1 || !rep.Total.Profile || rep.Total.Eps != sr.Eps {
				t.Errorf("total %+v, want the one search's profile bound %g", rep.Total, sr.Eps)
			}
			tr := rep.Solvers[0].Tuned.Trials[0]
			if tr.Chosen >= 0 {
				z, ok := sr.multiplier(tr.Params.Batch, tr.Params.Iters)
				if want := z * tr.Params.Clip / float64(tr.Params.Batch); !ok || math.Abs(tr.Params.Sigma-want) > 1e-9*want {
					t.Errorf("σ = %g, want z·C/B = %g", tr.Params.Sigma, want)
				}
			}
		})
	}
}

// TestDefaultBatches: dp-sgd's default batch axis on n_t training rows is
// round(n_t/64) and round(n_t/8), at least 1, a duplicate dropped: by
// hand, 14400 rows give 225 and 1800, 144 give 2 (2.25) and 18, 50 give 1
// (0.78) and 6 (6.25), 4 give 1 (0.06, 0.5) once.
func TestDefaultBatches(t *testing.T) {
	for _, c := range []struct {
		nt   int
		want []int
	}{
		{14400, []int{225, 1800}}, {144, []int{2, 18}}, {50, []int{1, 6}}, {4, []int{1}},
	} {
		t.Run(fmt.Sprint(c.nt), func(t *testing.T) {
			if got := defaultBatches(c.nt); !slices.Equal(got, c.want) {
				t.Errorf("defaultBatches(%d) = %v, want %v", c.nt, got, c.want)
			}
		})
	}
}
