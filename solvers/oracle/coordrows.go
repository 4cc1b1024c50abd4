package oracle

import (
	"math"

	"dpso/solvers/vec"
)

// coordRows is the scratch of the coordinate-wise oracles' AddScaled for
// a block of rows.
type coordRows struct {
	z       []float64 // one row's z = k·a (a norm's exact path)
	off     []int     // each row's group mean, as an offset into the means
	inv     []float64 // and 1/|G_g| of its group
	flag    []uint8   // vec.ClampAddRows's verdict on each row
	norms   []float64 // each row's norm to record
	clipped []bool    // and whether clipping changed a coordinate
}

// add feeds each row i < len(k) of a block, z_i = k[i]·a_i with
// a_i = xs[i·stride : i·stride+d], to the running group means as coordAdd
// feeds z_i, the groups taken in turn from next (the group of the block's
// first row; the next block's is returned), in one vec.ClampAddRows: the
// same products k[i]·a_ij, clamped to [−τ, τ], divided by the group's
// size and added in the same order, so the means are those of Add(z_i);
// a z_i with a non-finite entry adds nothing. The rows' norms (NaN where
// z_i is not finite) and clipped flags are left in b.norms and b.clipped
// for the caller to record. A row whose products vec.FiniteScaled proves
// finite from k[i] and sq[i] is not tested entry by entry, and the kernel
// prefetches ahead (the caller's next block, [Aheader]; nil for none)
// while it works. With detail, ‖z_i‖ = |k_i|·√sq[i] as
// [ScaledAdder] computes it (vec.Norm(z_i) where that is not a finite
// number, math.MaxFloat64 where it overflows, as statNorm records it);
// without, any finite value, as only its finiteness is counted.
func (b *coordRows) add(means []float64, lay groupLayout, next int, k, sq, xs []float64, stride, d int, tau float64, detail bool, ahead []float64) int {
	n := len(k)
	if cap(b.norms) < n {
		b.norms, b.clipped = make([]float64, n), make([]bool, n)
		b.off, b.inv, b.flag = make([]int, n), make([]float64, n), make([]uint8, n)
	}
	if cap(b.z) < d {
		b.z = make([]float64, d)
	}
	norms, clipped, off, inv, flag := b.norms[:n], b.clipped[:n], b.off[:n], b.inv[:n], b.flag[:n]
	sq = sq[:n]
	big, small := 1/float64(lay.q+1), 1/float64(lay.q) // 1/|G_g| for g < r and g ≥ r
	for i := range off {
		off[i], inv[i] = next*d, small
		if next < lay.r {
			inv[i] = big
		}
		if next++; next == lay.m {
			next = 0
		}
		flag[i] = 0
		if vec.FiniteScaled(k[i], sq[i]) {
			flag[i] = 3
		}
	}
	vec.ClampAddRows(means, off, inv, k, xs, stride, d, tau, flag, ahead)
	for i, f := range flag {
		if f == 2 {
			norms[i], clipped[i] = math.NaN(), false
			continue
		}
		clipped[i] = f == 1
		norm := 0.0
		if detail {
			ki := k[i]
			if ssq := sq[i]; ssq > 0x1p-900 && ssq < 0x1p+900 {
				norm = math.Abs(ki) * math.Sqrt(ssq)
			} else {
				z := b.z[:d]
				for j, v := range xs[i*stride : i*stride+d] {
					z[j] = ki * v
				}
				if norm = vec.Norm(z); !(norm <= math.MaxFloat64) {
					norm = math.MaxFloat64 // finite z whose norm overflows
				}
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
	o.lay.next = o.rows.add(o.means, o.lay, o.lay.next, k, sq, xs, stride, d, o.tau, !o.stats.noDetail, o.ahead)
	o.ahead = nil
	o.stats.recordRows(o.rows.norms[:len(k)], o.rows.clipped[:len(k)])
}

// AddScaled implements ScaledAdder.
func (p *coordPart) AddScaled(k, sq, xs []float64, stride int) {
	o := p.o
	d := o.d
	p.st.block(o.Name(), d, stride, len(k), len(xs))
	p.next = p.rows.add(p.means, o.lay, p.next, k, sq, xs, stride, d, o.tau, p.st.detail, p.ahead)
	p.ahead = nil
	p.st.recordRows(p.rows.norms[:len(k)], p.rows.clipped[:len(k)])
}
