package oracle

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"dpso/solvers/vec"
)

// Part accumulates a consecutive range of one call's vectors, independently
// of the call's other parts, so that parts can be fed on several goroutines
// (see [Splitter]).
type Part interface {
	// Add feeds the next vector of the part's range, as [Oracle.Add] does.
	Add(z []float64)
}

// ScaledAdder is implemented by the oracles and parts that can be fed
// vectors in the factored form z = c·a without forming them (the
// per-sample gradient of a linear model is the loss's slope times the
// features), a block at a time: AddScaled(k, sq, xs, stride) feeds
// z_i = k[i]·a_i with a_i = xs[i·stride : i·stride+d] for i < len(k), given
// sq[i] = ‖a_i‖² as floats.Dot(a_i, a_i) sums it (the caller has it from the
// pass that computed ⟨w, a_i⟩, or stored with its data, so that the vector
// is read once more only to be accumulated). The result is that of
// Add(z_i) for each i up to rounding, with ‖z_i‖ computed as
// |k[i]|·√sq[i]; non-finite or overflowing cases are handled exactly as
// Add handles z_i.
type ScaledAdder interface {
	AddScaled(k, sq, xs []float64, stride int)
}

// Splitter is implemented by the oracles whose pre-noise estimate is a sum
// over the batch of terms that each depend on one vector and its position
// (ClipGaussian, Coordinate), so that a call's vectors can be fed in
// consecutive parts — for example on several goroutines — and the parts
// merged in order. The estimate then depends on where the parts begin and
// end (floating-point sums associate differently) but not on which
// goroutine fed which part. A part merged into an empty call gives the same
// bits as feeding its vectors with Add. (The shuffle oracles are not
// splitters: their local randomizers draw from one stream in feeding order.)
type Splitter interface {
	Oracle
	// NewPart allocates a part for this oracle; StartPart makes it reusable
	// across calls.
	NewPart() Part
	// StartPart resets p for the vectors at positions [lo, hi) (0-based, in
	// feeding order) of the current call, after a successful Begin.
	StartPart(p Part, lo, hi int)
	// MergePart adds a part fed with all its hi − lo vectors. Parts are
	// merged in increasing order of position and cover [0, s) once; a call
	// is fed either with Add or with parts, not both.
	MergePart(p Part)
}

// clipAdd adds inv·Π_c(z) to sum and returns the norm to record and whether
// z was clipped; a z with a non-finite entry adds nothing and returns a NaN
// norm.
func clipAdd(sum, z []float64, c, inv float64) (norm float64, clipped bool) {
	scale, norm, ok := clipScale(z, c)
	if !ok {
		return math.NaN(), false
	}
	vec.Axpy(scale*inv, z, sum)
	return norm, norm > c
}

// clipAddScaled is clipAdd of z = k·a with ‖z‖ = |k|·‖a‖, ssq = ‖a‖² as
// floats.Dot sums it; the rare cases where that product is not a finite
// number (a non-finite k or a, an overflow) form z in scratch and take
// clipAdd's exact path.
func clipAddScaled(sum, scratch []float64, k, ssq float64, a []float64, c, inv float64) (norm float64, clipped bool) {
	if ssq > 0x1p-900 && ssq < 0x1p+900 {
		norm = math.Abs(k) * math.Sqrt(ssq)
	} else {
		norm = math.Abs(k) * vec.Norm(a) // tiny, huge or not finite
	}
	if !(norm <= math.MaxFloat64) { // NaN or +Inf
		z := scratch[:len(a)]
		for j, v := range a {
			z[j] = k * v
		}
		return clipAdd(sum, z, c, inv)
	}
	scale := 1.0
	if norm > c {
		scale = c / norm
	}
	vec.Axpy(scale*inv*k, a, sum)
	return norm, norm > c
}

// coordAdd adds the coordinate-wise clipped z, divided by its group's size,
// to its group's row of means; it returns the norm to record (NaN when z is
// not finite: nothing added) and whether any coordinate was clipped.
func coordAdd(row, z []float64, tau, inv float64) (norm float64, clipped bool) {
	norm, ok := statNorm(z)
	if !ok {
		return norm, false
	}
	return norm, clipCoordsAdd(row, z, tau, inv)
}

// clipCoordsAdd adds inv times z clipped to [−τ, τ] coordinate by
// coordinate to row and reports whether any coordinate was clipped.
func clipCoordsAdd(row, z []float64, tau, inv float64) (clipped bool) {
	row = row[:len(z)]
	for j, v := range z {
		if v > tau {
			v, clipped = tau, true
		} else if v < -tau {
			v, clipped = -tau, true
		}
		row[j] += v * inv
	}
	return clipped
}

// ---- ClipGaussian ----

type cgPart struct {
	o       *ClipGaussian
	sum     []float64
	scratch []float64
	st      partStats
}

