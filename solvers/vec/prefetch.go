package vec

// PrefetchRows asks the processor to bring the rows idx of xs into its
// caches, row i being xs[i·stride : (i+1)·stride]: a hint that reads and
// changes nothing (PREFETCHT0 of each of a row's cache lines on amd64,
// nothing elsewhere). A solver that reads rows at random (dp-sgd's Poisson
// batches of a dataset far larger than the caches) issues it as soon as it
// knows the rows, so that their cache misses overlap one another instead
// of each stalling the loads that follow it. It panics if a row lies
// outside xs.
func PrefetchRows(xs []float64, idx []int, stride int) {
	if stride <= 0 || len(idx) == 0 {
		return
	}
	rows := len(xs) / stride
	for _, i := range idx {
		if uint(i) >= uint(rows) {
			panic("vec: PrefetchRows: row out of range")
		}
	}
	prefetchRows(xs, idx, stride)
}
