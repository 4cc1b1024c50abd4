package oracle

import (
	"math"

	"dpso/solvers/vec"
)

// coordRows is the scratch of the coordinate-wise oracles' AddScaled for
// a block of rows.
type coordRows struct {
	z       []float64 // one row's z = k·a
	norms   []float64 // each row's norm to record
	clipped []bool    // and whether clipping changed a coordinate
}

// add feeds each row i < len(k) of a block, z_i = k[i]·a_i with
// a_i = xs[i·stride : i·stride+d], to the running group means as coordAdd
// feeds z_i, the groups taken in turn from next (the group of the block's
// first row; the next block's is returned). z_i is formed once, in a
// scratch row, to the same bits as the caller's gradient k·a would be, so
// the means are those of Add(z_i); a z_i with a non-finite entry adds
// nothing. The rows' norms (NaN where z_i is not finite) and clipped flags
// are left in b.norms and b.clipped for the caller to record: with detail,
// ‖z_i‖ = |k_i|·√sq[i] as [ScaledAdder] computes it (vec.Norm(z_i) where
// that is not a finite number, math.MaxFloat64 where it overflows, as
// statNorm records it); without, any finite value, as only its finiteness
// is counted.
func (b *coordRows) add(means []float64, lay groupLayout, next int, k, sq, xs []float64, stride, d int, tau float64, detail bool) int {
	n := len(k)
	if cap(b.norms) < n {
		b.norms, b.clipped = make([]float64, n), make([]bool, n)
	}
	if cap(b.z) < d {
		b.z = make([]float64, d)
	}
	norms, clipped, z := b.norms[:n], b.clipped[:n], b.z[:d]
	sq = sq[:n]
	for i, ki := range k {
		a := xs[i*stride : i*stride+d]
		g := next
		if next++; next == lay.m {
			next = 0
		}
		var nan float64 // ±0, or NaN when some k·a_j is not finite
		for j, v := range a {
			zj := ki * v
			z[j] = zj
			nan += zj * 0
		}
		if nan != 0 {
			norms[i], clipped[i] = math.NaN(), false
			continue
		}
		clipped[i] = clipCoordsAdd(means[g*d:(g+1)*d], z, tau, 1/float64(lay.size(g)))
		norm := 0.0
		if detail {
			if ssq := sq[i]; ssq > 0x1p-900 && ssq < 0x1p+900 {
				norm = math.Abs(ki) * math.Sqrt(ssq)
			} else if norm = vec.Norm(z); !(norm <= math.MaxFloat64) {
				norm = math.MaxFloat64 // finite z whose norm overflows
			}
		}
		norms[i] = norm
	}
	return next
}

// AddScaled implements ScaledAdder.
func (o *Coordinate) AddScaled(k, sq, xs []float64, stride int) {
	d := o.d
	o.stats.block(o.Name(), d, stride, len(k), len(xs))
	o.lay.next = o.rows.add(o.means, o.lay, o.lay.next, k, sq, xs, stride, d, o.tau, !o.stats.noDetail)
	o.stats.recordRows(o.rows.norms[:len(k)], o.rows.clipped[:len(k)])
}

// AddScaled implements ScaledAdder.
func (p *coordPart) AddScaled(k, sq, xs []float64, stride int) {
	o := p.o
	d := o.d
	p.st.block(o.Name(), d, stride, len(k), len(xs))
	p.next = p.rows.add(p.means, o.lay, p.next, k, sq, xs, stride, d, o.tau, p.st.detail)
	p.st.recordRows(p.rows.norms[:len(k)], p.rows.clipped[:len(k)])
}
