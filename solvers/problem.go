package solvers

import (
	"context"
	"math"
	"sync"

	"dpso/solvers/vec"
)

// Problem is what a solver needs to know about a stochastic optimization
// problem min_{w∈W} F(w) = E_x f(w, x).
//
// The domain is always the Euclidean ball W = B(0, D/2) of diameter D =
// Constants().D. For proximal-PL problems f(w, x) = f⁰(w, x) + f¹(w) with
// f¹ = [Regularizer] (plus the indicator of W); Grad returns the gradient of
// f⁰ only. For every other class Grad returns a (sub)gradient of the whole
// per-sample loss f(w, x).
//
// Implementations must be safe for concurrent use by several solvers (Grad
// must not mutate shared state) and Grad must not allocate.
type Problem interface {
	// Dim is the dimension d of w.
	Dim() int
	// Grad writes a (sub)gradient ∇_w f(w, x) (∇f⁰ for proximal-PL) into g.
	// len(g) = len(w) = Dim(); len(x) = the dataset's SampleDim(). The
	// result may be non-finite (heavy-tailed data): callers handle that.
	Grad(g, w, x []float64)
	// Regularizer is the non-smooth part f¹ of a proximal-PL loss; the zero
	// value means f¹ is only the indicator of W.
	Regularizer() Regularizer
	// Constants are the declared constants of the problem (public knowledge,
	// not estimated from the private sample).
	Constants() Constants
}

// Regularizer is f¹(w) = L1‖w‖₁ + (L2/2)‖w‖² + I_W(w) with W = B(0, R).
type Regularizer struct {
	L1 float64 // ℓ1 weight λ₁ ≥ 0
	L2 float64 // ℓ2 weight λ₂ ≥ 0
}

// Prox computes prox_{η f¹}(z) = argmin_y { η f¹(y) + ½‖y − z‖² } in place,
// for f¹ = L1‖·‖₁ + (L2/2)‖·‖² + I_{B(0,R)}.
//
// Coordinate-wise optimality of the Lagrangian gives
// y = S(z, ηλ₁) / (1 + ηλ₂ + ν) with S the soft threshold and ν ≥ 0 the
// multiplier of ‖y‖ ≤ R, so the prox is the soft threshold, then the
// shrinkage by 1 + ηλ₂, then the projection onto the ball centred at 0.
func (r Regularizer) Prox(z []float64, eta, radius float64) {
	t := eta * r.L1
	s := 1 / (1 + eta*r.L2)
	for i, v := range z {
		switch {
		case v > t:
			v -= t
		case v < -t:
			v += t
		default:
			v = 0
		}
		z[i] = v * s
	}
	vec.ProjectBall(z, radius)
}

// Value is f¹(w) without the indicator: L1‖w‖₁ + (L2/2)‖w‖².
func (r Regularizer) Value(w []float64) float64 {
	var l1, l2 float64
	for _, v := range w {
		l1 += math.Abs(v)
		l2 += v * v
	}
	return r.L1*l1 + r.L2/2*l2
}

// IsZero reports whether f¹ is only the indicator of W.
func (r Regularizer) IsZero() bool { return r.L1 == 0 && r.L2 == 0 }

// Constants are a problem's declared constants in the notation of the paper.
//
// Moment(k) is r̃_k = (E sup_{w∈W} ‖∇f(w, x)‖^k)^{1/k} of Assumption 1, for
// any k ≥ 2 (k = +Inf gives L_f); it returns +Inf where the moment does not
// exist. A zero Beta or Mu means the constant is not declared (the class does
// not need it).
type Constants struct {
	D      float64                 // diameter of W = B(0, D/2)
	Beta   float64                 // smoothness β of F (of F⁰ for proximal-PL)
	Mu     float64                 // strong convexity (or proximal-PL) parameter μ of F
	Lf     float64                 // worst-case Lipschitz parameter L_f, possibly +Inf
	Moment func(k float64) float64 // r̃_k; Moment(+Inf) = L_f
	// Noncentral, when not nil, is r_k = sup_{w∈W} (E‖∇f(w, x)‖^k)^{1/k}
	// of Assumption "ass:boundednoncentral" (r_k ≤ r̃_k; +Inf where it does
	// not exist, NaN where not known), read by the prescriptions under
	// AssumeNoncentral.
	Noncentral func(k float64) float64
	// Coord, when not nil, is γ_k^{1/k} with γ_k = sup_{w∈W} max_j
	// E|∂_j f(w, x) − ∂_j F(w)|^k, the coordinate-wise central moment of
	// Assumption "ass:coordinatewise" (Kamath, Liu & Zhang's), read by
	// klz-gd and by the prescriptions under AssumeCoordinatewise (+Inf
	// where it does not exist, NaN where not known; klz-gd then bounds it
	// by 2r̃_k, Minkowski's inequality, valid but loose by up to √d).
	Coord func(k float64) float64
	// GradSup is L = sup_{w∈W} ‖∇F(w)‖ (∇F⁰ for proximal-PL), or an upper
	// bound on it; NaN when not known. AssumeCoordinatewise reads it.
	GradSup float64
	// Affine: the loss is affine in w, so Beta = 0 is its declared
	// smoothness (not "undeclared").
	Affine bool
}

