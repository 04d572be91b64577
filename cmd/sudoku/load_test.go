package main

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkServeSubmit measures durable submissions through the whole
// stack: `sudoku serve` on loopback over a fresh SQLite file, with many
// concurrent HTTP clients posting distinct new puzzles. It reports requests
// per second and the 50th and 99th percentile latency. The load generator
// shares the machine with the server, as the target asks.
//
//	go test -run '^$' -bench ServeSubmit -benchtime 20000x ./cmd/sudoku
func BenchmarkServeSubmit(b *testing.B) {
	for _, clients := range []int{16, 32, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			s := startServe(b, filepath.Join(b.TempDir(), "sudoku.db"), "--rate-limit", "0")
			bodies := make([]string, b.N)
			for i := range bodies {
				bodies[i] = `{"puzzle": "` + relabel(easy, i) + `"}`
			}
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
			var (
				next      atomic.Int64
				failures  atomic.Int64
				wg        sync.WaitGroup
				mu        sync.Mutex
				latencies = make([]time.Duration, 0, b.N)
				firstErr  atomic.Value
			)
			b.ResetTimer()
			for range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					mine := make([]time.Duration, 0, b.N/clients+1)
					for {
						i := next.Add(1) - 1
						if i >= int64(b.N) {
							break
						}
						start := time.Now()
						res, err := client.Post(s.url+"/api/puzzles", "application/json", strings.NewReader(bodies[i]))
						if err == nil {
							io.Copy(io.Discard, res.Body)
							res.Body.Close()
							if res.StatusCode != http.StatusCreated {
								err = fmt.Errorf("status %d", res.StatusCode)
							}
						}
						mine = append(mine, time.Since(start))
						if err != nil {
							failures.Add(1)
							firstErr.CompareAndSwap(nil, err)
						}
					}
					mu.Lock()
					latencies = append(latencies, mine...)
					mu.Unlock()
				}()
			}
			wg.Wait()
			elapsed := b.Elapsed()
			b.StopTimer()
			if n := failures.Load(); n > 0 {
				b.Fatalf("%d of %d submissions failed, first: %v", n, b.N, firstErr.Load())
			}
			slices.Sort(latencies)
			pct := func(p float64) float64 {
				return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds()) / 1000
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			if err := s.stop(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// relabel returns p with its digits renamed by the n-th permutation of 1-9
// (0 <= n < 9!): a distinct puzzle, exactly as hard.
func relabel(p string, n int) string {
	digits := []byte("123456789")
	var perm [10]byte
	for i := 9; i >= 1; i-- {
		k := n % i
		n /= i
		perm[10-i] = digits[k]
		digits = append(digits[:k], digits[k+1:]...)
	}
	b := []byte(p)
	for i, c := range b {
		if c >= '1' && c <= '9' {
			b[i] = perm[c-'0']
		}
	}
	return string(b)
}
