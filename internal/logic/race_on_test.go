//go:build race

package logic

// raceEnabled reports whether the tests run under the race detector, which
// makes the solver several times slower: the long golden checks then take a
// prefix of their samples.
const raceEnabled = true
