package scenarios

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"

	"dpso/solvers"
	"dpso/theory"
)

func benchSpec(name string) ProblemDef {
	s := ProblemDef{Scenario: name, N: 1 << 30 / 64}
	if name != Example1 {
		s.D = 10
	}
	if name == HingeT || name == AbsRegT || name == LogRegT {
		s.N = 10000
	}
	if name == MeanHard || name == AffineHard {
		s.D, s.N = 40, 10000
	}
	return s
}

// BenchmarkGrad is the per-sample gradient of every scenario (d = 10; 40
// for the hard instances): the solvers' hot loop.
func BenchmarkGrad(b *testing.B) {
	for _, name := range ScenarioNames() {
		b.Run(name, func(b *testing.B) {
			s := benchSpec(name)
			s.N = 1000
			in, err := Build(context.Background(), resolved(b, s))
			if err != nil {
				b.Fatal(err)
			}
			x := make([]float64, in.SampleDim())
			in.Dataset(solvers.Seeded, 0, 0).Open().Next(x)
			w := make([]float64, in.Dim())
			g := make([]float64, in.Dim())
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				in.Grad(g, w, x)
			}
		})
	}
}

// BenchmarkNext is drawing one sample from a scenario's data stream.
func BenchmarkNext(b *testing.B) {
	for _, name := range ScenarioNames() {
		b.Run(name, func(b *testing.B) {
			s := benchSpec(name)
			s.N = 100_000_000 / (s.D + 2)
			in, err := Build(context.Background(), resolved(b, s))
			if err != nil {
				b.Fatal(err)
			}
			rd := in.Dataset(solvers.Seeded, 0, 0).Open()
			x := make([]float64, in.SampleDim())
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if !rd.Next(x) {
					rd = in.Dataset(solvers.Seeded, 0, 0).Open()
				}
			}
		})
	}
}

// BenchmarkExcess is one excess-risk evaluation (done at every checkpoint):
// closed form (linreg-t) against the evaluation sample (logreg-t,
// 40000 draws).
func BenchmarkExcess(b *testing.B) {
	for _, s := range []ProblemDef{{Scenario: LinRegT, D: 10}, {Scenario: LogRegT, D: 10, Class: theory.SmoothConvex}} {
		b.Run(s.Scenario, func(b *testing.B) {
			in, err := Build(context.Background(), resolved(b, s))
			if err != nil {
				b.Fatal(err)
			}
			w := make([]float64, in.Dim())
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				in.Excess(w)
			}
		})
	}
}

// BenchmarkMonteCarloMoment is r̃_k at a new order k from a kept Monte
// Carlo sample of MCDraws draws: at orders with 2k an integer (the moment
// grid, and the usual k and 2k: powers by products and one square root)
// and at other orders (e^{k ln v}: two transcendental functions per draw).
func BenchmarkMonteCarloMoment(b *testing.B) {
	in, err := Build(context.Background(), resolved(b, ProblemDef{Scenario: LinRegT, D: 10}))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("half-integer", func(b *testing.B) {
		for i := range b.N {
			in.m.prof.eval(2 + float64(i%20)/2)
		}
	})
	b.Run("other", func(b *testing.B) {
		for i := range b.N {
			in.m.prof.eval(2 + float64(i%1000)/1000 + 1e-4)
		}
	})
}

// ---- one-pass solvers against the same-stream bare loop ----

// onePassSpec is the benchmarked command line at dimension d and n samples:
// linreg-t with ν = 5, T = 100 (dpso run --scenario linreg-t --class C
// --n N --d D --tail 5 --iters 100 --trials 1).
func onePassSpec(class theory.Class, d, n int) ProblemDef {
	return ProblemDef{Scenario: LinRegT, Class: class, D: d, N: n, Tail: 5}
}

// bigRun builds onePassSpec's linreg-t instance at d and returns it with a
// streamed dataset of n samples (the Spec's own n stays within the
// materialization cap the CLI applies today; a one-pass run streams any n).
func bigRun(b *testing.B, d, n int) (*Instance, solvers.Samples) {
	in, err := Build(context.Background(), resolved(b, onePassSpec(theory.SmoothSC, d, 100_000)))
	if err != nil {
		b.Fatal(err)
	}
	return in, &streamSamples{n: n, sdim: in.m.sdim, key: solvers.StreamKey(solvers.Seeded, 0, 0, "data"), draw: in.m.draw}
}

// readStream reads data exactly as the solvers do (solvers.Chunked: chunk
// after chunk, in blocks) and hands every block to use.
func readStream(data solvers.Samples, block int, use func(xs []float64, nb int)) {
	ch := data.(solvers.Chunked)
	n, sd, l := data.Len(), data.SampleDim(), ch.ChunkLen()
	rd := ch.NewChunkReader()
	buf := make([]float64, block*sd)
	for c := 0; c*l < n; c++ {
		rd.Seek(c)
		for {
			nb := rd.Read(buf)
			if nb == 0 {
				break
			}
			use(buf, nb)
		}
	}
}

