//go:build !amd64

package oracle

// coefPairs does nothing off amd64: coefNorms's Go loop does every row.
func coefPairs(_, _, _, _ []float64, _, _ float64) (done, nclip int) { return 0, 0 }

// coefRootPairs does nothing off amd64: coefRoots's Go loop does every row.
func coefRootPairs(_, _, _ []float64, _, _ float64) (done, nclip int) { return 0, 0 }
