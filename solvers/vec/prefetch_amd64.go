package vec

// prefetchRows is PrefetchRows' PREFETCHT0 loop (prefetch_amd64.s); the
// rows are in range.
//
//go:noescape
func prefetchRows(xs []float64, idx []int, stride int)
