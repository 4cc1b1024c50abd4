package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"dpso/solvers"
	"dpso/solvers/accountant"
	"dpso/solvers/oracle"
)

// TestTuneReportsReleasedClipping: a search reports what clipping did in
// each trial's released candidate, and it is that candidate's: a rerun of
// the chosen grid point with the candidate's own seed, on the trial's
// training rows, returns the released w bit for bit (observing the run
// changes nothing of it), the same counts of clipped and fed per-sample
// gradients, and at its last checkpoint the same batch (the released C as
// its threshold, the same histogram and norm quantiles). The solver's
// mean is the mean of the trials' fractions. C = 0.3 on linreg-t
// clips a share of the gradients strictly between 0 and 1, so the
// numbers are not the zero or the whole a missing report would give.
func TestTuneReportsReleasedClipping(t *testing.T) {
	s := tuneSpec
	s.Trials = 2
	r := resolve(t, s)
	ts := TuneSpec{Solvers: []string{"clipped-sgd"}, Repetitions: accountant.Repetitions{Shape: 1, Mean: 3},
		Grid: TuneGrid{Clip: []float64{0.3, 0.6}, Step: []float64{0.1}, Iters: []int{20}}}
	rep, err := Tune(context.Background(), r, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := build(t, s)
	d, _ := solvers.DescriptorOf("clipped-sgd")
	d = r.Configured(d)
	tu := rep.Solvers[0].Tuned
	var fracs []float64
	for _, tr := range tu.Trials {
		t.Run(fmt.Sprint("trial ", tr.Trial), func(t *testing.T) {
			if tr.Chosen < 0 {
				t.Fatal("nothing released")
			}
			c := tr.Clip
			if f := c.Fraction(); !(f > 0 && f < 1) {
				t.Fatalf("fraction clipped %v (%d of %d): want strictly between 0 and 1", f, c.Clipped, c.Fed)
			}
			fracs = append(fracs, c.Fraction())
			if c.Batch.Threshold != tr.Candidate.Clip || c.Batch.Size < MinHistBatch {
				t.Errorf("the batch has C = %v and %d vectors; the released candidate's C is %v", c.Batch.Threshold, c.Batch.Size, tr.Candidate.Clip)
			}
			rerun := func(observe func(solvers.Checkpoint)) solvers.Result {
				cfg := r.Config(tr.Trial, nil)
				cfg.Eps = math.Sqrt(2 * rep.Privacy.CandidateRho)
				solver := tr.Grid[tr.Tried[tr.Chosen]].apply(&cfg, d, 0)
				cfg.Seed = candidateSeed(s.Seed, tr.Trial, "clipped-sgd", tr.Chosen)
				cfg.Observe = observe
				train := prefix(in.Dataset(r.Rand, s.Seed, tr.Trial), rep.NTrain)
				res, err := solver.Run(context.Background(), in, train, cfg)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			var last solvers.Checkpoint
			res := rerun(func(cp solvers.Checkpoint) { last = cp })
			plain := rerun(nil)
			if !slices.Equal(res.W, tr.W) || !slices.Equal(plain.W, tr.W) {
				t.Fatalf("the rerun candidate's w %v (unobserved %v) is not the released %v", res.W, plain.W, tr.W)
			}
			if res.Clipped != c.Clipped || res.Fed != c.Fed {
				t.Errorf("the rerun clipped %d of %d, the search reports %d of %d", res.Clipped, res.Fed, c.Clipped, c.Fed)
			}
			if !last.Done || !sameJSON(t, last.Batch, c.Batch) {
				t.Errorf("the rerun's last batch %+v is not the reported %+v", last.Batch, c.Batch)
			}
		})
	}
	var want float64
	for _, f := range fracs {
		want += f / float64(len(fracs))
	}
	if len(fracs) != s.Trials || math.Abs(tu.Clipped-want) > 1e-15 {
		t.Errorf("the solver's mean fraction clipped %v, want the trials' mean %v of %v", tu.Clipped, want, fracs)
	}
}

// TestClipSeenKeepsAHistogramsBatch: a run's batch is its latest one
// unless that one has fewer than MinHistBatch vectors while the kept one
// has at least as many (a localized method's last phases), and a
// checkpoint with no batch (w₀'s) changes nothing.
func TestClipSeenKeepsAHistogramsBatch(t *testing.T) {
	var c ClipSeen
	for _, step := range []struct {
		size, phase      int
		wantSize, wantPh int
	}{
		{0, 0, 0, 0},
		{10, 1, 10, 1},
		{100, 1, 100, 1},
		{200, 2, 200, 2},
		{5, 3, 200, 2},
		{0, 3, 200, 2},
	} {
		c.observe(solvers.Checkpoint{Phase: step.phase, Batch: batchOf(step.size)})
		if c.Batch.Size != step.wantSize || c.Phase != step.wantPh {
			t.Errorf("after a batch of %d in phase %d: kept %d of phase %d, want %d of phase %d", step.size, step.phase, c.Batch.Size, c.Phase, step.wantSize, step.wantPh)
		}
	}
	if f := (ClipSeen{}).Fraction(); !math.IsNaN(f) {
		t.Errorf("a run that fed nothing has fraction %v, want NaN", f)
	}
	if f := (ClipSeen{Clipped: 1, Fed: 4}).Fraction(); f != 0.25 {
		t.Errorf("1 of 4 clipped: fraction %v", f)
	}
}

// batchOf is a batch of size vectors (the rest of its fields zero).
func batchOf(size int) oracle.BatchStats { return oracle.BatchStats{Size: size} }
