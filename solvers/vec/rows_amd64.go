package vec

import "golang.org/x/sys/cpu"

// hasAVX reports whether the processor and the operating system run AVX
// (the 256-bit registers saved across context switches).
var hasAVX = cpu.X86.HasAVX

// rowsDot is DotRows's kernel: dotRowsAVX where the processor has AVX,
// else dotRows (SSE2); the same bits either way.
func rowsDot(dst, w, xs []float64, stride int) {
	if hasAVX {
		dotRowsAVX(dst, w, xs, stride)
		return
	}
	dotRows(dst, w, xs, stride)
}

// rowsDotSq is DotSqRows's kernel: dotSqRowsAVX where the processor has
// AVX, else dotSqRows (SSE2); the same bits either way.
func rowsDotSq(dst, sq, w, xs []float64, stride int) {
	if hasAVX {
		dotSqRowsAVX(dst, sq, w, xs, stride)
		return
	}
	dotSqRows(dst, sq, w, xs, stride)
}

// rowsAxpy is AxpyRows's kernel: axpyRowsAVX where the processor has AVX,
// else axpyRows (SSE2); the same bits either way.
func rowsAxpy(y, coef, xs []float64, stride int) {
	if hasAVX {
		axpyRowsAVX(y, coef, xs, stride)
		return
	}
	axpyRows(y, coef, xs, stride)
}

// rowsClampAdd is ClampAddRows's kernel: clampAddRowsAVX where the
// processor has AVX, else clampAddRows (SSE2); the same bits either way.
func rowsClampAdd(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64) {
	if hasAVX {
		clampAddRowsAVX(y, off, inv, k, xs, stride, d, tau, flag, ahead)
		return
	}
	clampAddRows(y, off, inv, k, xs, stride, d, tau, flag, ahead)
}

// clampAddRowsAVX is clampAddRows in AVX assembly, four entries a step;
// the rows and destinations are in range, len(k) ≥ 1 and d ≥ 1.
//
//go:noescape
func clampAddRowsAVX(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64)

// dotRowsAVX is dotRowsGeneric in AVX assembly, two rows at a time; the
// rows are in range.
//
//go:noescape
func dotRowsAVX(dst, w, xs []float64, stride int)

// axpyRowsAVX is axpyRowsGeneric in AVX assembly, strips of 16, 8, 4, 2
// and 1 columns held in registers over every row; the rows are in range.
//
//go:noescape
func axpyRowsAVX(y, coef, xs []float64, stride int)

// dotSqRowsAVX is dotSqRowsGeneric in AVX assembly; the rows are in range.
//
//go:noescape
func dotSqRowsAVX(dst, sq, w, xs []float64, stride int)
