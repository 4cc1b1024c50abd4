package dist

// normalsFast is normalsFastGeneric in assembly.
//
//go:noescape
func normalsFast(r *Rand, x []float64) (n int, u uint64)
