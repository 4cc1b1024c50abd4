//go:build !amd64

package vec

func scaleDot(c float64, a, w []float64) float64     { return scaleDotGeneric(c, a, w) }
func axpy(c float64, x, y []float64)                 { axpyGeneric(c, x, y) }
func dotRows(dst, w, xs []float64, stride int)       { dotRowsGeneric(dst, w, xs, stride) }
func dotSqRows(dst, sq, w, xs []float64, stride int) { dotSqRowsGeneric(dst, sq, w, xs, stride) }
func axpyRows(y, coef, xs []float64, stride int)     { axpyRowsGeneric(y, coef, xs, stride) }

func clampAddRows(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, _ []float64) {
	clampAddRowsGeneric(y, off, inv, k, xs, stride, d, tau, flag)
}

func rowsDot(dst, w, xs []float64, stride int)   { dotRows(dst, w, xs, stride) }
func rowsAxpy(y, coef, xs []float64, stride int) { axpyRows(y, coef, xs, stride) }
func rowsClampAdd(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64) {
	clampAddRows(y, off, inv, k, xs, stride, d, tau, flag, ahead)
}
func rowsDotSq(dst, sq, w, xs []float64, stride int) { dotSqRows(dst, sq, w, xs, stride) }
