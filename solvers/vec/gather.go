package vec

// GatherGroup is how many rows GatherRows asks for at a time.
const GatherGroup = 8

// GatherRows copies the rows idx of xs (row i being xs[i·stride :
// (i+1)·stride]) one after the other into dst[:len(idx)·stride] and
// returns that slice. Before it copies the j-th row, for j a multiple of
// GatherGroup, it asks for the rows next[j : j+GatherGroup] (the
// PrefetchRows hint; those of them that next has). A caller reading rows
// at random (dp-sgd's Poisson batches) passes as next the rows it will
// gather a few blocks later: the requests go out a few rows at a time,
// spread between the copies, instead of a whole block's at once, so that
// the processor keeps its misses in flight without a queue of requests
// stalling the copies behind it. The copies are exact; next changes
// nothing but timing. It panics if a row of idx or next lies outside xs
// or dst is too short.
func GatherRows(dst, xs []float64, idx, next []int, stride int) []float64 {
	if stride <= 0 || len(idx) == 0 {
		return dst[:0]
	}
	rows := len(xs) / stride
	for _, i := range idx {
		if uint(i) >= uint(rows) {
			panic("vec: GatherRows: row out of range")
		}
	}
	for _, i := range next {
		if uint(i) >= uint(rows) {
			panic("vec: GatherRows: row out of range")
		}
	}
	out := dst[:len(idx)*stride]
	for j, i := range idx {
		if j%GatherGroup == 0 && j < len(next) {
			prefetchRows(xs, next[j:min(j+GatherGroup, len(next))], stride)
		}
		copy(out[j*stride:(j+1)*stride], xs[i*stride:(i+1)*stride])
	}
	return out
}