// Radius is the radius D/2 of W.
func (c Constants) Radius() float64 { return c.D / 2 }

// R returns r̃_k, with r̃_∞ = L_f, or NaN when no moment profile is declared.
func (c Constants) R(k float64) float64 {
	if math.IsInf(k, 1) {
		return c.Lf
	}
	if c.Moment == nil {
		return math.NaN()
	}
	return c.Moment(k)
}

// Samples is one trial's dataset x_0, …, x_{n−1}, each a vector of
// SampleDim() floats. Open may be called any number of times and every
// reader yields the same sequence, so that several solvers see the same
// draw (common random numbers) and one-pass solvers can stream it in O(d)
// memory. The order is the order in which solvers draw their batches
// "without replacement"; a dataset whose stored order is not random (user
// data) must be permuted by its implementation.
type Samples interface {
	Len() int
	SampleDim() int
	Open() SampleReader
}

// SampleReader reads a dataset in order.
type SampleReader interface {
	// Next writes the next sample into x (len(x) = SampleDim()) and reports
	// whether there was one. It must not allocate.
	Next(x []float64) bool
}

// Chunked is an optional interface of Samples whose samples come in fixed
// chunks of ChunkLen() consecutive samples (the last one may be shorter)
// that can be read independently of each other: chunk c holds the samples
// [c·L, min((c+1)·L, Len())), the same values Open yields there. Solvers
// read the chunks of a batch on several goroutines (Config.Workers) and
// combine per-chunk sums in chunk order, so that the result is the same
// bits for any number of workers. *Matrix implements it with
// ChunkLen() = ChunkLenFor(Dim).
type Chunked interface {
	ChunkLen() int
	// NewChunkReader returns a reader for chunks; each goroutine uses its
	// own. It is allocated once per run, not per chunk.
	NewChunkReader() ChunkReader
}

// ChunkReader reads the chunks of a Chunked dataset.
type ChunkReader interface {
	// Seek positions the reader at the first sample of chunk c.
	Seek(c int)
	// Read writes the next ⌊len(buf)/SampleDim()⌋ samples of the current
	// chunk, row after row, into buf, fewer when the chunk ends first, and
	// returns how many; 0 at the chunk's end. It must not allocate.
	Read(buf []float64) int
}

// ChunkLenFor is the chunk length dpso's datasets use for samples of sd
// floats: max(16, min(512, ⌊2¹⁷/sd⌋)) samples, so that reading or
// generating a chunk is a bounded piece of work (at most about 2¹⁷ floats,
// well under a millisecond) whatever the dimension, and a batch of 10⁴
// samples or more splits into enough chunks to keep 16 cores busy.
func ChunkLenFor(sd int) int { return max(16, min(512, (1<<17)/max(sd, 1))) }

// LinearLoss is an optional interface of a Problem whose per-sample loss
// depends on w only through the score ⟨w, a⟩ of the features
// a = x[:Dim()], plus an ℓ2 term:
//
//	f(w, x) = ℓ(⟨w, a⟩, x) + (λ/2)‖w‖²,   ∇f(w, x) = ℓ'(⟨w, a⟩, x)·a + λw,
//
// (linear, logistic, hinge and absolute-loss regression). Solvers then
// compute the per-sample gradients of a block of samples without forming
// them one by one through Grad: with λ = 0 the oracle is fed ℓ'·a in
// factored form (oracle.ScaledAdder). Grad must agree with it.
type LinearLoss interface {
	Problem
	// LinearModel reports whether Slopes and L2 describe this problem (a
	// type may be a linear model for some of its values only).
	LinearModel() bool
	// Slopes sets c[i] = ℓ'(s[i], x_i) for the samples x_i =
	// xs[i·sd:(i+1)·sd] of a block, given their scores s[i] = ⟨w, a_i⟩
	// (len(c) = len(s) = the block's number of samples). It must not
	// allocate. A (sub)gradient at a kink is any valid choice, the same as
	// Grad's.
	Slopes(c, s, xs []float64, sd int)
	// L2 is the weight λ ≥ 0 of the ℓ2 term inside the per-sample loss.
	L2() float64
}

// Matrix is a materialized dataset: sample i is Data[i*Dim:(i+1)*Dim].
// It implements [Samples].
type Matrix struct {
	Data []float64
	Dim  int
	// norms holds the rows' squared norms once a run has computed them,
	// for the runs after it (nil: not kept; a matrix materialize made,
	// whose rows do not change, keeps them).
	norms *rowNorms
}

// rowNorms is a matrix's ‖a_i‖² over the first d entries of every row,
// computed by the first run that asks (squaredNorms).
type rowNorms struct {
	mu sync.Mutex
	d  int
	sq []float64
	rn []float64 // ‖a_i‖ = math.Sqrt(sq[i]), once WarmSquaredNorms asked
}

