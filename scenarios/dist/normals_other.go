//go:build !amd64

package dist

func normalsFast(r *Rand, x []float64) (n int, u uint64) { return normalsFastGeneric(r, x) }
