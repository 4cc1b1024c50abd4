package solvers

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"dpso/solvers/ledger"
)

// chunkedGen is a genSamples cut into chunks of clen samples, chunk c drawn
// from its own ChaCha8 stream (the key with c in its last 8 bytes): a
// Chunked dataset like the scenarios' streams. Open concatenates the chunks.
type chunkedGen struct {
	*genSamples
	clen int
}

func (g *chunkedGen) ChunkLen() int { return g.clen }
func (g *chunkedGen) NewChunkReader() ChunkReader {
	return &chunkedGenReader{g: g, x: make([]float64, g.Dim)}
}
func (g *chunkedGen) Open() SampleReader {
	return &chunkedSeq{rd: g.NewChunkReader(), sd: g.Dim}
}

type chunkedGenReader struct {
	g         *chunkedGen
	r         *rand.Rand
	src       *rand.ChaCha8
	i, end, c int
	x         []float64
}

func (r *chunkedGenReader) Seek(c int) {
	key := r.g.Key
	binary.LittleEndian.PutUint64(key[24:], binary.LittleEndian.Uint64(key[24:])^uint64(c+1))
	if r.src == nil {
		r.src = rand.NewChaCha8(key)
		r.r = rand.New(r.src)
	} else {
		r.src.Seed(key)
	}
	r.c = c
	r.i = min(c*r.g.clen, r.g.N)
	r.end = min(r.i+r.g.clen, r.g.N)
}

func (r *chunkedGenReader) Read(buf []float64) int {
	sd := r.g.Dim
	k := min(len(buf)/sd, r.end-r.i)
	for j := range k {
		r.g.Draw(r.r, buf[j*sd:(j+1)*sd])
	}
	r.i += k
	return k
}

// chunkedSeq reads a Chunked dataset in order, chunk after chunk.
type chunkedSeq struct {
	rd      ChunkReader
	sd, c   int
	started bool
}

func (s *chunkedSeq) Next(x []float64) bool {
	if !s.started {
		s.rd.Seek(0)
		s.started = true
	}
	for s.rd.Read(x) == 0 {
		r := s.rd.(*chunkedGenReader)
		if r.end >= r.g.N {
			return false
		}
		s.c++
		s.rd.Seek(s.c)
	}
	return true
}

// TestChunkedReaderMatchesOpen: the test dataset's chunks are its stream.
func TestChunkedReaderMatchesOpen(t *testing.T) {
	g := &chunkedGen{genSamples: tpLinReg.samples(1000, 3, 0), clen: 64}
	seq := g.Open()
	rd := g.NewChunkReader()
	x, y := make([]float64, g.Dim), make([]float64, g.Dim)
	for c := range 16 {
		rd.Seek(c)
		for rd.Read(y) == 1 {
			if !seq.Next(x) || !sameBits(x, y) {
				t.Fatalf("chunk %d differs from the sequential stream", c)
			}
		}
	}
	if seq.Next(x) {
		t.Error("the sequential stream is longer than its chunks")
	}
}

