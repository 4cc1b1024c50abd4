package solvers

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"dpso/solvers/vec"
)

// The floors of preset 1's comparison (linreg-t, d = 10, n = 2·10⁶: rows
// of 11 floats, 88 bytes, 176 MB), each in thread CPU a row
// ("cpu-ns/row", the benchmark locked to its thread) beside the usual
// wall time: what reading the rows costs apart from the solvers' own
// arithmetic. Measure with
//
//	go test ./solvers -run '^$' -bench 'Floor' -benchtime 5x
//
// floorRows is the matrix, on huge pages as a materialized dataset is
// (MakeFloats).
func floorRows(b *testing.B) []float64 {
	const n, sd = 2_000_000, 11
	xs, err := MakeFloats(context.Background(), n*sd)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range xs {
		xs[i] = r.NormFloat64()
	}
	return xs
}

// reportRows reports a benchmark's wall and thread-CPU nanoseconds a row
// for rows rows an iteration.
func reportRows(b *testing.B, cpu0 int64, rows int) {
	per := float64(b.N) * float64(rows)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/row")
	if cpu0 >= 0 {
		b.ReportMetric(float64(threadCPU()-cpu0)/per, "cpu-ns/row")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkFloorRandomRows reads dp-sgd's Poisson batches (expected size
// 256, 7813 batches: one epoch) at random from the first size bytes of
// the matrix, as dp-sgd does (vec.GatherRows, 32 rows a block, the next
// rows asked for 64 rows ahead): "gather"; the same without asking ahead;
// and "touch", which reads only a row's first and last float (its first
// and last cache line, without copying) — whether the copy or the misses
// cost. At 1 MB the rows are in the caches: the loop's own cost.
func BenchmarkFloorRandomRows(b *testing.B) {
	const sd = 11
	xs := floorRows(b)
	n := len(xs) / sd
	r := rand.New(rand.NewPCG(3, 4))
	var batches []int
	for range 7813 {
		for i := -1; ; {
			i += 1 + int(r.ExpFloat64()*float64(n)/256)
			if i >= n {
				break
			}
			batches = append(batches, i)
		}
	}
	buf := make([]float64, 32*sd)
	for _, size := range []struct {
		name  string
		bytes int
	}{{"1MB", 1 << 20}, {"16MB", 16 << 20}, {"176MB", len(xs) * 8}} {
		rows := size.bytes / (sd * 8)
		idx := make([]int, len(batches))
		for k, v := range batches {
			idx[k] = int(uint64(v) * 2654435761 % uint64(rows))
		}
		for _, way := range []string{"gather", "gather-no-ahead", "touch"} {
			b.Run(size.name+"/"+way, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var sink float64
				cpu0 := threadCPU()
				for b.Loop() {
					for i := 0; i < len(idx); i += 32 {
						blk := idx[i:min(i+32, len(idx))]
						a := min(i+64, len(idx))
						next := idx[a:min(a+32, len(idx))]
						switch way {
						case "gather":
							out := vec.GatherRows(buf, xs, blk, next, sd)
							sink += out[0]
						case "gather-no-ahead":
							out := vec.GatherRows(buf, xs, blk, nil, sd)
							sink += out[0]
						case "touch":
							for j, row := range blk {
								if j%vec.GatherGroup == 0 && j < len(next) {
									vec.PrefetchRows(xs, next[j:min(j+vec.GatherGroup, len(next))], sd)
								}
								sink += xs[row*sd] + xs[row*sd+sd-1]
							}
						}
					}
				}
				reportRows(b, cpu0, len(idx))
				if sink == 1 {
					b.Log(sink)
				}
			})
		}
	}
}

// BenchmarkFloorPass is klz-gd's pass over the whole matrix against the
// memory's: "dot" is the scores alone (vec.DotRows, blocks of 372 rows),
// the matrix streamed, and "dot-in-cache" the same on one block read again
// and again (where the two differ, the scores wait on memory); "pass" the
// scores, the
// finiteness flags and the coordinate clamp into 14 group means
// (vec.ClampAddRows) with the next block asked for while a block is
// clamped, as the coordinate oracle does; "pass-no-ahead" without that,
// and "pass-in-cache" the same arithmetic on one block read again and
// again: the pass's arithmetic alone.
func BenchmarkFloorPass(b *testing.B) {
	const sd, d, blk, m = 11, 10, 372, 14
	xs := floorRows(b)
	n := len(xs) / sd
	sq := make([]float64, n)
	for i := range sq {
		for _, v := range xs[i*sd : i*sd+d] {
			sq[i] += v * v
		}
	}
	w := make([]float64, d)
	for i := range w {
		w[i] = 0.1 * float64(i)
	}
	means := make([]float64, m*d)
	off, inv := make([]int, m+blk), make([]float64, m+blk)
	for j := range off {
		off[j], inv[j] = (j%m)*d, float64(m)/float64(n)
	}
	score, flag := make([]float64, blk), make([]uint8, blk)
	pass := func(ahead, cached bool) {
		next := 0
		for i := 0; i < n; i += blk {
			nb := min(blk, n-i)
			lo := i
			if cached {
				lo = 0
			}
			x := xs[lo*sd : (lo+nb)*sd]
			vec.DotRows(score[:nb], w, x, sd)
			for j := range nb {
				score[j] -= x[j*sd+d]
				flag[j] = vec.FiniteScaledFlag(score[j], sq[lo+j])
			}
			var ah []float64
			if ahead && !cached && i+nb < n {
				ah = xs[(i+nb)*sd : min(n, i+2*nb)*sd]
			}
			vec.ClampAddRows(means, off[next:next+nb], inv[next:next+nb], score[:nb], x, sd, d, 3, flag[:nb], ah)
			next = (next + nb) % m
		}
	}
	for _, way := range []string{"dot", "dot-in-cache", "pass", "pass-no-ahead", "pass-in-cache"} {
		b.Run(way, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var sink float64
			cpu0 := threadCPU()
			for b.Loop() {
				switch way {
				case "dot", "dot-in-cache":
					for i := 0; i < n; i += blk {
						nb := min(blk, n-i)
						lo := i
						if way == "dot-in-cache" {
							lo = 0
						}
						vec.DotRows(score[:nb], w, xs[lo*sd:(lo+nb)*sd], sd)
					}
					sink += score[0]
				default:
					pass(way == "pass", way == "pass-in-cache")
					sink += means[0]
				}
			}
			reportRows(b, cpu0, n)
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}
