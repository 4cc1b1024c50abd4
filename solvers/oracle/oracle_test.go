package oracle

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"dpso/solvers/ledger"
)

var allNames = []string{"clip-gaussian", "coordinate", "shuffle-clip", "shuffle-coordinate"}

// newOracle returns a fresh oracle by name with its local randomizer's
// stream set.
func newOracle(t testing.TB, name string, seed uint64) Oracle {
	t.Helper()
	o, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	SetRand(o, newRand(seed))
	return o
}

// newOracleGroups is newOracle with the coordinate-wise oracles' group
// count M set to m (0: their default); grouped reports whether the oracle
// has one.
func newOracleGroups(t testing.TB, name string, seed uint64, m int) (o Oracle, grouped bool) {
	t.Helper()
	o = newOracle(t, name, seed)
	switch c := o.(type) {
	case *Coordinate:
		c.M = m
	case *ShuffleCoordinate:
		c.M = m
	default:
		return o, false
	}
	return o, true
}

// privateBudget is a typical private per-call budget for each kind.
func privateBudget(o Oracle) ledger.Cost {
	if o.Kind() == Shuffle {
		return ledger.Cost{Eps: 1, Delta: 1e-6}
	}
	return ledger.Cost{Rho: 0.5}
}

func TestRegistry(t *testing.T) {
	if got := Names(); !slices.Equal(got, allNames) {
		t.Fatalf("Names() = %v, want %v", got, allNames)
	}
	kinds := map[string]Kind{"clip-gaussian": ZCDP, "coordinate": ZCDP, "shuffle-clip": Shuffle, "shuffle-coordinate": Shuffle}
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			o, err := New(name)
			if err != nil {
				t.Fatalf("New(%q): %v", name, err)
			}
			if o.Name() != name {
				t.Errorf("New(%q).Name() = %q", name, o.Name())
			}
			if o.Kind() != kinds[name] {
				t.Errorf("%s: Kind = %v, want %v", name, o.Kind(), kinds[name])
			}
			// KindOf answers without constructing an oracle, and agrees.
			if k, ok := KindOf(name); !ok || k != o.Kind() {
				t.Errorf("KindOf(%q) = %v, %v; the oracle says %v", name, k, ok, o.Kind())
			}
			if desc := Describe(name); desc == "" || strings.Contains(desc, "\n") {
				t.Errorf("Describe(%q) = %q, want one non-empty line", name, desc)
			}
			o2, _ := New(name)
			if o == o2 {
				t.Errorf("New(%q) returned the same oracle twice", name)
			}
			_, isLR := o.(LocalRandomizer)
			if isLR != (kinds[name] == Shuffle) {
				t.Errorf("%s: LocalRandomizer = %v", name, isLR)
			}
		})
	}
	if _, err := New("gaussian"); err == nil || !strings.Contains(err.Error(), "clip-gaussian") {
		t.Errorf("New of an unknown name: err = %v, want one listing the names", err)
	}
	if _, ok := KindOf("gaussian"); ok {
		t.Error("KindOf of an unknown name reports ok")
	}
	if Describe("nope") != "" {
		t.Error("Describe of an unknown name is not empty")
	}
}

func TestThreshold(t *testing.T) {
	tests := []struct {
		name string
		c    float64
		d    int
		want float64
	}{
		{"clip-gaussian", 3, 9, 3},
		{"shuffle-clip", 3, 9, 3},
		{"coordinate", 3, 9, 1},
		{"shuffle-coordinate", 3, 9, 1},
		{"coordinate", 2, 100, 0.2},
		{"coordinate", math.Inf(1), 4, math.Inf(1)},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s c=%g d=%d", tc.name, tc.c, tc.d), func(t *testing.T) {
			o, _ := New(tc.name)
			if got := o.Threshold(tc.c, tc.d); math.Abs(got-tc.want) > 1e-15*tc.want && got != tc.want {
				t.Errorf("%s.Threshold(%g, %d) = %g, want %g", tc.name, tc.c, tc.d, got, tc.want)
			}
		})
	}
}

