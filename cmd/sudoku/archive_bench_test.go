package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// millionRows is the size of the archive the listing benchmarks serve.
const millionRows = 1_000_000

// millionArchive returns an archive of millionRows synthetic puzzles: the
// file named by SUDOKU_BENCH_ARCHIVE (the store benchmarks build the same
// one), built there first if missing, or else one built in a temporary
// directory. Building takes about 25 s.
func millionArchive(b *testing.B) string {
	b.Helper()
	path := os.Getenv("SUDOKU_BENCH_ARCHIVE")
	if path != "" {
		if _, err := os.Stat(path); err == nil {
			return path
		}
	} else {
		path = filepath.Join(b.TempDir(), "archive.db")
	}
	db, err := store.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := storetest.BuildArchive(path, millionRows); err != nil {
		b.Fatal(err)
	}
	b.Logf("built an archive of %d puzzles in %v", millionRows, time.Since(start).Round(time.Millisecond))
	return path
}

// BenchmarkListMillion serves GET /api/puzzles (a page of 20) through the
// real router and the real store over an archive of a million puzzles, for
// every sort order and direction, at the first page and at a page 200,000
// rows deep (page 10,001 of 20) reached by cursor. It reports ms/request and
// the process's resident memory afterwards (rss-MB).
func BenchmarkListMillion(b *testing.B) { listMillion(b, millionArchive(b)) }

// BenchmarkListMillionPostgres is BenchmarkListMillion on PostgreSQL: on
// the database SUDOKU_BENCH_PG_ARCHIVE names (a postgres:// URL), built
// there first if it is empty, or else on a throwaway cluster (pgtest).
// Building takes about a minute.
func BenchmarkListMillionPostgres(b *testing.B) {
	dsn := os.Getenv("SUDOKU_BENCH_PG_ARCHIVE")
	if dsn == "" {
		dsn = pgtest.Start(b).NewDB(b)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	page, err := db.List(ctx, record.ListQuery{})
	if err := errors.Join(err, db.Close()); err != nil {
		b.Fatal(err)
	}
	if page.Total == 0 {
		start := time.Now()
		if err := storetest.BuildArchive(dsn, millionRows); err != nil {
			b.Fatal(err)
		}
		b.Logf("built an archive of %d puzzles in %v", millionRows, time.Since(start).Round(time.Millisecond))
	}
	listMillion(b, dsn)
}

func listMillion(b *testing.B, path string) {
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	srv := web.New(web.AllParts(db), web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})

	for _, sort := range record.Sorts {
		for _, desc := range []bool{false, true} {
			order := "asc"
			if desc {
				order = "desc"
			}
			deep := deepCursor(b, db, record.ListQuery{Sort: sort, Desc: desc}, 200_000)
			for _, c := range []struct{ name, cursor string }{{"first", ""}, {"page10001", deep}} {
				target := "/api/puzzles?limit=20&sort=" + string(sort) + "&order=" + order
				if c.cursor != "" {
					target += "&cursor=" + url.QueryEscape(c.cursor)
				}
				b.Run(fmt.Sprintf("sort=%s/order=%s/%s", sort, order, c.name), func(b *testing.B) {
					for b.Loop() {
						rec := httptest.NewRecorder()
						srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
						if rec.Code != http.StatusOK {
							b.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/req")
					b.ReportMetric(rssMB(b), "rss-MB")
				})
			}
		}
	}
}

// deepCursor pages through q, 100 rows a call, and returns the cursor of the
// page that starts after row rows.
func deepCursor(b *testing.B, db *store.DB, q record.ListQuery, rows int) string {
	b.Helper()
	q.Limit = record.MaxLimit
	for seen := 0; seen < rows; seen += q.Limit {
		page, err := db.List(context.Background(), q)
		if err != nil || page.NextCursor == "" {
			b.Fatalf("paging %v to row %d: %v", q.Sort, seen, err)
		}
		q.Cursor = page.NextCursor
	}
	return q.Cursor
}

// rssMB reads this process's resident set size from /proc.
func rssMB(b *testing.B) float64 {
	b.Helper()
	mb, err := storetest.ProcStatusMB("VmRSS")
	if err != nil {
		b.Skip(err)
	}
	return mb
}
