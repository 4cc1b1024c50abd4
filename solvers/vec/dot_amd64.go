package vec

// dotSq is dotSqGeneric in SSE2 assembly; len(w) = len(a).
//
//go:noescape
func dotSq(w, a []float64) (wa, aa float64)

// scaleDot is scaleDotGeneric in SSE2 assembly; len(w) = len(a).
//
//go:noescape
func scaleDot(c float64, a, w []float64) float64

// axpy is axpyGeneric in SSE2 assembly; len(y) = len(x).
//
//go:noescape
func axpy(c float64, x, y []float64)