func TestBeginRejects(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	type bad struct {
		d, s    int
		c       float64
		b       ledger.Cost
		mention string // the error must name this
	}
	zcdp := []bad{
		{0, 10, 1, ledger.Cost{Rho: 1}, "d = 0"},
		{3, 0, 1, ledger.Cost{Rho: 1}, "s = 0"},
		{3, 10, 0, ledger.Cost{Rho: 1}, "= 0, want"},
		{3, 10, -1, ledger.Cost{Rho: 1}, "= −1, want"},
		{3, 10, nan, ledger.Cost{Rho: 1}, "NaN"},
		{3, 10, 1, ledger.Cost{Rho: 0}, "ρ = 0"},
		{3, 10, 1, ledger.Cost{Rho: nan}, "ρ = NaN"},
		{3, 10, inf, ledger.Cost{Rho: 1}, "+Inf"},
	}
	shuffle := []bad{
		{0, 10, 1, ledger.Cost{Eps: 1, Delta: 1e-6}, "d = 0"},
		{3, 0, 1, ledger.Cost{Eps: 1, Delta: 1e-6}, "s = 0"},
		{3, 10, 0, ledger.Cost{Eps: 1, Delta: 1e-6}, "= 0, want"},
		{3, 10, 1, ledger.Cost{Eps: 0, Delta: 1e-6}, "ε = 0"},
		{3, 10, 1, ledger.Cost{Eps: nan, Delta: 1e-6}, "ε = NaN"},
		{3, 10, 1, ledger.Cost{Eps: 1, Delta: 0}, "δ = 0"},
		{3, 10, 1, ledger.Cost{Eps: 1, Delta: 0.5}, "δ = 0.5"},
		{3, 10, 1, ledger.Cost{Eps: 1, Delta: nan}, "δ = NaN"},
		{3, 10, inf, ledger.Cost{Eps: 1, Delta: 1e-6}, "+Inf"},
	}
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			o := newOracle(t, name, 1)
			cases := zcdp
			if o.Kind() == Shuffle {
				cases = shuffle
			}
			for _, tc := range cases {
				t.Run(tc.mention, func(t *testing.T) {
					err := o.Begin(tc.d, tc.s, tc.c, tc.b)
					if err == nil {
						t.Errorf("%s.Begin(%d, %d, %g, %+v) accepted", name, tc.d, tc.s, tc.c, tc.b)
						return
					}
					if !strings.HasPrefix(err.Error(), name+":") || !strings.Contains(err.Error(), tc.mention) {
						t.Errorf("%s.Begin(%d, %d, %g, %+v): error %q should start with the oracle's name and mention %q", name, tc.d, tc.s, tc.c, tc.b, err, tc.mention)
					}
				})
			}
		})
	}
	// Lemma "lem: pvec" and "lem:P1D" hold for ε ≤ 15.
	o := newOracle(t, "shuffle-clip", 1)
	if err := o.Begin(3, 10, 1, ledger.Cost{Eps: 15.5, Delta: 1e-6}); err == nil || !strings.Contains(err.Error(), "ε ≤ 15") {
		t.Errorf("shuffle-clip at ε = 15.5: err = %v", err)
	}
	if err := o.Begin(3, 10, 1, ledger.Cost{Eps: 15, Delta: 1e-6}); err != nil {
		t.Errorf("shuffle-clip at ε = 15: %v", err)
	}
	// Groups.
	for _, c := range []Oracle{&Coordinate{M: -1}, &ShuffleCoordinate{M: -2}} {
		t.Run(fmt.Sprintf("%T", c), func(t *testing.T) {
			SetRand(c, newRand(1))
			if err := c.Begin(3, 10, 1, privateBudget(c)); err == nil || !strings.Contains(err.Error(), "groups m") {
				t.Errorf("%s with M < 0: err = %v", c.Name(), err)
			}
		})
	}
}

