package scenarios

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"dpso/scenarios/dist"
	"dpso/solvers"
	"dpso/theory"
)

// dataRisks caches the empirical minimizations of user data, and
// dataGeometries where their minimizers lie.
var (
	dataRisks      = lazyCache[*sampleRisk]{max: 4, what: "the minimum F̂* of the data's empirical risk"}
	dataGeometries = lazyCache[*Geometry]{max: 4, what: "where the data's minimizers lie"}
)

// buildData builds the problem of user data: the per-sample loss of
// s.Loss on the file's rows x = (a, y), W = B(0, D/2), declared constants
// given by the user (or, with EstimateConstants, from the data: not private).
// F̂ is the empirical risk over every row of the file (the solver sees n of
// them, a fresh random subset per trial when n is below the row count);
// F̂* is certified as in newSampleRisk.
func buildData(ctx context.Context, s *ProblemDef) (*model, error) {
	t, err := loadCached(ctx, s.Data)
	if err != nil {
		return nil, err
	}
	d := t.Cols - 1
	if s.D != 0 && s.D != d {
		return nil, fieldErr("d", "d = %d, but %s has %d feature columns (the last column is the label)", s.D, theory.Quote(s.Data), d)
	}
	if s.N > t.Rows {
		return nil, fieldErr("n", "n = %d exceeds the %d rows of %s", s.N, t.Rows, theory.Quote(s.Data))
	}
	loss := s.Loss
	data := &solvers.Matrix{Data: t.Data, Dim: t.Cols}
	if loss.Classification() {
		// Labels must be ±1; 0/1 labels are mapped to −1/+1.
		bad, zero := -1, false
		for i := range t.Rows {
			switch y := t.Data[i*t.Cols+d]; y {
			case 1, -1:
			case 0:
				zero = true
			default:
				bad = i
			}
			if bad >= 0 {
				break
			}
		}
		if bad >= 0 {
			return nil, &DataError{Path: s.Data, Line: int(t.Lines[bad]), Col: t.Cols,
				Msg: fmt.Sprintf("label %s is not −1/+1 (or 0/1), as the %s loss needs", theory.FormatNumber(t.Data[bad*t.Cols+d]), loss)}
		}
		if zero {
			cp := append([]float64(nil), t.Data...)
			for i := range t.Rows {
				if cp[i*t.Cols+d] == 0 {
					cp[i*t.Cols+d] = -1
				}
			}
			data = &solvers.Matrix{Data: cp, Dim: t.Cols}
		}
	}
	R := s.Diam / 2
	l2, reg := l2Weights(s)
	obj := &glm{loss: loss.score(), d: d, l2: l2}
	m := &model{obj: obj, reg: reg, d: d, sdim: t.Cols, radius: R, data: data, betaF: math.NaN()}
	if err := checkFiniteRows(ctx, s.Data, t, data, obj, R); err != nil {
		return nil, err
	}
	rows, what := t.Rows, fmt.Sprintf("the %d rows", t.Rows)
	if s.Holdout > 0 {
		train, hold := splitHoldout(data, s.Holdout)
		if train.Len() < 2 || hold.Len() < 1 {
			return nil, fieldErr("holdout", "holding out %s of the %d rows of %s leaves %d rows to train on and %d held out; each side needs rows (at least 2 to train on, 1 held out)",
				theory.FormatNumber(s.Holdout), t.Rows, theory.Quote(s.Data), train.Len(), hold.Len())
		}
		m.data, m.holdout, data = train, hold, train
		rows, what = train.Len(), fmt.Sprintf("the %d training rows (of %d; %d held out)", train.Len(), t.Rows, hold.Len())
		m.notes = append(m.notes, fmt.Sprintf("%d of the %d rows (a held-out fraction of %s, a fixed pseudo-random choice that depends on the row count only) are held out: no solver reads them; the excess risk is measured on the other %d (in-sample), the held-out loss on them",
			hold.Len(), t.Rows, theory.FormatNumber(s.Holdout), train.Len()))
	}
	if s.N == 0 {
		s.N = rows
	}
	if s.N > rows {
		return nil, fieldErr("n", "n = %d exceeds %s of %s", s.N, what, theory.Quote(s.Data))
	}
	m.notes = append(m.notes, t.Notes()...)
	key := fmt.Sprintf("%s/%d/%p/obj=%s/reg=%+v/R=%g/holdout=%g", s.Data, t.Rows, t, m.obj.key(), m.reg, R, s.Holdout)
	risk, err := dataRisks.get(ctx, key, func(ctx context.Context) (*sampleRisk, error) {
		return newSampleRisk(ctx, m.obj, m.reg, data, R, Empirical,
			fmt.Sprintf("empirical risk over %s of %s (F̂* by L-BFGS over W, certified by its Frank–Wolfe gap)", what, theory.Name(s.Data)), nil)
	})
	if err != nil {
		return nil, err
	}
	m.risk = risk
	geo, err := dataGeometries.get(ctx, key, func(ctx context.Context) (*Geometry, error) {
		return dataGeometry(ctx, m, risk, data)
	})
	if err != nil {
		return nil, err
	}
	m.geometry = geo
	if note := geo.Note(); note != "" {
		m.notes = append(m.notes, note)
	}
	switch {
	case s.PrivateConstants:
		m.prof = userProfile(s)
		m.beta, m.mu = s.Beta, s.Mu
		if m.mu == 0 && s.Class.StronglyConvex() && !loss.scoreStronglyConvex() {
			m.mu = *s.Lambda2 // F is λ₂-strongly convex
			m.notes = append(m.notes, fmt.Sprintf("μ = λ₂ = %s (the ℓ2 term makes F λ₂-strongly convex)", theory.FormatNumber(m.mu)))
		}
	case s.EstimateConstants:
		if err := estimateConstants(m, s, loss); err != nil {
			return nil, err
		}
		m.notes = append(m.notes, "constants estimated from the data: this run is NOT private — the prescription itself reads the data")
	default:
		m.prof = userProfile(s)
		m.beta, m.mu = s.Beta, s.Mu
		if m.mu == 0 && s.Class.StronglyConvex() {
			m.mu = *s.Lambda2 // F is λ₂-strongly convex
			m.notes = append(m.notes, fmt.Sprintf("μ = λ₂ = %s (the ℓ2 term makes F λ₂-strongly convex)", theory.FormatNumber(m.mu)))
		}
		if s.R2 == 0 && s.Rk > 0 {
			m.notes = append(m.notes, "r̃_2 is taken as r̃_k (a valid bound: moments are non-decreasing in their order)")
		}
	}
	if s.N < rows {
		m.notes = append(m.notes, fmt.Sprintf("each trial runs on a random subset of n = %d of %s; the excess risk is measured on all of them", s.N, what))
	}
	return m, nil
}

