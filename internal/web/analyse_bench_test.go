package web

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// BenchmarkAnalyse posts distinct real puzzles of the hardest held
// collections (magictour's top 1465 and the 17-clue list) to POST
// /api/analyse through the full router, one at a time: the whole analysis
// (solve, grade within a request's budget, a uniqueness search per given).
// It reports the median and the 99th percentile of a request's time.
func BenchmarkAnalyse(b *testing.B) {
	for _, coll := range []string{puzzletest.Top1465, puzzletest.SeventeenClue} {
		b.Run(coll, func(b *testing.B) {
			lines := puzzletest.Lines(b, coll, 500)
			bodies := make([]string, len(lines))
			for i, l := range lines {
				bodies[i] = puzzleBody(l[:81])
			}
			s, _ := newTestServer(b, Config{})
			var times []time.Duration
			i := 0
			for b.Loop() {
				start := time.Now()
				rec := post(b, s, "/api/analyse", bodies[i%len(bodies)])
				times = append(times, time.Since(start))
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				i++
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