func TestShuffleNeedsRand(t *testing.T) {
	for _, name := range []string{"shuffle-clip", "shuffle-coordinate"} {
		t.Run(name, func(t *testing.T) {
			o, _ := New(name)
			err := o.Begin(3, 10, 1, ledger.Cost{Eps: 1, Delta: 1e-6})
			if err == nil || !strings.Contains(err.Error(), "SetRand") {
				t.Errorf("%s without SetRand: err = %v", name, err)
			}
			// Without privacy there is no local randomness to draw.
			if err := o.Begin(3, 10, 1, ledger.Cost{Eps: math.Inf(1)}); err != nil {
				t.Errorf("%s at ε = +Inf without SetRand: %v", name, err)
			}
		})
	}
}

func TestMisusePanics(t *testing.T) {
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			o := newOracle(t, name, 1)
			b := privateBudget(o)
			mustPanic := func(what string, f func()) {
				t.Helper()
				defer func() {
					if recover() == nil {
						t.Errorf("%s: %s did not panic", name, what)
					}
				}()
				f()
			}
			out := make([]float64, 3)
			_ = o.Begin(3, 2, 1, b)
			mustPanic("Add of a short vector", func() { o.Add([]float64{1, 2}) })
			_ = o.Begin(3, 2, 1, b)
			mustPanic("Add of a long vector", func() { o.Add([]float64{1, 2, 3, 4}) })
			_ = o.Begin(3, 2, 1, b)
			o.Add([]float64{1, 2, 3})
			mustPanic("Finish after 1 of 2 Adds", func() { o.Finish(out, newRand(2)) })
			_ = o.Begin(3, 2, 1, b)
			o.Add([]float64{1, 2, 3})
			o.Add([]float64{1, 2, 3})
			mustPanic("a third Add", func() { o.Add([]float64{1, 2, 3}) })
			o2 := newOracle(t, name, 1)
			mustPanic("Add before Begin", func() { o2.Add([]float64{1, 2, 3}) })
			mustPanic("Finish before Begin", func() { o2.Finish(out, newRand(2)) })
			_ = o.Begin(3, 1, 1, b)
			o.Add([]float64{1, 2, 3})
			o.Finish(out, newRand(2))
			mustPanic("Add after Finish", func() { o.Add([]float64{1, 2, 3}) })
			mustPanic("Finish twice", func() { o.Finish(out, newRand(2)) })
			if err := o.Begin(3, 1, -1, b); err == nil {
				t.Fatal("Begin with C = -1 accepted")
			}
			mustPanic("Add after a failed Begin", func() { o.Add([]float64{1, 2, 3}) })
		})
	}
}

// TestNonFiniteZeroed: a vector with a NaN or ±Inf entry contributes the
// zero vector, still counts in s, and is counted in Stats.NonFinite; the
// estimate stays finite. Checked on the non-private path, where each
// oracle's output is a known function of the batch.
func TestNonFiniteZeroed(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	batch := [][]float64{
		{1, 2, 0}, {nan, 0, 0}, {0, inf, 0}, {-inf, 1, 1}, {3, 0, -1}, {nan, inf, -inf},
	}
	clean := [][]float64{
		{1, 2, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {3, 0, -1}, {0, 0, 0},
	}
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			for _, m := range []int{0, 1, 4} {
				o, grouped := newOracleGroups(t, name, 1, m)
				if !grouped && m != 0 {
					continue
				}
				const c = 10 // no clipping on the clean vectors
				got, call := run(t, o, batch, o.Threshold(c, 3), noPrivacy(o), newRand(2))
				o2, _ := newOracleGroups(t, name, 1, m)
				want, _ := run(t, o2, clean, o2.Threshold(c, 3), noPrivacy(o2), newRand(2))
				for j := range got {
					if got[j] != want[j] || math.IsNaN(got[j]) {
						t.Errorf("%s (M = %d): estimate %v, want %v (non-finite vectors as zeros)", name, m, got, want)
						break
					}
				}
				if call.Stats.NonFinite != 4 || call.Stats.Size != 6 {
					t.Errorf("%s: NonFinite = %d, Size = %d, want 4 and 6", name, call.Stats.NonFinite, call.Stats.Size)
				}
			}
			// The private path must stay finite too.
			o := newOracle(t, name, 3)
			got, _ := run(t, o, batch, o.Threshold(1, 3), privateBudget(o), newRand(4))
			for _, v := range got {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s: private estimate %v is not finite", name, got)
					break
				}
			}
		})
	}
	// The clip-and-average oracles: the zeroed vectors count in s.
	o := newOracle(t, "clip-gaussian", 1)
	got, _ := run(t, o, batch, 10, noPrivacy(o), newRand(2))
	want := []float64{4.0 / 6, 2.0 / 6, -1.0 / 6}
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-15 {
			t.Errorf("clip-gaussian: %v, want %v", got, want)
			break
		}
	}
}

