package oracle

import (
	"fmt"
	"math"
	"testing"

	"dpso/solvers/ledger"
)

// memoOracle is an oracle that saves and loads its state.
type memoOracle interface {
	Oracle
	Memoizer
	DetailSetter
}

// TestMemoReplaysCall: a call loaded from the state saved after feeding a
// batch releases what the fed call released, bit for bit, with its
// statistics, given the same noise stream; with the norm distribution
// kept (detail) or not, and a state saved with detail loaded into a call
// without it counts as that call would. A state that does not fit the
// call (another s, clip parameter, oracle or number of groups, or
// without the detail the call keeps) is refused and changes nothing.
func TestMemoReplaysCall(t *testing.T) {
	r := newRand(3)
	batch := studentBatch(r, 3000, []float64{1, -2, 0.5, 3, 0, 0, 1}, 3)
	batch[17][2] = math.NaN()
	batch[40][0] = math.Inf(1)
	budget := ledger.Cost{Rho: 0.02}
	oracles := []struct {
		name string
		make func() memoOracle
		clip float64
	}{
		{"clip-gaussian", func() memoOracle {
			return &ClipGaussian{}
		}, 4},
		{"coordinate", func() memoOracle {
			return &Coordinate{M: 9}
		}, 2},
	}
	show := func(out []float64, c Call) string { return fmt.Sprintf("%v %v", out, c) }
	for _, oc := range oracles {
		for _, saveDetail := range []bool{false, true} {
			for _, loadDetail := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/save-detail=%v/load-detail=%v", oc.name, saveDetail, loadDetail), func(t *testing.T) {
					o := oc.make()
					o.SetDetail(saveDetail)
					if err := o.Begin(7, len(batch), oc.clip, budget); err != nil {
						t.Fatal(err)
					}
					for _, z := range batch {
						o.Add(z)
					}
					var m Memo
					o.Save(&m)
					o.Finish(make([]float64, 7), newRand(1))

					// What a fed call at loadDetail releases.
					fed := oc.make()
					fed.SetDetail(loadDetail)
					want := show(run(t, fed, batch, oc.clip, budget, newRand(9)))

					o.SetDetail(loadDetail)
					if err := o.Begin(7, len(batch), oc.clip, budget); err != nil {
						t.Fatal(err)
					}
					ok := o.Load(&m)
					if wantOK := saveDetail || !loadDetail; ok != wantOK {
						t.Fatalf("Load = %v, want %v", ok, wantOK)
					}
					if !ok {
						for _, z := range batch {
							o.Add(z)
						}
					}
					out := make([]float64, 7)
					if got := show(out, o.Finish(out, newRand(9))); got != want {
						t.Errorf("loaded:\n%s\nfed:\n%s", got, want)
					}
				})
			}
		}
		t.Run(oc.name+"/refused", func(t *testing.T) {
			o := oc.make()
			o.SetDetail(true)
			if err := o.Begin(7, len(batch), oc.clip, budget); err != nil {
				t.Fatal(err)
			}
			for _, z := range batch {
				o.Add(z)
			}
			var m Memo
			o.Save(&m)
			o.Finish(make([]float64, 7), newRand(1))
			begins := map[string]func(Oracle) error{
				"another s":    func(o Oracle) error { return o.Begin(7, len(batch)-1, oc.clip, budget) },
				"another clip": func(o Oracle) error { return o.Begin(7, len(batch), oc.clip*2, budget) },
			}
			for what, begin := range begins {
				if err := begin(o); err != nil {
					t.Fatal(err)
				}
				if o.Load(&m) {
					t.Errorf("%s: loaded", what)
				}
			}
			for _, other := range oracles {
				if other.name == oc.name {
					continue
				}
				p := other.make()
				if err := p.Begin(7, len(batch), oc.clip, budget); err != nil {
					t.Fatal(err)
				}
				if p.Load(&m) {
					t.Errorf("%s's state loaded into %s", oc.name, other.name)
				}
			}
		})
	}
	t.Run("coordinate/another m", func(t *testing.T) {
		o := &Coordinate{M: 9}
		if err := o.Begin(7, len(batch), 2, budget); err != nil {
			t.Fatal(err)
		}
		for _, z := range batch {
			o.Add(z)
		}
		var m Memo
		o.Save(&m)
		o.Finish(make([]float64, 7), newRand(1))
		p := &Coordinate{M: 10}
		if err := p.Begin(7, len(batch), 2, budget); err != nil {
			t.Fatal(err)
		}
		if p.Load(&m) {
			t.Error("loaded with m = 10 a state of m = 9")
		}
	})
}
