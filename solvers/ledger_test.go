package solvers

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"dpso/solvers/ledger"
)

// Every algorithm spends at most ε²/2 per sample, and exactly ε²/2 on every
// sample its schedule reads (the one-pass solvers read all n, the
// localized ones their phases' batches, klz-gd all n over T passes); the
// samples a schedule leaves unread spend nothing. Checked sample by sample
// on the run's own ledger.
func TestLedgerSpending(t *testing.T) {
	mp := &meanProblem{d: 3, radius: 2, center: []float64{0.3, 0.1, -0.2}, scale: 1, nu: 7, cut: 40}
	lad := &ladProblem{d: 3, radius: 2, wstar: []float64{0.5, -0.5, 0.2}, s: 1, nu: 7}
	type run struct {
		solver string
		p      interface {
			Problem
			samples(int, uint64, int) *genSamples
		}
		cfg Config
	}
	cases := []run{
		{"acsa", mp, Config{Eps: 0.7, K: 2}},
		{"clipped-sgd", mp, Config{Eps: 0.7, K: 2}},
		{"prox-sgd", mp, Config{Eps: 0.7, K: 2}},
		{"localized", lad, Config{Eps: 0.7, K: 2, WorkBudget: 200000}},
		{"localized-sc", mp, Config{Eps: 0.7, K: 2, WorkBudget: 200000}},
		{"lipschitz-dpsgd", mp, Config{Eps: 0.7, K: 2}},
		{"klz-gd", mp, Config{Eps: 0.7, K: 2, WorkBudget: 200000}},
		{"acsa", mp, Config{Eps: 0.7, K: 2, Oracle: "coordinate"}},
		{"localized", lad, Config{Eps: 0.7, K: 2, Oracle: "coordinate", WorkBudget: 200000}},
		{"acsa", mp, Config{Eps: 0.7, K: 2, Oracle: "shuffle-clip", Delta: 1e-6}},
		{"prox-sgd", mp, Config{Eps: 0.7, K: 2, Oracle: "shuffle-coordinate", Delta: 1e-6}},
	}
	const n = 3000
	for _, c := range cases {
		t.Run(c.solver+"/"+oracleName(c.cfg, "default"), func(t *testing.T) {
			// Each sample's composed cost, summed here from the charges
			// as the ledger receives them.
			perSample := make([]ledger.Cost, n)
			testChargeHook = func(lo, hi int, c ledger.Cost) {
				for i := lo; i < hi; i++ {
					perSample[i] = perSample[i].Add(c)
				}
			}
			defer func() { testChargeHook = nil }()
			s, _ := Lookup(c.solver)
			res, err := s.Run(context.Background(), c.p, c.p.samples(n, 5, 0), c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			shuffle := strings.HasPrefix(c.cfg.Oracle, "shuffle")
			eps := 0.7
			want := ledger.Cost{Rho: eps * eps / 2} // as computed at run time
			if shuffle {
				want = ledger.Cost{Eps: 0.7, Delta: 1e-6}
			}
			if res.Budget != want {
				t.Errorf("Budget = %+v, want %+v", res.Budget, want)
			}
			read := 0
			for i, got := range perSample {
				switch {
				case got == (ledger.Cost{}):
				case near(got.Rho, want.Rho, 1e-12) && near(got.Eps, want.Eps, 1e-12) && near(got.Delta, want.Delta, 1e-12):
					read++
				default:
					t.Fatalf("sample %d spent %+v, want 0 or exactly %+v", i, got, want)
				}
			}
			if !near(res.Spent.Rho, want.Rho, 1e-12) || !near(res.Spent.Eps, want.Eps, 1e-12) {
				t.Errorf("Spent = %+v, want %+v", res.Spent, want)
			}
			// Which samples are read: all for one-pass and klz-gd; the
			// phases' Σ n_i for the localized solvers.
			wantRead := n
			for _, ph := range res.Params.Phases {
				if ph.N > 0 && c.solver != "klz-gd" {
					wantRead = 0
					break
				}
			}
			if wantRead == 0 {
				for _, ph := range res.Params.Phases {
					wantRead += ph.N
				}
			}
			if read != wantRead {
				t.Errorf("%d samples spent the budget, want %d", read, wantRead)
			}
		})
	}
}

// A deliberately overlapping batch schedule is caught by the ledger check:
// two one-pass oracle calls on the same range, and localization phases
// whose batches overlap by one sample.
func TestLedgerCatchesOverlap(t *testing.T) {
	mp := &meanProblem{d: 2, radius: 1, center: []float64{0.1, 0.2}, scale: 1, nu: 7}
	cfg := Config{Eps: 1, K: 2}
	r, err := newRunner(context.Background(), mp, cfg, "clip-gaussian", true, 100, 2, 100, 2)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, 2)
	for k := 0; k < 2; k++ {
		r.stream(mp.samples(100, 1, 0))
		if err := r.streamCall(0, 50, w, 1, r.cost(1)); err != nil { // both read [0, 50)
			t.Fatal(err)
		}
	}
	res := Result{Solver: "buggy"}
	if err := r.end(w, &res); err == nil || !strings.Contains(err.Error(), "privacy ledger") {
		t.Errorf("overlapping one-pass batches: err = %v, want a privacy ledger error", err)
	}

	pl, pr, err := Localized{}.plan(mp, 256, Config{Eps: 1, K: 2, WorkBudget: 50000})
	if err != nil {
		t.Fatal(err)
	}
	pl.phases[1].lo-- // phase 2 re-reads the last sample of phase 1
	_, err = locExec(context.Background(), mp, mp.samples(256, 1, 0), cfg, pl, pr, true, "localized")
	if err == nil || !strings.Contains(err.Error(), "privacy ledger") {
		t.Errorf("overlapping phases: err = %v, want a privacy ledger error", err)
	}
	// The correct schedule passes.
	pl, pr, _ = Localized{}.plan(mp, 256, Config{Eps: 1, K: 2, WorkBudget: 50000})
	if _, err := locExec(context.Background(), mp, mp.samples(256, 1, 0), cfg, pl, pr, true, "localized"); err != nil {
		t.Errorf("correct schedule: %v", err)
	}
}

