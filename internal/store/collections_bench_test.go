package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// collectionBenchRows is the archive of BenchmarkCollectionPages: twice
// the collection, so the listing skips a row of the archive for each row
// of the collection.
const (
	collectionBenchRows = 200_000
	collectionBenchSize = 100_000
)

// collectionArchive builds an archive of collectionBenchRows puzzles (as
// the million-puzzle benchmarks do, storetest.BuildArchive) with every
// other one in a collection of collectionBenchSize, and returns it open
// with the collection's id.
func collectionArchive(b *testing.B) (*DB, int64) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "archive.db")
	if err := buildArchive(path, collectionBenchRows); err != nil {
		b.Fatal(err)
	}
	db := MustOpenDBAt(b, path)
	ctx := context.Background()
	c, err := db.CreateCollection(ctx, record.Collection{Name: "Every other"})
	if err != nil {
		b.Fatal(err)
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		_, err := db.linkCollection(tx, c.ID, "id % 2 = 0", nil)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return db, c.ID
}

// BenchmarkCollectionPages pages a collection of 100,000 puzzles (in an
// archive of 200,000): the first page and page 500 in two orders (ns/op
// is one request to the store), then a walk through all 5,000 pages,
// reporting the heap in use after it against before it: paging holds one
// page at a time, so the walk grows nothing.
func BenchmarkCollectionPages(b *testing.B) {
	db, id := collectionArchive(b)
	ctx := context.Background()
	for _, s := range []record.Sort{record.SortDifficulty, record.SortSubmitted} {
		q := record.ListQuery{Sort: s, Desc: true, Limit: 20, Collection: id}
		deep := q
		deep.Cursor = collectionCursorAt(b, db, q, 500)
		for _, c := range []struct {
			name string
			q    record.ListQuery
		}{{"first", q}, {"page500", deep}} {
			b.Run(string(s)+"/"+c.name, func(b *testing.B) {
				for b.Loop() {
					page, err := db.List(ctx, c.q)
					if err != nil || len(page.Puzzles) != 20 || page.Total != collectionBenchSize {
						b.Fatalf("%d rows, total %d, %v", len(page.Puzzles), page.Total, err)
					}
				}
			})
		}
	}
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			before := heapMB()
			start := time.Now()
			q := record.ListQuery{Sort: record.SortDifficulty, Desc: true, Limit: 20, Collection: id}
			pages, rows := 0, 0
			peak := before
			for {
				page, err := db.List(ctx, q)
				if err != nil {
					b.Fatal(err)
				}
				pages++
				rows += len(page.Puzzles)
				if pages%500 == 0 {
					peak = max(peak, heapMB())
				}
				if page.NextCursor == "" {
					break
				}
				q.Cursor = page.NextCursor
			}
			if rows != collectionBenchSize {
				b.Fatalf("walked %d rows, want %d", rows, collectionBenchSize)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/float64(pages), "µs/page")
			b.ReportMetric(peak-before, "heap-growth-MB")
			b.ReportMetric(rssMB(b), "RSS-MB")
		}
	})
}

// heapMB is the live heap after a collection, in MB.
func heapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

// collectionCursorAt returns the cursor of q's page n+1 (after n pages).
func collectionCursorAt(b *testing.B, db *DB, q record.ListQuery, n int) string {
	b.Helper()
	for range n {
		page, err := db.List(context.Background(), q)
		if err != nil || page.NextCursor == "" {
			b.Fatalf("no page after %q: %v", q.Cursor, err)
		}
		q.Cursor = page.NextCursor
	}
	return q.Cursor
}