// BenchmarkOnePassOverhead compares, on the solvers' own data stream (the
// same generator, the same chunks, the same blocks), three passes over
// n = 2·10⁵ samples of linreg-t at d = 10, 50, 200, interleaved in every
// op so that the machine's drift cancels in the ratios:
//
//   - bare: draw every sample and take one dot product ⟨w, a⟩ (the least
//     use of a sample);
//   - floor: draw, residual ⟨w, a⟩ − y, norm, clip and accumulate — the
//     least work any one-pass clipped-mean method does per sample,
//     hand-fused;
//   - the solver's whole run on one goroutine (Workers = 1): clipped-sgd,
//     acsa or prox-sgd with T = 100, noise and steps included.
//
// It reports ns per sample of each and the ratios solver/bare and
// solver/floor. Command:
//
//	go test ./scenarios -run '^$' -bench OnePassOverhead -count 5
func BenchmarkOnePassOverhead(b *testing.B) {
	const n = 200_000
	for _, d := range []int{10, 50, 200} {
		for _, c := range []struct {
			class  theory.Class
			solver string
		}{{theory.SmoothSC, "clipped-sgd"}, {theory.SmoothConvex, "acsa"}, {theory.PPL, "prox-sgd"}} {
			b.Run(fmt.Sprintf("d=%d/%s", d, c.solver), func(b *testing.B) {
				in, err := Build(context.Background(), resolved(b, onePassSpec(c.class, d, n)))
				if err != nil {
					b.Fatal(err)
				}
				s, _ := solvers.Lookup(c.solver)
				cfg := solvers.Config{Eps: 1, K: 2, Iters: 100, Workers: 1}
				par, err := s.Prescribe(in, n, cfg)
				if err != nil {
					b.Fatal(err)
				}
				data := in.Dataset(solvers.Seeded, 0, 0)
				sd := data.SampleDim()
				block := max(1, min(256, 4096/sd))
				w := make([]float64, d)
				for j := range w {
					w[j] = 0.05
				}
				sum := make([]float64, d)
				clip := par.Clip
				var tBare, tFloor, tSolver time.Duration
				var sink float64
				b.ResetTimer()
				for range b.N {
					t0 := time.Now()
					readStream(data, block, func(xs []float64, nb int) {
						for j := range nb {
							sink += floats.Dot(w, xs[j*sd:j*sd+d])
						}
					})
					t1 := time.Now()
					readStream(data, block, func(xs []float64, nb int) {
						for j := range nb {
							a := xs[j*sd : j*sd+d]
							r := floats.Dot(w, a) - xs[j*sd+d]
							norm := math.Abs(r) * math.Sqrt(floats.Dot(a, a))
							scale := 1.0
							if norm > clip {
								scale = clip / norm
							}
							floats.AddScaled(sum, scale*r/n, a)
						}
					})
					t2 := time.Now()
					if _, err := s.Run(context.Background(), in, data, cfg); err != nil {
						b.Fatal(err)
					}
					t3 := time.Now()
					tBare += t1.Sub(t0)
					tFloor += t2.Sub(t1)
					tSolver += t3.Sub(t2)
				}
				if math.IsNaN(sink + sum[0]) {
					b.Log(sink)
				}
				per := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / float64(b.N*n) }
				b.ReportMetric(per(tBare), "bare-ns/sample")
				b.ReportMetric(per(tFloor), "floor-ns/sample")
				b.ReportMetric(per(tSolver), "solver-ns/sample")
				b.ReportMetric(float64(tSolver)/float64(tBare), "solver/bare")
				b.ReportMetric(float64(tSolver)/float64(tFloor), "solver/floor")
			})
		}
	}
}

// BenchmarkOneRunScaling is one trial of clipped-sgd on linreg-t, n = 10⁷,
// d = 50, T = 100 (onePassSpec's command at n = 10⁷), streamed, with its
// oracle calls spread over 1, 2, 4, 8, 16 workers (up to GOMAXPROCS, and
// GOMAXPROCS itself): the speed-up of one run with the cores. The output
// is the same bits for every worker count (TestWorkersSameBits,
// TestRealSolversDeterministicAcrossWorkers). Command, on the machine to
// measure:
//
//	go test ./scenarios -run '^$' -bench OneRunScaling -benchtime 3x -count 3
func BenchmarkOneRunScaling(b *testing.B) {
	const n, d = 10_000_000, 50
	in, data := bigRun(b, d, n)
	s, _ := solvers.Lookup("clipped-sgd")
	ws := []int{}
	for w := 1; w < runtime.GOMAXPROCS(0); w *= 2 {
		ws = append(ws, w)
	}
	ws = append(ws, runtime.GOMAXPROCS(0))
	for _, w := range ws {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			cfg := solvers.Config{Eps: 1, K: 2, Iters: 100, Workers: w}
			for range b.N {
				if _, err := s.Run(context.Background(), in, data, cfg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
		})
	}
}

