package ledger

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

type span struct {
	lo, hi int
	c      Cost
}

// bruteSpent computes max_i Σ_{charges ∋ i} cost directly on an array of n
// samples: the definition that Spent implements.
func bruteSpent(n int, sched []span) Cost {
	per := make([]Cost, n)
	for _, s := range sched {
		for i := s.lo; i < s.hi; i++ {
			per[i] = per[i].Add(s.c)
		}
	}
	var best Cost
	for _, c := range per {
		best = best.max(c)
	}
	return best
}

func closeCost(a, b Cost) bool {
	eq := func(x, y float64) bool {
		if math.IsInf(x, 1) || math.IsInf(y, 1) {
			return x == y
		}
		return math.Abs(x-y) <= 1e-12*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
	}
	return eq(a.Rho, b.Rho) && eq(a.Eps, b.Eps) && eq(a.Delta, b.Delta)
}

func TestSpentHandMade(t *testing.T) {
	inf := math.Inf(1)
	rho := func(r float64) Cost { return Cost{Rho: r} }
	tests := []struct {
		name   string
		n      int
		sched  []span
		want   Cost
		ranges int          // stored entries after the schedule
		probe  map[int]Cost // per-sample checks
	}{
		{"disjoint batches in order", 30, []span{{0, 10, rho(.5)}, {10, 20, rho(.5)}, {20, 30, rho(.5)}},
			rho(.5), 2, map[int]Cost{0: rho(.5), 9: rho(.5), 10: rho(.5), 29: rho(.5)}},
		{"same range T times merges", 100, []span{{0, 100, rho(.125)}, {0, 100, rho(.125)}, {0, 100, rho(.125)}, {0, 100, rho(.125)}},
			rho(.5), 1, map[int]Cost{50: rho(.5)}},
		{"overlapping batches compose", 150, []span{{0, 100, rho(.5)}, {50, 150, rho(.5)}},
			rho(1), 2, map[int]Cost{49: rho(.5), 50: rho(1), 99: rho(1), 100: rho(.5)}},
		{"adjacent out of order do not overlap", 20, []span{{10, 20, rho(.5)}, {0, 10, rho(.5)}},
			rho(.5), 2, map[int]Cost{9: rho(.5), 10: rho(.5)}},
		{"nested ranges", 100, []span{{0, 100, rho(.1)}, {20, 30, rho(.2)}, {25, 26, rho(.3)}},
			rho(.6), 3, map[int]Cost{19: rho(.1), 20: rho(.3), 25: rho(.6), 26: rho(.3), 30: rho(.1)}},
		{"shuffle costs add in ε and δ", 15, []span{{0, 10, Cost{Eps: 1, Delta: 1e-6}}, {5, 15, Cost{Eps: .5, Delta: 1e-6}}},
			Cost{Eps: 1.5, Delta: 2e-6}, 2, map[int]Cost{4: {Eps: 1, Delta: 1e-6}, 5: {Eps: 1.5, Delta: 2e-6}, 14: {Eps: .5, Delta: 1e-6}}},
		{"component-wise maxima at different samples", 20, []span{{0, 10, rho(1)}, {10, 20, Cost{Eps: 2}}},
			Cost{Rho: 1, Eps: 2}, 2, nil},
		{"non-private range is +Inf, never NaN", 20, []span{{0, 5, rho(inf)}, {3, 10, rho(.2)}, {12, 14, rho(.1)}, {10, 20, rho(.3)}},
			rho(inf), 4, map[int]Cost{4: rho(inf), 7: rho(.2), 12: rho(.4), 19: rho(.3)}},
		{"localized phases: T_i passes over halving batches", 16, []span{
			{0, 8, rho(.25)}, {0, 8, rho(.25)}, {8, 12, rho(.25)}, {8, 12, rho(.25)}, {12, 14, rho(.25)}, {12, 14, rho(.25)}},
			rho(.5), 2, map[int]Cost{0: rho(.5), 13: rho(.5), 15: {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(tc.n)
			for _, s := range tc.sched {
				if err := l.Charge(s.lo, s.hi, s.c); err != nil {
					t.Fatal(err)
				}
			}
			if got := l.Spent(); !closeCost(got, tc.want) {
				t.Errorf("Spent = %+v, want %+v", got, tc.want)
			}
			if got := bruteSpent(tc.n, tc.sched); !closeCost(got, tc.want) {
				t.Fatalf("test table is wrong: brute force gives %+v", got)
			}
			if len(l.charges) != tc.ranges {
				t.Errorf("stored ranges = %d, want %d", len(l.charges), tc.ranges)
			}
			for i, want := range tc.probe {
				if got := perSample(l, i); !closeCost(got, want) {
					t.Errorf("per-sample cost(%d) = %+v, want %+v", i, got, want)
				}
			}
		})
	}
}

func TestCheckCatchesOverlap(t *testing.T) {
	const eps = 1.0
	budget := Cost{Rho: eps * eps / 2}
	// Batches of 100 that mistakenly advance by 90 samples: consecutive
	// batches share 10 samples. Each batch spends the whole per-sample
	// budget, so the shared samples pay twice.
	l := New(1000)
	for t0 := 0; t0+100 <= 1000; t0 += 90 {
		if err := l.Charge(t0, t0+100, budget); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Check(budget); err == nil {
		t.Fatalf("overlapping schedule passed Check: spent %+v", l.Spent())
	}
	if got := l.Spent().Rho; got != 2*budget.Rho {
		t.Errorf("Spent ρ = %g, want %g", got, 2*budget.Rho)
	}

	// The correct schedule: disjoint adjacent batches.
	l = New(1000)
	for t0 := 0; t0 < 1000; t0 += 100 {
		if err := l.Charge(t0, t0+100, budget); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Check(budget); err != nil {
		t.Errorf("disjoint adjacent batches: %v", err)
	}
}

func TestCheckFullBatchShares(t *testing.T) {
	// Full-batch noisy GD: T passes over [0, n), each ρ/T; the float sum
	// of T shares may exceed ρ by rounding, which Check must absorb.
	for _, T := range []int{3, 7, 1000, 12345} {
		t.Run(fmt.Sprintf("T=%d", T), func(t *testing.T) {
			budget := Cost{Rho: 0.5}
			share := Cost{Rho: budget.Rho / float64(T)}
			l := New(50)
			for range T {
				if err := l.Charge(0, 50, share); err != nil {
					t.Fatal(err)
				}
			}
			if len(l.charges) != 1 {
				t.Errorf("T = %d: stored ranges = %d, want 1", T, len(l.charges))
			}
			if err := l.Check(budget); err != nil {
				t.Errorf("T = %d: %v", T, err)
			}
			// One more share is a real overspend.
			if err := l.Charge(0, 50, share); err != nil {
				t.Fatal(err)
			}
			if err := l.Check(budget); err == nil {
				t.Errorf("T = %d: T+1 shares passed Check", T)
			}
		})
	}
}

func TestChargeRejects(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		lo, hi int
		c      Cost
	}{
		{-1, 5, Cost{Rho: 1}},
		{0, 11, Cost{Rho: 1}},
		{5, 5, Cost{Rho: 1}},
		{6, 5, Cost{Rho: 1}},
		{0, 5, Cost{Rho: -1}},
		{0, 5, Cost{Rho: nan}},
		{0, 5, Cost{Eps: nan}},
		{0, 5, Cost{Delta: -1e-9}},
		{0, 5, Cost{Rho: math.Inf(-1)}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("[%d,%d) %+v", tc.lo, tc.hi, tc.c), func(t *testing.T) {
			l := New(10)
			if err := l.Charge(tc.lo, tc.hi, tc.c); err == nil {
				t.Errorf("Charge(%d, %d, %+v) accepted", tc.lo, tc.hi, tc.c)
			}
			if len(l.charges) != 0 || !l.Spent().IsZero() {
				t.Errorf("Charge(%d, %d, %+v) recorded something", tc.lo, tc.hi, tc.c)
			}
		})
	}
}

// TestSpentMatchesBruteForce compares Spent with the definition on random
// schedules (fixed seed): in order, out of order, with repeats.
func TestSpentMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	costs := []Cost{{Rho: .1}, {Rho: .25}, {Eps: .5, Delta: 1e-7}, {Rho: .1, Eps: .2}}
	for trial := range 300 {
		n := 1 + r.IntN(60)
		l := New(n)
		var sched []span
		pos := 0
		charges := 1 + r.IntN(25)
		for range charges {
			var s span
			switch r.IntN(3) {
			case 0: // next disjoint batch (if room)
				if pos >= n {
					pos = 0
				}
				hi := pos + 1 + r.IntN(n-pos)
				s = span{pos, hi, costs[r.IntN(len(costs))]}
				pos = hi
			case 1: // repeat the previous range
				if len(sched) == 0 {
					continue
				}
				s = sched[len(sched)-1]
				s.c = costs[r.IntN(len(costs))]
			default: // anywhere
				lo := r.IntN(n)
				s = span{lo, lo + 1 + r.IntN(n-lo), costs[r.IntN(len(costs))]}
			}
			sched = append(sched, s)
			if err := l.Charge(s.lo, s.hi, s.c); err != nil {
				t.Fatal(err)
			}
			// Spent must be right after every charge (the running path).
			if got, want := l.Spent(), bruteSpent(n, sched); !closeCost(got, want) {
				t.Fatalf("trial %d after %d charges %v: Spent = %+v, want %+v", trial, len(sched), sched, got, want)
			}
		}
		for i := range n {
			var want Cost
			for _, s := range sched {
				if s.lo <= i && i < s.hi {
					want = want.Add(s.c)
				}
			}
			if got := perSample(l, i); !closeCost(got, want) {
				t.Fatalf("trial %d: per-sample cost(%d) = %+v, want %+v", trial, i, got, want)
			}
		}
	}
}

// TestMillionOneSampleCharges: a run that charges 10⁶ distinct one-sample
// ranges (batch size 1), once or twice each, stays O(1) in memory and its
// running Spent stays right.
func TestMillionOneSampleCharges(t *testing.T) {
	const n = 1_000_000
	c := Cost{Rho: 0.5}
	for _, repeats := range []int{1, 2} {
		t.Run(fmt.Sprintf("repeats=%d", repeats), func(t *testing.T) {
			l := New(n)
			for i := range n {
				for range repeats {
					if err := l.Charge(i, i+1, c); err != nil {
						t.Fatal(err)
					}
				}
				if i%100_000 == 0 && l.Spent().Rho != float64(repeats)*c.Rho {
					t.Fatalf("repeats %d, i = %d: Spent = %+v", repeats, i, l.Spent())
				}
			}
			if len(l.charges) > 2 {
				t.Errorf("repeats %d: %d stored ranges after %d one-sample charges, want ≤ 2", repeats, len(l.charges), n)
			}
			if got, want := l.Spent().Rho, float64(repeats)*c.Rho; got != want {
				t.Errorf("repeats %d: Spent ρ = %g, want %g", repeats, got, want)
			}
		})
	}
}

func BenchmarkChargeOnePass(b *testing.B) {
	b.ReportAllocs()
	c := Cost{Rho: 1e-3}
	l := New(b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = l.Charge(i, i+1, c)
		_ = l.Spent()
	}
}

// perSample is the composed cost of sample i: the sum of the costs of the
// stored charges whose range contains i, summed here apart from the
// sweep Spent runs.
func perSample(l *Ledger, i int) Cost {
	var s Cost
	for _, c := range l.charges {
		if c.lo <= i && i < c.hi {
			s = s.Add(c.cost)
		}
	}
	return s
}
