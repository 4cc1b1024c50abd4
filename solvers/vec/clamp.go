package vec

import "math"

// ClampAddRows is the coordinate-wise clipped accumulation of a block of
// scaled rows, z_i = k[i]·a_i with a_i = xs[i·stride : i·stride+d], each
// added to its own destination: for each row i < len(k) whose z_i is
// finite (every product k[i]·a_ij rounded, then tested),
//
//	y[off[i]+j] += inv[i]·Π_{[−τ,τ]}(z_ij),   j < d,
//
// each clamped entry multiplied by inv[i] and rounded before it is added;
// flag[i] is 0 when no entry was clamped, 1 when some was (|z_ij| > τ),
// and 2 when some z_ij is not finite (±Inf or NaN: nothing is added).
// flag[i] = 3 on entry says that the caller knows every z_ij to be finite
// (FiniteScaledFlag), and the kernel does not test it. τ may be +Inf (nothing
// is clamped). The rows' destinations may repeat (several rows of one
// group mean); rows are added in order. off, inv and flag hold at least
// len(k) entries. ahead, which may be nil, is memory the caller reads
// next (the next block of rows): the kernel asks for two cache lines of
// it before each row, so that it arrives while the block is worked on.
func ClampAddRows(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64) {
	n := len(k)
	checkRows(n, d, len(xs), stride)
	off, inv, flag = off[:n], inv[:n], flag[:n]
	hi := len(y) - d // the last destination row's offset; one compare a row
	if hi < 0 && n > 0 {
		panic("vec: destination row out of range")
	}
	for _, o := range off {
		if uint(o) > uint(hi) {
			panic("vec: destination row out of range")
		}
	}
	if n == 0 || d == 0 {
		clear(flag)
		return
	}
	rowsClampAdd(y, off, inv, k, xs, stride, d, tau, flag, ahead)
}

// FiniteScaledFlag is 3, ClampAddRows's flag for a row known finite,
// where 0 ≤ sq < 2⁹⁰⁰ and |k| < 2⁵⁰⁰, and 0 otherwise: every product
// k·a_j of a row a with ‖a‖² = sq (as floats.Dot sums it) is then finite,
// from sq and k alone — every |a_j| < 2⁴⁵⁰, so every |k·a_j| < 2⁹⁵⁰. 0
// says nothing (the row is then tested entry by entry); a negative sq
// gives 0. It is computed without a branch: the bits of |k| and of sq ≥ 0
// are below the bits of their bounds exactly when the numbers are below
// the bounds (NaN's bits are above every bound's).
func FiniteScaledFlag(k, sq float64) uint8 {
	const sqBound, kBound = 0x7830000000000000, 0x5f30000000000000 // bits of 2⁹⁰⁰ and 2⁵⁰⁰
	s := math.Float64bits(sq)
	a := math.Float64bits(k) &^ (1 << 63)
	// The top bit of bound − 1 − x is set where x ≥ bound (x < 2⁶³).
	over := ((sqBound-1-s)|(kBound-1-a))>>63 | s>>63
	return uint8(3 * (over ^ 1))
}

func clampAddRowsGeneric(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8) {
	for i, ki := range k {
		a := xs[i*stride : i*stride+d]
		finite := true
		for _, v := range a {
			if flag[i] == 3 { // known finite
				break
			}
			if z := float64(ki * v); z-z != 0 {
				finite = false
				break
			}
		}
		if !finite {
			flag[i] = 2
			continue
		}
		row := y[off[i] : off[i]+d]
		var f uint8
		for j, v := range a {
			z := float64(ki * v)
			if z > tau {
				z, f = tau, 1
			} else if z < -tau {
				z, f = -tau, 1
			}
			row[j] += float64(z * inv[i])
		}
		flag[i] = f
	}
}