// TestOverflowingNormClipped: a finite vector whose norm overflows float64
// is projected exactly, not dropped.
func TestOverflowingNormClipped(t *testing.T) {
	big := math.MaxFloat64 / 2
	batch := [][]float64{{big, big, 0}, {big, -big, 0}}
	for _, name := range []string{"clip-gaussian", "shuffle-clip"} {
		t.Run(name, func(t *testing.T) {
			o := newOracle(t, name, 1)
			got, call := run(t, o, batch, 2, noPrivacy(o), newRand(2))
			// Π_2 of (a, ±a, 0) is (√2, ±√2, 0); their mean is (√2, 0, 0).
			if math.Abs(got[0]-math.Sqrt2) > 1e-15 || math.Abs(got[1]) > 1e-15 || got[2] != 0 {
				t.Errorf("%s: %v, want (√2, 0, 0)", name, got)
			}
			if call.Stats.NonFinite != 0 || call.Stats.Clipped != 2 || call.Stats.Over != 2 {
				t.Errorf("%s: stats %+v", name, call.Stats)
			}
		})
	}
}

func TestBatchStatsHandMade(t *testing.T) {
	nan := math.NaN()
	// Norms 0, 5e−5, 0.5, 1, 2, 1e13 and one NaN vector; C = 1.
	batch := [][]float64{{0, 0}, {3e-5, 4e-5}, {0.3, 0.4}, {0, -1}, {2, 0}, {6e12, 8e12}, {nan, 1}}
	o := newOracle(t, "clip-gaussian", 1)
	_, call := run(t, o, batch, 1, noPrivacy(o), newRand(1))
	st := call.Stats
	var hist [HistBins]int
	// log10 bins: 0.5 → ⌊(log10 0.5 + 4)·4⌋ = ⌊14.80⌋ = 14; 1 → 16; 2 → ⌊17.20⌋ = 17.
	hist[14], hist[16], hist[17] = 1, 1, 1
	if st.Size != 7 || st.Threshold != 1 || st.Clipped != 2 || st.NonFinite != 1 || st.Under != 2 || st.Over != 1 || st.Hist != hist {
		t.Errorf("stats = %+v", st)
	}
	if got := st.ClipFraction(); got != 2.0/7 {
		t.Errorf("ClipFraction = %g, want 2/7", got)
	}
	// stat.Empirical on the 6 sorted finite norms: level p gives the
	// ⌈6p⌉-th smallest.
	want := [5]float64{0, 0.5, 1e13, 1e13, 1e13}
	for i := range want {
		if math.Abs(st.Quantiles[i]-want[i]) > 1e-12*math.Max(1, want[i]) {
			t.Errorf("Quantiles = %v, want %v", st.Quantiles, want)
			break
		}
	}
	if lo, hi := BinEdges(16); lo != 1 || math.Abs(hi-math.Pow(10, 0.25)) > 1e-15 {
		t.Errorf("BinEdges(16) = %g, %g", lo, hi)
	}

	// Coordinate oracles count a vector as clipped when any |z_j| > τ.
	c := newOracle(t, "coordinate", 1)
	_, call = run(t, c, [][]float64{{0.5, 0.5}, {0.5, -2}, {1, 1}}, 1, noPrivacy(c), newRand(1))
	if call.Stats.Clipped != 1 || call.Stats.Threshold != 1 {
		t.Errorf("coordinate stats = %+v, want 1 clipped, threshold 1", call.Stats)
	}

	// All non-finite: quantiles NaN.
	_, call = run(t, o, [][]float64{{nan, 0}, {0, math.Inf(-1)}}, 1, noPrivacy(o), newRand(1))
	for _, q := range call.Stats.Quantiles {
		if !math.IsNaN(q) {
			t.Errorf("quantiles of an all-non-finite batch = %v, want NaN", call.Stats.Quantiles)
			break
		}
	}
	if call.Stats.ClipFraction() != 0 {
		t.Error("clip fraction of an all-non-finite batch is not 0")
	}
}

