package solvers

import "syscall"

// threadCPU is the calling thread's CPU time (user + system) in
// nanoseconds, getrusage(RUSAGE_THREAD): a benchmark locked to its thread
// reads its own work, not the machine's load.
func threadCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(1, &ru) != nil { // RUSAGE_THREAD
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
