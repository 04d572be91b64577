// Package racefree marks the tests that make test runs without the race
// detector, in a second pass after the -race pass over every package.
//
// The race detector finds nothing in a test with no concurrency of its own
// and slows it five to thirty times (SQLite compiled to Go most of all). So
// the long single-goroutine walks (every listing order page by page, every
// query plan), the browser tests (Chromium drives the pages one step at a
// time; the handlers' concurrency is tested under -race through httptest)
// and the measurements the detector would distort begin with Only(t): under
// -race they skip, and make test runs them again, without it, by the names
// that ./list finds. Without the race detector (make test-short, a machine
// without cgo) they run in the one pass like every other test.
package racefree

import "testing"

// Only skips tb under the race detector, saying where it runs instead.
// Call it first thing in a top-level test function (func TestX(t
// *testing.T)): ./list looks for the call there to name the test in make
// test's second pass.
func Only(tb testing.TB) {
	tb.Helper()
	if Enabled {
		tb.Skip("no concurrency of its own: make test runs it in its second pass, without -race (internal/racefree)")
	}
}
