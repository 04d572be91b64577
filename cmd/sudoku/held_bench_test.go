package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// Held submissions of distinct real puzzles, and reads beside them, through
// `sudoku serve` in process (the real router) over a fresh SQLite file.
// This file uses nothing newer than the build before the graders, so it
// measures both builds side by side (docs/performance.md):
//
//	go test -run '^$' -bench 'Held|ReadGrade' -benchtime 4000x ./cmd/sudoku
//
// With -benchtime up to the collection's size (5,000 easy, 19,860
// diabolical) every puzzle posted is a distinct line of the collection.

// heldGraders, when not negative, is passed to the server as --graders
// (a build without graders does not take the flag: leave it unset there).
var heldGraders = flag.Int("held.graders", -1, "BenchmarkHeldSubmit, BenchmarkReadGrade: serve --graders N (unset: the server's default)")

// heldServe starts the server of a held benchmark.
func heldServe(b *testing.B) *server {
	args := []string{"--rate-limit", "0"}
	if *heldGraders >= 0 {
		args = append(args, "--graders", strconv.Itoa(*heldGraders))
	}
	return startServe(b, filepath.Join(b.TempDir(), "sudoku.db"), args...)
}

// heldSets are the collections the held benchmark posts.
var heldSets = []struct{ name, file string }{
	{"diabolical", puzzletest.Diabolical},
	{"easy", puzzletest.Kaggle},
}

// BenchmarkHeldSubmit posts b.N distinct puzzles of a collection from 32
// clients and reports req/s, p50 and p99; then how long the graders took to
// empty the grade queue after the flood (drain-s, when the server shows its
// queue) and the process's peak RSS (load generator included).
func BenchmarkHeldSubmit(b *testing.B) {
	for _, set := range heldSets {
		b.Run("set="+set.name+"/clients=32", func(b *testing.B) {
			bodies := puzzleBodies(b, set.file, 0, b.N)
			s := heldServe(b)
			b.ResetTimer()
			m := hold(b, s.url, bodies, 32, nil)
			b.StopTimer()
			m.report(b, "")
			if d, ok := drain(s.url); ok {
				b.ReportMetric(d.Seconds(), "drain-s")
			}
			b.ReportMetric(peakRSS(b, os.Getpid()), "rss-MB")
			if err := s.stop(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkReadGrade measures GET /api/puzzles?sort=grade from 4 clients,
// b.N requests, on an archive of 2,000 diabolical puzzles: alone, and while
// 32 clients post distinct diabolical puzzles as fast as the server takes
// them (the submissions' own rate is reported as submit-req/s).
func BenchmarkReadGrade(b *testing.B) {
	const base = 2000
	for _, hard := range []bool{false, true} {
		b.Run("while-hard-submissions="+strconv.FormatBool(hard), func(b *testing.B) {
			s := heldServe(b)
			hold(b, s.url, puzzleBodies(b, puzzletest.Diabolical, 0, base), 32, nil)
			drain(s.url)
			reads := make([]string, b.N) // empty: GETs
			var stop atomic.Bool
			var sub metrics
			var wg sync.WaitGroup
			if hard {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sub = hold(b, s.url, puzzleBodies(b, puzzletest.Diabolical, base, 19860-base), 32, &stop)
				}()
				time.Sleep(200 * time.Millisecond) // the flood is on
			}
			b.ResetTimer()
			m := hold(b, s.url+"/api/puzzles?sort=grade&order=desc&limit=20", reads, 4, nil)
			b.StopTimer()
			stop.Store(true)
			wg.Wait()
			m.report(b, "")
			if hard {
				b.ReportMetric(sub.rate, "submit-req/s")
			}
			if err := s.stop(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// puzzleBodies returns n JSON bodies of POST /api/puzzles: the lines of
// the collection from line from on.
func puzzleBodies(b *testing.B, file string, from, n int) []string {
	lines := puzzletest.Lines(b, file, 0)
	if from+n > len(lines) {
		b.Fatalf("%s has %d lines: %d from line %d asked (lower -benchtime)", file, len(lines), n, from)
	}
	bodies := make([]string, n)
	for i := range bodies {
		bodies[i] = `{"puzzle": "` + lines[from+i][:81] + `"}`
	}
	return bodies
}

// metrics are the figures of a held load.
type metrics struct {
	rate     float64 // requests a second
	p50, p99 time.Duration
}

func (m metrics) report(b *testing.B, prefix string) {
	b.ReportMetric(m.rate, prefix+"req/s")
	b.ReportMetric(float64(m.p50.Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(m.p99.Microseconds())/1000, prefix+"p99-ms")
}

// hold sends every body from clients concurrent clients (a POST to
// url/api/puzzles, or a GET of url for an empty body) until all are sent
// or stop is set, and returns the rate and latencies. Every answer must
// be 2xx.
func hold(b *testing.B, url string, bodies []string, clients int, stop *atomic.Bool) metrics {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	var (
		next     atomic.Int64
		mu       sync.Mutex
		lat      []time.Duration
		firstErr atomic.Value
		wg       sync.WaitGroup
	)
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for stop == nil || !stop.Load() {
				i := next.Add(1) - 1
				if i >= int64(len(bodies)) {
					break
				}
				t0 := time.Now()
				var res *http.Response
				var err error
				if bodies[i] == "" {
					res, err = client.Get(url)
				} else {
					res, err = client.Post(url+"/api/puzzles", "application/json", strings.NewReader(bodies[i]))
				}
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode/100 != 2 {
						err = fmt.Errorf("status %d", res.StatusCode)
					}
				}
				mine = append(mine, time.Since(t0))
				if err != nil {
					firstErr.CompareAndSwap(nil, err)
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := firstErr.Load(); err != nil {
		b.Fatalf("a request failed: %v", err)
	}
	if len(lat) == 0 {
		return metrics{}
	}
	slices.Sort(lat)
	at := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	return metrics{rate: float64(len(lat)) / elapsed.Seconds(), p50: at(0.50), p99: at(0.99)}
}

// drain waits until the server's grade queue (/healthz?verbose) is empty
// and returns how long that took; ok is false for a server that does not
// show its queue.
func drain(url string) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < 10*time.Minute {
		res, err := http.Get(url + "/healthz?verbose")
		if err != nil {
			return 0, false
		}
		var h struct {
			GradeQueue *int64 `json:"grade_queue"`
		}
		err = json.NewDecoder(res.Body).Decode(&h)
		res.Body.Close()
		if err != nil || h.GradeQueue == nil {
			return 0, false
		}
		if *h.GradeQueue == 0 {
			return time.Since(start), true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start), true
}
