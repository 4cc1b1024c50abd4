//go:build !linux

package solvers

// threadCPU is -1 outside Linux: the floors' benchmarks then report wall
// time alone.
func threadCPU() int64 { return -1 }