// TestWorkersSameBits is the contract of Config.Workers: every solver gives
// the same output, bit for bit, with 1, 2 and 7 workers, on a chunked
// stream whose oracle calls are large enough to be spread (batches of
// ≥ 2¹⁷ floats), for the splitting oracles (parallel parts) and a shuffle
// oracle (serial, reading the chunks in order), and on a materialized
// dataset (the multi-pass solvers). It also checks that the runs do
// differ from the same runs on the unchunked stream read in order, so
// that the parallel path is the one being compared.
func TestWorkersSameBits(t *testing.T) {
	t.Parallel()
	lin := &linRegProblem{d: 20, radius: 1, wstar: make([]float64, 20), s: 1, nu: 9}
	lin.wstar[0], lin.wstar[3] = 0.5, -0.3
	lad := &ladProblem{d: 20, radius: 1, wstar: lin.wstar, s: 0.2, nu: 7}
	mean := &meanProblem{d: 20, radius: 1, center: make([]float64, 20), scale: 1, nu: 7, cut: 50}
	mean.center[1] = 0.4
	runs := []struct {
		solver string
		p      testProblem
		n      int
		cfg    Config
	}{
		{"acsa", lin, 60000, Config{Eps: 1, K: 2, Iters: 5}},
		{"clipped-sgd", lin, 60000, Config{Eps: 1, K: 2, Iters: 5, Oracle: "coordinate"}},
		{"prox-sgd", mean, 60000, Config{Eps: 1, K: 2, Iters: 5}},
		{"nonprivate-schedule", lad, 60000, Config{Eps: 1, K: 2, Iters: 5}},
		{"lipschitz-dpsgd", mean, 60000, Config{Eps: 1, K: 2, Iters: 5}},
		{"acsa", lin, 20000, Config{Eps: 1, K: 2, Iters: 3, Oracle: "shuffle-clip", Delta: 1e-6}},
		{"localized", lad, 16384, Config{Eps: 1, K: 2, WorkBudget: 150000}},
		{"klz-gd", lin, 16384, Config{Eps: 1, K: 2, WorkBudget: 100000}},
	}
	for _, rc := range runs {
		t.Run(rc.solver+"/"+rc.cfg.Oracle, func(t *testing.T) {
			s, _ := Lookup(rc.solver)
			data := &chunkedGen{genSamples: rc.p.samples(rc.n, 5, 1), clen: 512}
			var ref Result
			for i, w := range []int{1, 2, 7} {
				cfg := rc.cfg
				cfg.Seed, cfg.Trial, cfg.Workers = 5, 1, w
				res, err := s.Run(context.Background(), rc.p, data, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					ref = res
					continue
				}
				if !sameBits(res.W, ref.W) || res.GradEvals != ref.GradEvals || res.Spent != ref.Spent {
					t.Errorf("workers = %d: W = %v, workers = 1: %v", w, res.W, ref.W)
				}
			}
			cfg := rc.cfg
			cfg.Seed, cfg.Trial = 5, 1
			plain, err := s.Run(context.Background(), rc.p, data.genSamples, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if sameBits(plain.W, ref.W) {
				t.Error("the chunked stream gave the same output as the unchunked one: the chunks were not used")
			}
		})
	}
}

// TestLinearLossMatchesGrad: an oracle call fed through LinearLoss (scores,
// slopes, factored clipped accumulation) gives the estimate of the same
// call fed through Grad and Add, up to rounding (relative 10⁻¹²: the two
// differ in the order of a d-term dot product and in computing ‖ℓ'·a‖ as
// |ℓ'|·‖a‖), with clipping binding for part of the batch.
func TestLinearLossMatchesGrad(t *testing.T) {
	type gradOnly struct{ Problem }
	for _, p := range []testProblem{tpLinReg, tpLAD} {
		for _, chunked := range []bool{false, true} {
			est := func(q Problem) []float64 {
				var data Samples = p.samples(3000, 2, 0)
				if chunked {
					data = &chunkedGen{genSamples: p.samples(3000, 2, 0), clen: 512}
				}
				r, err := newRunner(context.Background(), q, Config{Eps: 1, K: 2, Workers: 3}, "clip-gaussian", true, 3000, data.SampleDim(), 3000, 1)
				if err != nil {
					t.Fatal(err)
				}
				r.stream(data)
				w := []float64{0.3, -0.2, 0.1, 0.4}
				if err := r.streamCall(0, 3000, w, 2, ledger.Cost{Rho: inf}); err != nil {
					t.Fatal(err)
				}
				if r.last.Clipped == 0 || r.last.Clipped == r.last.Size {
					t.Fatalf("clipped %d of %d: the test should clip some", r.last.Clipped, r.last.Size)
				}
				return append([]float64(nil), r.est...)
			}
			a, b := est(p), est(gradOnly{p})
			for j := range a {
				if math.Abs(a[j]-b[j]) > 1e-12*math.Max(1e-3, math.Abs(b[j])) {
					t.Errorf("%T chunked=%v: LinearLoss %v, Grad %v", p, chunked, a, b)
					break
				}
			}
		}
	}
}

// TestRunPieces: merges come in piece order for any number of workers;
// the first error stops the run; a panic on a worker goroutine comes back
// as an error.
func TestRunPieces(t *testing.T) {
	for _, w := range []int{1, 2, 7} {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) {
			var order []int
			var inFlight, maxInFlight atomic.Int32
			err := runPieces(w, 100, func(i, slot int) error {
				if slot >= 2*max(w, 1) {
					return fmt.Errorf("slot %d out of range", slot)
				}
				n := inFlight.Add(1)
				for {
					m := maxInFlight.Load()
					if n <= m || maxInFlight.CompareAndSwap(m, n) {
						break
					}
				}
				inFlight.Add(-1)
				return nil
			}, func(i, _ int) { order = append(order, i) })
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range order {
				if v != i {
					t.Fatalf("workers %d: merge order %v", w, order)
				}
			}
			if len(order) != 100 || int(maxInFlight.Load()) > max(w, 1) {
				t.Errorf("workers %d: %d merges, %d pieces at once", w, len(order), maxInFlight.Load())
			}
		})
	}
	boom := errors.New("boom")
	merged := 0
	err := runPieces(4, 50, func(i, _ int) error {
		if i == 10 {
			return boom
		}
		return nil
	}, func(i, _ int) {
		if i >= 10 {
			t.Errorf("piece %d merged after the failed piece 10", i)
		}
		merged++
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
	err = runPieces(3, 30, func(i, _ int) error {
		if i == 20 {
			panic("bug")
		}
		return nil
	}, func(int, int) {})
	if err == nil || !strings.Contains(err.Error(), "bug") {
		t.Errorf("panic: err = %v", err)
	}
}

// TestParallelSumSameBits: ParallelSum of a sum whose rounding depends on
// the order (terms of very different magnitudes) is the same bits for 1,
// 2 and 7 workers, equals the chunk-ordered serial sum, and stops on a
// cancelled context.
func TestParallelSumSameBits(t *testing.T) {
	const n, chunk = 10007, 97
	term := func(i int) float64 { return math.Pow(-1.5, float64(i%40)) / float64(i+1) }
	want := make([]float64, 2)
	for lo := 0; lo < n; lo += chunk {
		var s float64
		for i := lo; i < min(n, lo+chunk); i++ {
			s += term(i)
		}
		want[0] += s
		want[1] += float64(min(n, lo+chunk) - lo)
	}
	for _, w := range []int{1, 2, 7} {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) {
			out := make([]float64, 2)
			err := ParallelSum(context.Background(), w, n, chunk, out, func(lo, hi int, acc []float64) error {
				for i := lo; i < hi; i++ {
					acc[0] += term(i)
				}
				acc[1] += float64(hi - lo)
				return nil
			})
			if err != nil || !sameBits(out, want) {
				t.Errorf("workers %d: %v (err %v), want %v", w, out, err, want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ParallelSum(ctx, 3, n, chunk, make([]float64, 1), func(int, int, []float64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}