// TestBatchStatsStride: above NormSampleCap vectors the quantiles come from
// every ⌈s/NormSampleCap⌉-th finite norm; a leading non-finite vector does
// not empty the sample.
func TestBatchStatsStride(t *testing.T) {
	const s = 5000 // stride ⌈5000/2048⌉ = 3
	batch := make([][]float64, s)
	batch[0] = []float64{math.NaN()}
	for i := 1; i < s; i++ {
		batch[i] = []float64{float64(i)} // finite norms 1..4999
	}
	o := newOracle(t, "clip-gaussian", 1)
	_, call := run(t, o, batch, 1e9, noPrivacy(o), newRand(1))
	// Sample: finite norms number 0, 3, 6, … i.e. values 1, 4, …, 4999
	// (1667 values); Empirical at p takes the ⌈1667p⌉-th.
	want := [5]float64{1 + 3*166, 1 + 3*833, 1 + 3*1500, 1 + 3*1650, 4999}
	if call.Stats.Quantiles != want {
		t.Errorf("Quantiles = %v, want %v", call.Stats.Quantiles, want)
	}
	if call.Stats.NonFinite != 1 || call.Stats.Size != s {
		t.Errorf("stats = %+v", call.Stats)
	}
}

// TestDeterminism: the same streams give the same bits; another seed does
// not.
func TestDeterminism(t *testing.T) {
	batch := studentBatch(newRand(7), 300, []float64{1, -2, 0.5, 0, 3}, 3)
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			outs := make([][]float64, 3)
			for k, seed := range []uint64{11, 11, 12} {
				o := newOracle(t, name, seed)
				outs[k], _ = run(t, o, batch, o.Threshold(2, 5), privateBudget(o), newRand(seed+100))
			}
			if !slices.Equal(outs[0], outs[1]) {
				t.Errorf("%s: same seed, different outputs %v and %v", name, outs[0], outs[1])
			}
			if slices.Equal(outs[0], outs[2]) {
				t.Errorf("%s: different seeds, same output", name)
			}
		})
	}
}

// TestZeroAllocs: a call allocates nothing once the oracle has run once
// at this size (the hot loop's contract).
func TestZeroAllocs(t *testing.T) {
	batch := studentBatch(newRand(3), 200, make([]float64, 20), 3)
	out := make([]float64, 20)
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			o := newOracle(t, name, 1)
			r := newRand(2)
			b := privateBudget(o)
			c := o.Threshold(1, 20)
			call := func() {
				if err := o.Begin(20, len(batch), c, b); err != nil {
					t.Fatal(err)
				}
				for _, z := range batch {
					o.Add(z)
				}
				o.Finish(out, r)
			}
			call()
			if n := testing.AllocsPerRun(20, call); n != 0 {
				t.Errorf("%s: %g allocations per call, want 0", name, n)
			}
		})
	}
}
