package variant

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time of the calling OS thread (the caller
// locks its goroutine to the thread), so the benchmark reports figures
// that other processes on a busy machine do not inflate.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
