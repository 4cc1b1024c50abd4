package oracle

import (
	"math"

	"dpso/solvers/vec"
)

// coordRows is the scratch of the coordinate-wise oracles' AddScaled for
// a block of rows.
type coordRows struct {
	z       []float64 // one row's z = k·a (a norm's exact path)
	flag    []uint8   // vec.ClampAddRows's verdict on each row
	norms   []float64 // each row's norm to record
	clipped []bool    // and whether clipping changed a coordinate
	// Without detail: the block's rows whose z_i is not finite, and those
	// clipped.
	nonFinite, nclip int
	// off[j] is the offset of group j mod m's mean in the means and inv[j]
	// 1/|G_{j mod m}|, for j < m + the largest block yet: the block whose
	// first row goes to group g reads off[g:] and inv[g:] (the groups are
	// taken in turn), built once for the layout tab.
	off  []int
	inv  []float64
	tab  groupLayout // the layout of off and inv (next unused)
	tabD int         // and the dimension
}

// groups returns the destinations of n rows taken in turn from group
// next: each row's mean as an offset into the means, and 1/|G_g| of its
// group.
func (b *coordRows) groups(lay groupLayout, next, n, d int) (off []int, inv []float64) {
	lay.next = 0
	if lay != b.tab || d != b.tabD || len(b.off) < lay.m+n {
		size := lay.m + max(n, len(b.off)-lay.m)
		if cap(b.off) < size {
			b.off, b.inv = make([]int, size), make([]float64, size)
		}
		b.off, b.inv = b.off[:size], b.inv[:size]
		big, small := 1/float64(lay.q+1), 1/float64(lay.q) // 1/|G_g| for g < r and g ≥ r
		for j := range b.off {
			g := j % lay.m
			b.off[j], b.inv[j] = g*d, small
			if g < lay.r {
				b.inv[j] = big
			}
		}
		b.tab, b.tabD = lay, d
	}
	return b.off[next : next+n], b.inv[next : next+n]
}

// add feeds each row i < len(k) of a block, z_i = k[i]·a_i with
// a_i = xs[i·stride : i·stride+d], to the running group means as coordAdd
// feeds z_i, the groups taken in turn from next (the group of the block's
// first row; the next block's is returned), in one vec.ClampAddRows: the
// same products k[i]·a_ij, clamped to [−τ, τ], divided by the group's
// size and added in the same order, so the means are those of Add(z_i);
// a z_i with a non-finite entry adds nothing. The rows' norms (NaN where
// z_i is not finite) and clipped flags are left in b.norms and b.clipped
// for the caller to record; without detail they are not, and b.nonFinite
// and b.nclip count the rows whose z_i is not finite and those clipped
// (what the norms and flags would tally). A row whose products vec.FiniteScaledFlag proves
// finite from k[i] and sq[i] is not tested entry by entry, and the kernel
// prefetches ahead (the caller's next block, [Aheader]; nil for none)
// while it works. With detail, ‖z_i‖ = |k_i|·√sq[i] as
// [ScaledAdder] computes it (vec.Norm(z_i) where that is not a finite
// number, math.MaxFloat64 where it overflows, as statNorm records it).
func (b *coordRows) add(means []float64, lay groupLayout, next int, k, sq, xs []float64, stride, d int, tau float64, detail bool, ahead []float64) int {
	n := len(k)
	if cap(b.norms) < n {
		b.norms, b.clipped, b.flag = make([]float64, n), make([]bool, n), make([]uint8, n)
	}
	if cap(b.z) < d {
		b.z = make([]float64, d)
	}
	norms, clipped, flag := b.norms[:n], b.clipped[:n], b.flag[:n]
	off, inv := b.groups(lay, next, n, d)
	next = (next + n) % lay.m
	sq = sq[:n]
	k = k[:n]
	for i, ki := range k {
		flag[i] = vec.FiniteScaledFlag(ki, sq[i])
	}
	vec.ClampAddRows(means, off, inv, k, xs, stride, d, tau, flag, ahead)
	if !detail {
		// Rows by flag (0, 1 or 2 after the kernel), counted without a
		// branch: whether a row clips is data.
		b.nclip, b.nonFinite = vec.ClampFlagCounts(flag)
		return next
	}
	for i, f := range flag {
		if f == 2 {
			norms[i], clipped[i] = math.NaN(), false
			continue
		}
		clipped[i] = f == 1
		ki := k[i]
		if ssq := sq[i]; ssq > 0x1p-900 && ssq < 0x1p+900 {
			norms[i] = math.Abs(ki) * math.Sqrt(ssq)
			continue
		}
		z := b.z[:d]
		for j, v := range xs[i*stride : i*stride+d] {
			z[j] = ki * v
		}
		if norms[i] = vec.Norm(z); !(norms[i] <= math.MaxFloat64) {
			norms[i] = math.MaxFloat64 // finite z whose norm overflows
		}
	}
	return next
}

// AddScaled implements ScaledAdder.
func (o *Coordinate) AddScaled(k, sq, xs []float64, stride int) {
	d := o.d
	o.stats.block(o.Name(), d, stride, len(k), len(xs))
	o.lay.next = o.rows.add(o.means, o.lay, o.lay.next, k, sq, xs, stride, d, o.tau, !o.stats.noDetail, o.ahead)
	o.ahead = nil
	if o.stats.noDetail {
		o.stats.t.countFlagged(len(k), o.rows.nonFinite, o.rows.nclip)
		return
	}
	o.stats.recordRows(o.rows.norms[:len(k)], o.rows.clipped[:len(k)])
}

// AddScaled implements ScaledAdder.
func (p *coordPart) AddScaled(k, sq, xs []float64, stride int) {
	o := p.o
	d := o.d
	p.st.block(o.Name(), d, stride, len(k), len(xs))
	p.next = p.rows.add(p.means, o.lay, p.next, k, sq, xs, stride, d, o.tau, p.st.detail, p.ahead)
	p.ahead = nil
	if !p.st.detail {
		p.st.t.countFlagged(len(k), p.rows.nonFinite, p.rows.nclip)
		return
	}
	p.st.recordRows(p.rows.norms[:len(k)], p.rows.clipped[:len(k)])
}