// BenchmarkStreamedRSS is one streamed trial at n = 10⁷, d = 50 (as
// BenchmarkOneRunScaling, all cores), for reading the process's peak
// resident memory: a one-pass run keeps O(d·workers) floats of data, so
// the peak is the Go runtime, the moment profile's Monte Carlo sample
// (8 MB) and the binary, not the 4 GB the samples would take. Command:
//
//	go test -c -o scen.test ./scenarios && /usr/bin/time -v ./scen.test -test.run '^$' -test.bench StreamedRSS -test.benchtime 1x
func BenchmarkStreamedRSS(b *testing.B) {
	const n, d = 10_000_000, 50
	in, data := bigRun(b, d, n)
	s, _ := solvers.Lookup("clipped-sgd")
	for range b.N {
		res, err := s.Run(context.Background(), in, data, solvers.Config{Eps: 1, K: 2, Iters: 100, Workers: runtime.GOMAXPROCS(0)})
		if err != nil {
			b.Fatal(err)
		}
		if res.GradEvals != n {
			b.Fatalf("read %d samples, want %d", res.GradEvals, n)
		}
	}
}

// BenchmarkLocalizedN is the localized method's full schedule (the work
// budget lifted to it) on hinge-t, d = 10, k = 4, at n = 1024, 2048, 4096,
// one trial on all cores: its time grows like its work Õ(n^{2+1/k})
// (solvers.Localized.ScheduleWork), reported as evaluations per second. Command:
//
//	go test ./scenarios -run '^$' -bench LocalizedN -benchtime 1x -count 3
func BenchmarkLocalizedN(b *testing.B) {
	for _, n := range []int{1024, 2048, 4096} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			work, _ := solvers.Localized{}.ScheduleWork(n, 4)
			in, err := Build(context.Background(), resolved(b, ProblemDef{Scenario: HingeT, N: n}))
			if err != nil {
				b.Fatal(err)
			}
			s, _ := solvers.Lookup("localized")
			cfg := solvers.Config{Eps: 1, K: 4, WorkBudget: int64(work) + 1, Workers: runtime.GOMAXPROCS(0)}
			var evals int64
			b.ResetTimer()
			for range b.N {
				res, err := s.Run(context.Background(), in, in.Dataset(solvers.Seeded, 0, 0), cfg)
				if err != nil {
					b.Fatal(err)
				}
				if res.BudgetBound {
					b.Fatal("the work budget binds")
				}
				evals = res.GradEvals
			}
			b.ReportMetric(float64(evals), "evals")
			b.ReportMetric(float64(evals)*float64(b.N)/b.Elapsed().Seconds(), "evals/s")
		})
	}
}

// BenchmarkDPSGDLoop is dp-sgd's loop on linreg-t at d = 10, n = 10⁵ and
// 10⁶ (materialized outside the timer; its defaults: B = 256, 5 epochs,
// the PLD accountant under replace-one), one worker: the noise
// multiplier's calibration and the run's accounting are cached by a first
// run outside the timer, so the time is the loop's (Poisson batches,
// gradients, clipping, noise, steps). It reports ns per gradient and
// gradients per second. Command:
//
//	go test ./scenarios -run '^$' -bench DPSGDLoop -benchtime 3x -count 3 -cpu 1
func BenchmarkDPSGDLoop(b *testing.B) {
	const d = 10
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			in, err := Build(context.Background(), resolved(b, ProblemDef{Scenario: LinRegT, D: d, N: n}))
			if err != nil {
				b.Fatal(err)
			}
			data := solvers.Materialize(in.Dataset(solvers.Seeded, 0, 0))
			s, _ := solvers.Lookup("dp-sgd")
			cfg := solvers.Config{Eps: 1, K: 2, Workers: 1}
			if _, err := s.Run(context.Background(), in, data, cfg); err != nil {
				b.Fatal(err)
			}
			var evals int64
			b.ResetTimer()
			for range b.N {
				res, err := s.Run(context.Background(), in, data, cfg)
				if err != nil {
					b.Fatal(err)
				}
				evals += res.GradEvals
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(evals), "ns/grad")
			b.ReportMetric(float64(evals)/b.Elapsed().Seconds(), "grads/s")
		})
	}
}

// BenchmarkSupMoment is one certified sup over the half circle at k = 3
// (γ_3 of contaminated, two Monte Carlo moments of MCDraws draws a point,
// and r_3 of linreg-t, one), on a fresh instance each op: the arc search's
// moments, the column samples drawn (and cached) before the timer.
//
//	go test ./scenarios -run '^$' -bench SupMoment -cpu 1 -count 5
func BenchmarkSupMoment(b *testing.B) {
	for _, c := range []struct {
		name string
		p    ProblemDef
		at   func(in *Instance) SupEntry
	}{
		{"contaminated-gamma3", ProblemDef{Scenario: Contaminated, D: 3, Params: map[string]float64{"size": 5}}, func(in *Instance) SupEntry { return in.Coordinate(3) }},
		{"linreg-t-r3", ProblemDef{Scenario: LinRegT, D: 3, Tail: 30, Params: map[string]float64{"cond": 9}}, func(in *Instance) SupEntry { return in.Noncentral(3) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			c.at(build(b, c.p))
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				in := build(b, c.p)
				b.StartTimer()
				if e := c.at(in); math.IsNaN(e.V) {
					b.Fatalf("%+v", e)
				}
			}
		})
	}
}
