package oracle

// coefPairs is coefNorms's loop in SSE2 assembly, two rows at a time, up
// to the first pair with a row off the fast path; coef, sq and rn are as
// long as k.
//
//go:noescape
func coefPairs(coef, k, sq, rn []float64, c, inv float64) (done, nclip int)

// coefRootPairs is coefRoots's loop in SSE2 assembly, two rows at a time,
// up to the first pair with a row off the fast path; coef and sq are as
// long as k.
//
//go:noescape
func coefRootPairs(coef, k, sq []float64, c, inv float64) (done, nclip int)