// splitHoldout splits m's rows into those a run reads and those held out:
// a fraction f of the rows, chosen by a partial Fisher–Yates shuffle from a
// generator keyed by the row count and f only (public and reproducible: the
// choice does not depend on the data's values, so it costs no privacy).
// The training rows keep the file's order.
func splitHoldout(m *solvers.Matrix, f float64) (train, hold *solvers.Matrix) {
	rows := m.Len()
	h := int(math.Round(f * float64(rows)))
	var seed [32]byte
	key := sha256.Sum256(fmt.Appendf(nil, "dpso/holdout\x00%d\x00%x", rows, math.Float64bits(f)))
	copy(seed[:], key[:])
	r := rand.New(rand.NewChaCha8(seed))
	idx := make([]int, rows)
	for i := range idx {
		idx[i] = i
	}
	for i := range h {
		j := i + r.IntN(rows-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	held := make([]bool, rows)
	for _, i := range idx[:h] {
		held[i] = true
	}
	train = &solvers.Matrix{Dim: m.Dim, Data: make([]float64, 0, (rows-h)*m.Dim)}
	hold = &solvers.Matrix{Dim: m.Dim, Data: make([]float64, 0, h*m.Dim)}
	for i := range rows {
		if held[i] {
			hold.Data = append(hold.Data, m.Row(i)...)
		} else {
			train.Data = append(train.Data, m.Row(i)...)
		}
	}
	return train, hold
}

// userProfile is the moment profile declared by flags: r̃_j for the given
// orders, and for any other order j the smallest given bound of order ≥ j
// (Lyapunov: moments are non-decreasing in their order), +Inf when none.
func userProfile(s *ProblemDef) *profile {
	type given struct{ k, r float64 }
	var gs []given
	if s.R2 > 0 {
		gs = append(gs, given{2, s.R2})
	}
	if s.Rk > 0 && !math.IsInf(s.K, 1) {
		gs = append(gs, given{s.K, s.Rk})
	}
	if s.R2k > 0 && !math.IsInf(s.K, 1) {
		gs = append(gs, given{2 * s.K, s.R2k})
	}
	lf := math.Inf(1)
	if s.Lf > 0 {
		lf = s.Lf
	}
	return &profile{lf: lf, kmax: math.Inf(1), method: "user-given (orders without a given value: the smallest given bound of higher order)",
		eval: func(k float64) (float64, float64) {
			best := lf
			for _, g := range gs {
				if g.k >= k && g.r < best {
					best = g.r
				}
			}
			return best, 0
		}}
}

// estimateConstants sets the constants of user data from the data (not
// private): r̃_j = ((1/n)Σ G_i^j)^{1/j} and L_f = max G_i with
// G_i = sup_{w∈W}‖∇f(w, x_i)‖ — exact for the empirical distribution, the
// one whose risk is measured — and, for a smooth loss of curvature
// bounds c_min ≤ ℓ” ≤ c (scoreLoss.curvature, minCurvature), β =
// c·λ_max((1/n)AᵀA) + λ₂, β_f = c·max‖a_i‖² + λ₂ and μ =
// max(c_min·λ_min((1/n)AᵀA), 0) + λ₂ (μ = λ₂ where c_min = 0): for the
// squared loss c = c_min = 1, for the logistic loss c = ¼, c_min = 0.
func estimateConstants(m *model, s *ProblemDef, loss Loss) error {
	n := m.data.Len()
	gs := make([]float64, n)
	lf := 0.0
	for i := range n {
		gs[i] = m.obj.supGrad(m.data.Row(i), m.radius)
		lf = math.Max(lf, gs[i])
	}
	sample := newSampleOf(gs)
	m.prof = &profile{lf: lf, kmax: math.Inf(1), method: "estimated from the data (not private)",
		eval: func(k float64) (float64, float64) {
			mk, _ := sample.moment(k)
			return math.Pow(mk, 1/k), 0
		}}
	l2 := *s.Lambda2
	m.betaF = math.Inf(1) // hinge, absolute: not smooth
	if sl := loss.score(); loss.Smooth() {
		curv := sl.curvature()
		var maxA2 float64
		for i := range n {
			maxA2 = math.Max(maxA2, sqnorm(m.data.Row(i)[:m.d]))
		}
		m.betaF = maxA2*curv + l2
		d := m.d
		if d > 2000 {
			return fieldErr("estimate-constants", "estimating β and μ needs an eigen-decomposition of the d×d second-moment matrix, supported for d ≤ 2000 (d = %d); give beta and mu instead", d)
		}
		cov := mat.NewSymDense(d, nil)
		for i := range n {
			a := m.data.Row(i)[:d]
			cov.SymRankOne(cov, 1/float64(n), mat.NewVecDense(d, append([]float64(nil), a...)))
		}
		var eig mat.EigenSym
		if !eig.Factorize(cov, false) {
			return errors.New("scenarios: eigen-decomposition of the data's second-moment matrix failed")
		}
		vals := eig.Values(nil)
		lmin, lmax := vals[0], vals[len(vals)-1]
		m.beta, m.mu = lmax*curv+l2, l2
		if mc := sl.minCurvature(); mc > 0 {
			m.mu = math.Max(lmin*mc, 0) + l2
		}
		if s.Class == theory.PPL {
			m.beta -= l2 // F⁰ excludes f¹'s ℓ2 term
		}
	} else {
		m.mu = l2
	}
	return nil
}

// streamSamples is a scenario's dataset of one trial: n draws regenerated
// at every read (O(sample length) memory), in chunks of
// solvers.ChunkLenFor(sdim) samples. Chunk c is drawn by the scenario's
// sampler from its own xoshiro256++ generator (dist.Rand) whose state is
// chunkKey(key, c) = SHA-256(key, c), so the chunks can be generated
// independently — on several goroutines — and every read yields the same
// values (solvers.Chunked).
type streamSamples struct {
	n, sdim int
	key     [32]byte
	draw    func(r *dist.Rand, xs []float64) // the model's block sampler (model.draw)
}

// eachRow is the block sampler (see model.draw) that draws the rows of xs
// one after the other with draw, which writes one row (len sd).
func eachRow(sd int, draw func(r *dist.Rand, x []float64)) func(r *dist.Rand, xs []float64) {
	return func(r *dist.Rand, xs []float64) {
		for ; len(xs) >= sd; xs = xs[sd:] {
			draw(r, xs[:sd:sd])
		}
	}
}

func (s *streamSamples) Len() int       { return s.n }
func (s *streamSamples) SampleDim() int { return s.sdim }

// ChunkLen implements solvers.Chunked.
func (s *streamSamples) ChunkLen() int { return solvers.ChunkLenFor(s.sdim) }

// NewChunkReader implements solvers.Chunked.
func (s *streamSamples) NewChunkReader() solvers.ChunkReader { return &chunkReader{s: s} }

// Open reads the chunks in order.
func (s *streamSamples) Open() solvers.SampleReader {
	rd := &chunkReader{s: s}
	rd.Seek(0)
	return &seqReader{rd: rd}
}

// materialize generates the whole stream into a matrix, its chunks on up
// to workers goroutines (each at its own rows: the same matrix for any
// number of workers).
func (s *streamSamples) materialize(ctx context.Context, workers int) (*solvers.Matrix, error) {
	buf, err := solvers.MakeFloats(ctx, s.n*s.sdim)
	if err != nil {
		return nil, err
	}
	m := &solvers.Matrix{Data: buf, Dim: s.sdim}
	sd := s.sdim
	err = solvers.ParallelSum(ctx, workers, s.n, s.ChunkLen(), nil, func(lo, hi int, _ []float64) error {
		rd := &chunkReader{s: s}
		rd.Seek(lo / s.ChunkLen())
		if rd.Read(m.Data[lo*sd:hi*sd]) != hi-lo {
			return errors.New("scenarios: a stream chunk ended early (a bug)")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// cores is the number of goroutines for the one-off computations of a
// model (Monte Carlo moments, the evaluation sample, F*): every core. Their
// results are the same bits for any number (fixed chunks summed in order).
func cores() int { return runtime.GOMAXPROCS(0) }

// chunkKey is the generator state of chunk c of the stream with this key:
// SHA-256("dpso/chunk\x00", key, c).
func chunkKey(key [32]byte, c int) [32]byte {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(c))
	h.Write([]byte("dpso/chunk\x00"))
	h.Write(key[:])
	h.Write(b[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}

type chunkReader struct {
	s      *streamSamples
	r      dist.Rand
	c      int
	i, end int
}

func (r *chunkReader) Seek(c int) {
	l := r.s.ChunkLen()
	r.c = c
	r.i = min(c*l, r.s.n)
	r.end = min(r.i+l, r.s.n)
	r.r.Seed(chunkKey(r.s.key, c))
}

func (r *chunkReader) Read(buf []float64) int {
	sd := r.s.sdim
	k := min(len(buf)/sd, r.end-r.i)
	r.s.draw(&r.r, buf[:k*sd])
	r.i += k
	return k
}

// seqReader reads a chunked stream sample by sample, chunk after chunk.
type seqReader struct{ rd *chunkReader }

func (r *seqReader) Next(x []float64) bool {
	if r.rd.i == r.rd.end {
		if r.rd.end >= r.rd.s.n {
			return false
		}
		r.rd.Seek(r.rd.c + 1)
	}
	return r.rd.Read(x) == 1
}

// permSamples is user data of one trial: n rows of m in a random order. It
// is chunked like a Matrix of its rows (solvers.Chunked).
type permSamples struct {
	m    *solvers.Matrix
	perm []int32
}

func (p *permSamples) Len() int       { return len(p.perm) }
func (p *permSamples) SampleDim() int { return p.m.Dim }
func (p *permSamples) Open() solvers.SampleReader {
	return &permReader{p: p, end: len(p.perm)}
}

// ChunkLen implements solvers.Chunked.
func (p *permSamples) ChunkLen() int { return solvers.ChunkLenFor(p.m.Dim) }

// NewChunkReader implements solvers.Chunked.
func (p *permSamples) NewChunkReader() solvers.ChunkReader { return &permReader{p: p} }

type permReader struct {
	p      *permSamples
	i, end int
}

func (r *permReader) Next(x []float64) bool {
	if r.i >= len(r.p.perm) {
		return false
	}
	copy(x, r.p.m.Row(int(r.p.perm[r.i])))
	r.i++
	return true
}

func (r *permReader) Seek(c int) {
	l := r.p.ChunkLen()
	r.i = min(c*l, len(r.p.perm))
	r.end = min(r.i+l, len(r.p.perm))
}

func (r *permReader) Read(buf []float64) int {
	sd := r.p.m.Dim
	k := min(len(buf)/sd, r.end-r.i)
	for j := range k {
		copy(buf[j*sd:(j+1)*sd], r.p.m.Row(int(r.p.perm[r.i+j])))
	}
	r.i += k
	return k
}

// newPermSamples draws a uniformly random ordered subset of n of m's rows
// (a partial Fisher–Yates shuffle) from r.
func newPermSamples(m *solvers.Matrix, n int, r *rand.Rand) *permSamples {
	rows := m.Len()
	all := make([]int32, rows)
	for i := range all {
		all[i] = int32(i)
	}
	for i := range n {
		j := i + r.IntN(rows-i)
		all[i], all[j] = all[j], all[i]
	}
	return &permSamples{m: m, perm: all[:n:n]}
}