// WarmSquaredNorms computes the squared norms ‖a_i‖² of the first d
// entries of every row now, where m keeps them (a dataset LoadDataset
// materialized), for every run that reads m after: a one-pass solver on
// a matrix reads them where they are kept instead of summing them in its
// own pass (the same bits: both are floats.Dot's sums), and their roots
// ‖a_i‖ (math.Sqrt), which the clip-gaussian oracle reads instead of
// taking a root a row in every run. Worth it where several runs read one
// matrix (a tuning search's grid points); a no-op where m does not keep
// them.
func (m *Matrix) WarmSquaredNorms(ctx context.Context, d int) error {
	if m.norms == nil {
		return nil
	}
	sq, err := m.squaredNorms(ctx, d)
	if err != nil {
		return err
	}
	c := m.norms
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rn != nil || c.d != d {
		return nil
	}
	rn := make([]float64, len(sq))
	for i, v := range sq {
		rn[i] = math.Sqrt(v)
	}
	c.rn = rn
	return nil
}

// keptNorms is the squared norms of the first d entries of the rows if
// m keeps them computed, else nil, and their roots if kept too, else nil.
func (m *Matrix) keptNorms(d int) (sq, rn []float64) {
	if m.norms == nil {
		return nil, nil
	}
	c := m.norms
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.d != d {
		return nil, nil
	}
	return c.sq, c.rn
}

// squaredNorms returns ‖a_i‖² (floats.Dot) of the first d entries of
// every row: computed once and kept where the matrix keeps them (a
// materialized draw, read by every multi-pass solver of a trial: each
// would otherwise sum them for its own run), computed afresh otherwise.
// Concurrent callers wait for the first; a cancelled computation is not
// kept.
func (m *Matrix) squaredNorms(ctx context.Context, d int) ([]float64, error) {
	if m.norms == nil {
		return sqNorms(ctx, m, d)
	}
	c := m.norms
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sq != nil && c.d == d {
		return c.sq, nil
	}
	sq, err := sqNorms(ctx, m, d)
	if err != nil {
		return nil, err
	}
	c.d, c.sq, c.rn = d, sq, nil
	return sq, nil
}

// Len is the number of samples.
func (m *Matrix) Len() int {
	if m.Dim == 0 {
		return 0
	}
	return len(m.Data) / m.Dim
}

// SampleDim is the length of one sample.
func (m *Matrix) SampleDim() int { return m.Dim }

// Row returns sample i without copying.
func (m *Matrix) Row(i int) []float64 { return m.Data[i*m.Dim : (i+1)*m.Dim : (i+1)*m.Dim] }

// Open returns a reader over the rows in order.
func (m *Matrix) Open() SampleReader { return &matrixReader{m: m} }

type matrixReader struct {
	m *Matrix
	i int
}

func (r *matrixReader) Next(x []float64) bool {
	if r.i >= r.m.Len() {
		return false
	}
	copy(x, r.m.Row(r.i))
	r.i++
	return true
}

// ChunkLen implements Chunked: ChunkLenFor(Dim).
func (m *Matrix) ChunkLen() int { return ChunkLenFor(m.Dim) }

// NewChunkReader implements Chunked.
func (m *Matrix) NewChunkReader() ChunkReader { return &matrixChunks{m: m} }

type matrixChunks struct {
	m      *Matrix
	i, end int // next row, end of the current chunk
}

func (r *matrixChunks) Seek(c int) {
	l := r.m.ChunkLen()
	r.i = min(c*l, r.m.Len())
	r.end = min(r.i+l, r.m.Len())
}

func (r *matrixChunks) Read(buf []float64) int {
	sd := r.m.Dim
	k := min(len(buf)/sd, r.end-r.i)
	copy(buf[:k*sd], r.m.Data[r.i*sd:(r.i+k)*sd])
	r.i += k
	return k
}

// Materialize returns s as a Matrix, reading it once if it is not one
// already. Multi-pass solvers call it; one-pass solvers stream instead.
func Materialize(s Samples) *Matrix {
	if m, ok := s.(*Matrix); ok {
		return m
	}
	n, sd := s.Len(), s.SampleDim()
	m := &Matrix{Data: make([]float64, n*sd), Dim: sd}
	r := s.Open()
	for i := 0; i < n; i++ {
		if !r.Next(m.Data[i*sd : (i+1)*sd]) {
			m.Data = m.Data[:i*sd]
			break
		}
	}
	return m
}

// AffineLoss is an optional interface of a Problem whose per-sample loss is
// affine in w, f(w, x) = ⟨b(x), w⟩ + c(x), so that its gradient
// ∇f(w, x) = b(x) does not depend on w (affine-hard's f = −⟨w, x⟩, the
// convex lower bound's instance). An oracle call over a batch then
// receives the same per-sample vectors at every iterate, and the solvers'
// runner feeds each batch of a materialized dataset once per clip
// threshold, releasing the calls that repeat it from the oracle's saved
// state with fresh noise (oracle.Memoizer): the same bits as feeding it
// again.
type AffineLoss interface {
	Problem
	// AffineInW reports whether Grad(g, w, x) writes the same g, bit for
	// bit, for every w (a type may be affine for some of its values only),
	// and, when the problem is also a [LinearLoss] with LinearModel, whether
	// Slopes writes the same slopes whatever the scores.
	AffineInW() bool
}
