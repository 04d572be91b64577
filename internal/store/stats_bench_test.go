package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// BenchmarkStats reads the stats of the million-puzzle archive: every
// counter and histogram the stats page shows. ms/op is the figure
// docs/performance.md quotes against the 50 ms goal.
func BenchmarkStats(b *testing.B) {
	db := MustOpenDBAt(b, millionArchive(b))
	ctx := context.Background()
	for b.Loop() {
		s, err := db.Stats(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if s.Total != archiveRows {
			b.Fatalf("total %d", s.Total)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}

// BenchmarkListBand lists a page of 20 of one band of the million-puzzle
// archive in every order: the first page and the page after 200,000 rows
// of the band (or near its end when the band is smaller). Easy is the
// rarest band of the synthetic archive (about 2.5%), hard the largest.
func BenchmarkListBand(b *testing.B) {
	db := MustOpenDBAt(b, millionArchive(b))
	ctx := context.Background()
	for _, band := range []sudoku.Band{sudoku.BandEasy, sudoku.BandHard, sudoku.BandExtreme} {
		for _, s := range record.Sorts {
			q := record.ListQuery{Sort: s, Desc: true, Limit: 20, Band: band}
			first, err := db.List(ctx, q)
			if err != nil {
				b.Fatal(err)
			}
			deep := q
			deep.Cursor = bandCursorAt(b, db, q, int(min(first.Total-21, 200_000)))
			for _, c := range []struct {
				name string
				q    record.ListQuery
			}{{"first", q}, {"deep", deep}} {
				b.Run(fmt.Sprintf("%s/%s/%s", band, s, c.name), func(b *testing.B) {
					for b.Loop() {
						page, err := db.List(ctx, c.q)
						if err != nil {
							b.Fatal(err)
						}
						if len(page.Puzzles) != 20 {
							b.Fatalf("%d rows", len(page.Puzzles))
						}
					}
				})
			}
		}
	}
}

// bandCursorAt returns the cursor that continues q (a band listing) after
// its row'th row.
func bandCursorAt(b *testing.B, db *DB, q record.ListQuery, row int) string {
	b.Helper()
	n := 0
	var c string
	err := db.Export(context.Background(), q, func(p record.Puzzle) error {
		if n == row {
			c = cursor{sort: q.Sort, desc: q.Desc, unique: q.UniqueOnly, band: q.Band, key: keyOf(q.Sort, &p)}.encode()
			return errStop
		}
		n++
		return nil
	})
	if err != errStop {
		b.Fatalf("no row %d: %v", row, err)
	}
	return c
}

// BenchmarkSubmitMany archives new puzzles 1,000 per transaction, as an
// import does: the cost of the rows, their indexes and the stats counters.
func BenchmarkSubmitMany(b *testing.B) {
	db := MustOpenDB(b)
	ctx := context.Background()
	var n int64
	batch := make([]record.Puzzle, 1000)
	cpu0 := cpuTime()
	for b.Loop() {
		for i := range batch {
			n++
			batch[i] = synthetic(n, n%300, 20_000+n%7919, 1)
		}
		if _, err := db.SubmitMany(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "puzzles/s")
	// CPU time is steadier than wall time on a shared machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N*len(batch)), "cpu-µs/puzzle")
}

// BenchmarkListAround finds the page around a puzzle in the middle of the
// million-puzzle archive, by difficulty.
func BenchmarkListAround(b *testing.B) {
	db := MustOpenDBAt(b, millionArchive(b))
	ctx := context.Background()
	q := record.ListQuery{Sort: record.SortDifficulty, Desc: true, Limit: 20, Around: archiveRows / 2}
	for b.Loop() {
		page, err := db.List(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(page.Puzzles) != 20 {
			b.Fatalf("%d rows", len(page.Puzzles))
		}
	}
}