func (p *cgPart) Add(z []float64) {
	p.st.next(p.o.Name(), p.o.d, len(z))
	p.st.record(clipAdd(p.sum, z, p.o.c, p.o.inv))
}

// AddScaled implements ScaledAdder.
func (p *cgPart) AddScaled(k, sq, xs []float64, stride int) {
	d := p.o.d
	p.st.block(p.o.Name(), d, stride, len(k), len(xs))
	c, inv := p.o.c, p.o.inv
	sq = sq[:len(k)]
	for i, ki := range k {
		p.st.record(clipAddScaled(p.sum, p.scratch, ki, sq[i], xs[i*stride:i*stride+d], c, inv))
	}
}

// NewPart implements Splitter.
func (o *ClipGaussian) NewPart() Part { return &cgPart{o: o} }

// StartPart implements Splitter.
func (o *ClipGaussian) StartPart(p Part, lo, hi int) {
	cp := p.(*cgPart)
	if !o.stats.ready || lo < 0 || hi < lo || hi > o.s {
		panic(fmt.Sprintf("oracle %s: part [%d, %d) outside the call (s = %d, ready %v)", o.Name(), lo, hi, o.s, o.stats.ready))
	}
	cp.sum = resize(cp.sum, o.d)
	if cap(cp.scratch) < o.d {
		cp.scratch = make([]float64, o.d)
	}
	cp.st.reset(hi-lo, !o.stats.noDetail)
}

// MergePart implements Splitter.
func (o *ClipGaussian) MergePart(p Part) {
	cp := p.(*cgPart)
	if cp.st.t.size != cp.st.n {
		panic(fmt.Sprintf("oracle %s: part merged after %d of its %d vectors", o.Name(), cp.st.t.size, cp.st.n))
	}
	o.stats.merge(o.Name(), &cp.st)
	floats.Add(o.sum, cp.sum)
}

// AddScaled implements ScaledAdder.
func (o *ClipGaussian) AddScaled(k, sq, xs []float64, stride int) {
	d := o.d
	o.stats.block(o.Name(), d, stride, len(k), len(xs))
	if cap(o.scratch) < d {
		o.scratch = make([]float64, d)
	}
	sq = sq[:len(k)]
	for i, ki := range k {
		o.stats.record(clipAddScaled(o.sum, o.scratch, ki, sq[i], xs[i*stride:i*stride+d], o.c, o.inv))
	}
}

// ---- Coordinate ----

type coordPart struct {
	o      *Coordinate
	means  []float64 // m×d, only the rows of the groups in [lo, hi) are used
	lo, hi int
	next   int // group of the next vector
	st     partStats
}

func (p *coordPart) Add(z []float64) {
	o := p.o
	p.st.next(o.Name(), o.d, len(z))
	g := p.next
	if p.next++; p.next == o.lay.m {
		p.next = 0
	}
	inv := 1 / float64(o.lay.size(g))
	p.st.record(coordAdd(p.means[g*o.d:(g+1)*o.d], z, o.tau, inv))
}

// NewPart implements Splitter.
func (o *Coordinate) NewPart() Part { return &coordPart{o: o} }

// StartPart implements Splitter: only the rows of the groups that the
// positions [lo, hi) fall in (min(hi − lo, m) of them) are cleared.
func (o *Coordinate) StartPart(p Part, lo, hi int) {
	cp := p.(*coordPart)
	if !o.stats.ready || lo < 0 || hi < lo || hi > o.s {
		panic(fmt.Sprintf("oracle %s: part [%d, %d) outside the call (s = %d, ready %v)", o.Name(), lo, hi, o.s, o.stats.ready))
	}
	m, d := o.lay.m, o.d
	if cap(cp.means) < m*d {
		cp.means = make([]float64, m*d)
	}
	cp.means = cp.means[:m*d]
	cp.lo, cp.hi, cp.next = lo, hi, lo%m
	cp.forGroups(func(g int) { clear(cp.means[g*d : (g+1)*d]) })
	cp.st.reset(hi-lo, !o.stats.noDetail)
}

// forGroups calls f for each group the part's positions fall in.
func (p *coordPart) forGroups(f func(g int)) {
	m := p.o.lay.m
	n := min(p.hi-p.lo, m)
	g := p.lo % m
	for range n {
		f(g)
		if g++; g == m {
			g = 0
		}
	}
}

// MergePart implements Splitter.
func (o *Coordinate) MergePart(p Part) {
	cp := p.(*coordPart)
	if cp.st.t.size != cp.st.n {
		panic(fmt.Sprintf("oracle %s: part merged after %d of its %d vectors", o.Name(), cp.st.t.size, cp.st.n))
	}
	o.stats.merge(o.Name(), &cp.st)
	d := o.d
	cp.forGroups(func(g int) { floats.Add(o.means[g*d:(g+1)*d], cp.means[g*d:(g+1)*d]) })
	// Add and parts are not mixed, so the layout's counter is not used;
	// keep it consistent anyway.
	o.lay.next = cp.hi % o.lay.m
}
