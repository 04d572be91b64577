//go:build race

package main

// raceEnabled reports whether the tests run under the race detector, which
// slows the server down five to ten times.
const raceEnabled = true