// The multi-pass solvers refuse the shuffle oracles with a ConfigError on
// "oracle" that says why.
func TestMultiPassRefusesShuffle(t *testing.T) {
	mp := &meanProblem{d: 2, radius: 1, center: []float64{0.1, 0.2}, scale: 1, nu: 7}
	for _, s := range []Solver{Localized{}, LocalizedSC{}, KLZGD{}} {
		t.Run(s.Name(), func(t *testing.T) {
			for _, o := range []string{"shuffle-clip", "shuffle-coordinate"} {
				t.Run(o, func(t *testing.T) {
					_, err := s.Prescribe(mp, 1000, Config{Eps: 1, K: 2, Oracle: o, Delta: 1e-6})
					ce, ok := configErr(err)
					if !ok || ce.Field != "oracle" || !strings.Contains(ce.Msg, "composing (ε, δ)") {
						t.Errorf("%s with %s: err = %v, want a ConfigError on oracle about composing (ε, δ)", s.Name(), o, err)
					}
				})
			}
		})
	}
	_, err := KLZGD{}.Prescribe(mp, 1000, Config{Eps: 1, K: 2, Oracle: "clip-gaussian"})
	if ce, ok := configErr(err); !ok || ce.Field != "oracle" {
		t.Errorf("klz-gd with clip-gaussian: err = %v, want a ConfigError on oracle", err)
	}
	_, err = ACSA{}.Prescribe(mp, 1000, Config{Eps: 1, K: 2, Oracle: "shuffle-clip"})
	if ce, ok := configErr(err); !ok || ce.Field != "delta" {
		t.Errorf("shuffle oracle without δ: err = %v, want a ConfigError on delta", err)
	}
}

// nanProblem returns a non-finite gradient for samples whose first entry is
// above a threshold (about 5% of them).
type nanProblem struct{ *meanProblem }

func (p nanProblem) Grad(g, w, x []float64) {
	p.meanProblem.Grad(g, w, x)
	if x[0] > 1.7 {
		g[1] = math.NaN()
	} else if x[0] < -1.7 {
		g[0] = math.Inf(-1)
	}
}

// Non-finite per-sample gradients are zeroed and counted: the result stays
// finite and NonFinite equals the number of such samples read.
func TestNonFiniteGradients(t *testing.T) {
	mp := &meanProblem{d: 3, radius: 2, center: []float64{0.3, 0.1, -0.2}, scale: 1, nu: 5}
	p := nanProblem{mp}
	const n = 5000
	want := 0
	rd := mp.samples(n, 2, 0).Open()
	x := make([]float64, 3)
	for rd.Next(x) {
		if x[0] > 1.7 || x[0] < -1.7 {
			want++
		}
	}
	for _, name := range []string{"acsa", "clipped-sgd", "prox-sgd", "nonprivate-schedule", "klz-gd"} {
		t.Run(name, func(t *testing.T) {
			s, _ := Lookup(name)
			res, err := s.Run(context.Background(), p, mp.samples(n, 2, 0), Config{Eps: 1, K: 2, WorkBudget: 100000})
			if err != nil {
				t.Fatal(name, err)
			}
			for _, v := range res.W {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s: non-finite result %v", name, res.W)
				}
			}
			mult := int64(1)
			if name == "klz-gd" {
				mult = int64(res.Params.Iters) // T passes over all n
			}
			if res.NonFinite != int64(want)*mult {
				t.Errorf("%s: NonFinite = %d, want %d", name, res.NonFinite, int64(want)*mult)
			}
		})
	}
	if want < 100 {
		t.Fatalf("only %d non-finite samples; the test needs more", want)
	}
}

func TestShortData(t *testing.T) {
	mp := &meanProblem{d: 2, radius: 1, center: []float64{0.1, 0.2}, scale: 1, nu: 7}
	short := &shortSamples{mp.samples(1000, 1, 0)}
	for _, s := range []Solver{ACSA{}, Localized{}} {
		t.Run(s.Name(), func(t *testing.T) {
			if _, err := s.Run(context.Background(), mp, short, Config{Eps: 1, K: 2, WorkBudget: 10000}); !errors.Is(err, errShortData) {
				t.Errorf("%s: err = %v, want errShortData", s.Name(), err)
			}
		})
	}
}

// shortSamples claims one sample more than it yields.
type shortSamples struct{ *genSamples }

func (s *shortSamples) Len() int { return s.genSamples.Len() + 1 }
