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

// Aheader is implemented by the ScaledAdders that can ask for memory while
// they work on a block: SetAhead(xs) names what the caller reads next (the
// next block of a materialized dataset) for the next AddScaled alone, which
// prefetches it; a hint, which changes no result.
type Aheader interface {
	SetAhead(xs []float64)
}

// NormScaledAdder is a ScaledAdder that can be given the rows' norms too:
// AddScaledNorms(k, sq, rn, xs, stride) with rn[i] = math.Sqrt(sq[i])
// (kept with the data, computed once for all the runs that read it) is
// AddScaled(k, sq, xs, stride) bit for bit, without taking a square root
// a row.
type NormScaledAdder interface {
	ScaledAdder
	AddScaledNorms(k, sq, rn, xs []float64, stride int)
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

// scaledRows is the scratch of clipScaledRows for a block of rows.
type scaledRows struct {
	scratch []float64 // one formed vector (the exact path)
	coef    []float64 // each row's coefficient scale·inv·k_i
	norms   []float64 // each row's norm to record
	clipped []bool    // and whether clipping changed it
	// nclip is the number of the block's rows with a finite norm above C
	// and exact the number that took the exact path (whose norm may be
	// NaN or +Inf): with exact = 0 every norm is finite, and the block's
	// tally is len(k) rows of which nclip clipped (see countScaled).
	nclip, exact int
}

// clipScaledRows is clipAddScaled on each row i < len(k) of a block,
// a_i = xs[i·stride : i·stride+d], in order (‖a_i‖ read from rn[i] =
// √sq[i] where rn is not nil, the same bits as the root), with the rows' norms and
// clipped flags left in b.norms and b.clipped for the caller to record
// when keep is set (without it they are left only when b.exact > 0):
// the coefficients of the rows with a finite norm are added by one
// vec.AxpyRows (the same sums, row after row, without a call per row), a
// row that needs the exact path is added alone where it stands.
func (b *scaledRows) clipScaledRows(sum, k, sq, rn, xs []float64, stride, d int, c, inv float64, keep bool) {
	n := len(k)
	if cap(b.coef) < n {
		b.coef, b.norms, b.clipped = make([]float64, n), make([]float64, n), make([]bool, n)
	}
	if cap(b.scratch) < d {
		b.scratch = make([]float64, d)
	}
	coef, norms, clipped := b.coef[:n], b.norms[:n], b.clipped[:n]
	sq = sq[:n]
	sum = sum[:d]
	b.nclip, b.exact = 0, 0
	if !keep {
		// The common block, every row on the fast path: its
		// coefficients alone, in a loop without calls or stores of
		// what no one reads; else (nothing added yet) the loop below.
		var done, nclip int
		if rn != nil {
			done, nclip = coefNorms(coef, k, sq, rn[:n], c, inv)
		} else {
			done, nclip = coefRoots(coef, k, sq, c, inv)
		}
		if done == n {
			b.nclip = nclip
			vec.AxpyRows(sum, coef, xs, stride)
			return
		}
	}
	nclip := 0
	from := 0 // rows [from, i) wait for AxpyRows
	for i, ki := range k {
		ssq := sq[i]
		var norm float64
		switch {
		case !(ssq > 0x1p-900 && ssq < 0x1p+900):
			norm = math.Abs(ki) * vec.Norm(xs[i*stride:i*stride+d]) // tiny, huge or not finite
		case rn != nil:
			norm = math.Abs(ki) * rn[i]
		default:
			norm = math.Abs(ki) * math.Sqrt(ssq)
		}
		if !(norm <= math.MaxFloat64) { // NaN or +Inf: the exact path
			if from < i {
				vec.AxpyRows(sum, coef[from:i], xs[from*stride:], stride)
			}
			norms[i], clipped[i] = clipAddScaled(sum, b.scratch, ki, ssq, xs[i*stride:i*stride+d], c, inv)
			coef[i], from = 0, i+1
			b.exact++
			continue
		}
		// scale = min(1, c/‖z‖): 1 when ‖z‖ ≤ c (c/‖z‖ ≥ 1, also at
		// ‖z‖ = 0 or c = +Inf), c/‖z‖ otherwise — the same bits as
		// branching on ‖z‖ > c, without a branch the data decide.
		scale := min(1, c/norm)
		cl := norm > c
		nclip += b2i(cl)
		coef[i], norms[i], clipped[i] = scale*inv*ki, norm, cl
	}
	b.nclip = nclip
	if from < n {
		vec.AxpyRows(sum, coef[from:], xs[from*stride:], stride)
	}
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
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
	o    *ClipGaussian
	sum  []float64
	rows scaledRows
	st   partStats
}

func (p *cgPart) Add(z []float64) {
	p.st.next(p.o.Name(), p.o.d, len(z))
	p.st.record(clipAdd(p.sum, z, p.o.c, p.o.inv))
}

// AddScaled implements ScaledAdder.
func (p *cgPart) AddScaled(k, sq, xs []float64, stride int) { p.AddScaledNorms(k, sq, nil, xs, stride) }

// AddScaledNorms implements NormScaledAdder (rn nil: the roots taken here).
func (p *cgPart) AddScaledNorms(k, sq, rn, xs []float64, stride int) {
	d := p.o.d
	p.st.block(p.o.Name(), d, stride, len(k), len(xs))
	if rn != nil {
		rn = rn[:len(k)]
	}
	p.rows.clipScaledRows(p.sum, k, sq, rn, xs, stride, d, p.o.c, p.o.inv, p.st.detail)
	if !p.st.detail && p.rows.exact == 0 {
		p.st.t.countScaled(len(k), p.rows.nclip)
		return
	}
	p.st.recordRows(p.rows.norms[:len(k)], p.rows.clipped[:len(k)])
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
	o.AddScaledNorms(k, sq, nil, xs, stride)
}

// AddScaledNorms implements NormScaledAdder (rn nil: the roots taken here).
func (o *ClipGaussian) AddScaledNorms(k, sq, rn, xs []float64, stride int) {
	d := o.d
	o.stats.block(o.Name(), d, stride, len(k), len(xs))
	if rn != nil {
		rn = rn[:len(k)]
	}
	o.rows.clipScaledRows(o.sum, k, sq, rn, xs, stride, d, o.c, o.inv, !o.stats.noDetail)
	if o.stats.noDetail && o.rows.exact == 0 {
		o.stats.t.countScaled(len(k), o.rows.nclip)
		return
	}
	o.stats.recordRows(o.rows.norms[:len(k)], o.rows.clipped[:len(k)])
}

// ---- Coordinate ----

type coordPart struct {
	o      *Coordinate
	means  []float64 // m×d, only the rows of the groups in [lo, hi) are used
	lo, hi int
	next   int // group of the next vector
	st     partStats
	rows   coordRows // AddScaled's scratch
	ahead  []float64 // the next AddScaled's prefetch (SetAhead)
}

// SetAhead implements Aheader.
func (p *coordPart) SetAhead(xs []float64) { p.ahead = xs }

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
