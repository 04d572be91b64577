package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Issue 38: one download at 20 KB/s during a flood of submissions grew
// the -wal file of a 163 MB archive to 592 MB, and it stayed there. The
// WAL's bound (docs/storage.md) is 64 MB.
const (
	walArchive  = 50_000   // puzzles in the archive before the flood
	walFlood    = 10_000   // submissions of the flood, from walClients
	walClients  = 16       // concurrent submitters
	walRate     = 20 << 10 // bytes per second each download reads
	walBoundMB  = 64       // the documented bound
	walInterval = 20 * time.Millisecond
)

// BenchmarkWALSlowDownloads floods `sudoku serve` (SQLite) with
// submissions while 0, 1 or 4 clients download GET /api/export at
// 20 KB/s, and reports the largest -wal file seen (wal-max-MB) and its
// size at the flood's end (wal-end-MB). Run it with -benchtime=1x.
func BenchmarkWALSlowDownloads(b *testing.B) {
	for _, downloads := range []int{0, 1, 4} {
		b.Run(fmt.Sprintf("downloads=%d", downloads), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "sudoku.db")
			tokens := walFill(b, path, downloads)
			s := startServe(b, path, "--rate-limit", "0", "--graders", "0")
			var maxWAL, endWAL int64
			for i := range b.N {
				ctx, cancel := context.WithCancel(context.Background())
				var readers sync.WaitGroup
				cut := make(chan error, len(tokens))
				for _, tok := range tokens {
					readers.Add(1)
					go func() { defer readers.Done(); cut <- slowDownload(ctx, s.url, tok) }()
				}
				time.Sleep(time.Second) // the downloads are streaming
				m := walFloodOnce(b, s.url, path, i)
				maxWAL = max(maxWAL, m)
				endWAL = walSize(path)
				cancel()
				readers.Wait()
				close(cut)
				for err := range cut {
					// A download cut short measured nothing of the WAL
					// (issue 50: they were, unseen, after 30 s).
					if err != nil {
						b.Errorf("a slow download broke during the flood: %v", err)
					}
				}
			}
			b.ReportMetric(float64(maxWAL)/(1<<20), "wal-max-MB")
			b.ReportMetric(float64(endWAL)/(1<<20), "wal-end-MB")
			if maxWAL > walBoundMB<<20 {
				b.Errorf("the WAL reached %.1f MB, over the documented %d MB", float64(maxWAL)/(1<<20), walBoundMB)
			}
			if err := s.stop(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// walFill makes the archive at path with walArchive puzzles and an account
// with an API token for each download (a visitor may stream one export,
// visitors two together), and returns the tokens.
func walFill(b *testing.B, path string, downloads int) []string {
	b.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ps := make([]record.Puzzle, 0, 10_000)
	for i := range walArchive {
		// Rated by this engine (no upgrade pass at start-up), and none of
		// the flood's puzzles (those are relabellings below 100,000).
		g, err := sudoku.Parse(relabel(easy, 100_000+i))
		if err != nil {
			b.Fatal(err)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
		if len(ps) == cap(ps) || i == walArchive-1 {
			if _, err := db.SubmitMany(ctx, ps); err != nil {
				b.Fatal(err)
			}
			ps = ps[:0]
		}
	}
	hash, err := account.HashPassword("long enough password")
	if err != nil {
		b.Fatal(err)
	}
	var tokens []string
	for i := range downloads {
		name := fmt.Sprintf("reader%d", i)
		if _, err := db.AddUser(ctx, name, hash, account.RolePlayer, moderation.CLI()); err != nil {
			b.Fatal(err)
		}
		token, th := account.NewAPIToken()
		if _, err := db.AddToken(ctx, name, th, moderation.CLI()); err != nil {
			b.Fatal(err)
		}
		tokens = append(tokens, token)
	}
	return tokens
}

// slowDownload reads GET /api/export (JSON lines, every field) at walRate
// at most until ctx ends, and says whether the download broke first.
func slowDownload(ctx context.Context, base, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/export?format=json&sort=submitted&order=asc", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept-Encoding", "identity")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /api/export: status %d", res.StatusCode)
	}
	buf := make([]byte, walRate/10)
	for ctx.Err() == nil {
		// Read copies up to a tenth of a second's worth; io.EOF is the
		// whole export, any other error a cut (a chunked body cut short
		// reads as io.ErrUnexpectedEOF).
		if _, err := res.Body.Read(buf); err == io.EOF {
			return nil
		} else if err != nil {
			if ctx.Err() != nil {
				return nil // the flood is over: the benchmark hung up
			}
			return fmt.Errorf("the download was cut: %w", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil
}

// walFloodOnce sends walFlood new puzzles from walClients clients and
// returns the largest -wal file seen meanwhile.
func walFloodOnce(b *testing.B, base, path string, round int) int64 {
	b.Helper()
	var next, failed atomic.Int64
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(walInterval)
		defer t.Stop()
		for {
			peak.Store(max(peak.Load(), walSize(path)))
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: walClients}}
	var wg sync.WaitGroup
	for range walClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > walFlood {
					return
				}
				body := `{"puzzle": "` + relabel(easy, round*walFlood+int(i)) + `"}`
				res, err := client.Post(base+"/api/puzzles", "application/json", strings.NewReader(body))
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusCreated {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	if n := failed.Load(); n > 0 {
		b.Errorf("%d of %d submissions failed", n, walFlood)
	}
	return max(peak.Load(), walSize(path))
}

// walSize is the size of the archive's -wal file (0 without one).
func walSize(path string) int64 {
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		return 0
	}
	return fi.Size()
}
