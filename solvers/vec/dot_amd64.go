package vec

// scaleDot is scaleDotGeneric in SSE2 assembly; len(w) = len(a).
//
//go:noescape
func scaleDot(c float64, a, w []float64) float64

// axpy is axpyGeneric in SSE2 assembly; len(y) = len(x).
//
//go:noescape
func axpy(c float64, x, y []float64)

// dotRows is dotRowsGeneric in SSE2 assembly; the rows are in range.
//
//go:noescape
func dotRows(dst, w, xs []float64, stride int)

// dotSqRows is dotSqRowsGeneric in SSE2 assembly; the rows are in range.
//
//go:noescape
func dotSqRows(dst, sq, w, xs []float64, stride int)

// axpyRows is axpyRowsGeneric in SSE2 assembly; the rows are in range. It
// goes a strip of 8 columns at a time (then 4, then the last 1–3 one by
// one, as axpy's scalar tail), holding the strip of y in registers over
// every row, so that no row waits for the previous row's store of y: the
// same operations on each entry, in the same order. The rows are read
// once a strip (callers pass a block of rows that stays in cache).
//
//go:noescape
func axpyRows(y, coef, xs []float64, stride int)

// clampAddRows is clampAddRowsGeneric in SSE2 assembly, which also
// prefetches ahead; the rows and destinations are in range, len(k) ≥ 1
// and d ≥ 1.
//
//go:noescape
func clampAddRows(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64)
