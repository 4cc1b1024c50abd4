//go:build !linux

package solvers

// adviseHugePages does nothing outside Linux (see hugepages_linux.go).
func adviseHugePages([]float64) {}
