//go:build !amd64

package vec

func prefetchRows([]float64, []int, int) {}
