//go:build !linux

package variant

import "time"

// threadCPU is not measured here: the benchmark reports wall time only.
func threadCPU() (time.Duration, bool) { return 0, false }
