package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// bandGrades are grades in tenths at and around every band's edges.
var bandGrades = []int64{10, 12, 20, 21, 23, 34, 35, 46, 47, 56, 66, 67, 72, 95, 12, 34}

// bandedArchive fills db with n puzzles spread over every band (by grade),
// with ties in every sort key, every 6th with two solutions (no grade) and
// every 7th waiting for its grade (no band either). It returns them as
// stored.
func bandedArchive(tb testing.TB, db *DB, n int64) []record.Puzzle {
	tb.Helper()
	ctx := context.Background()
	var ps []record.Puzzle
	bts := []int64{0, 0, 1, 2, 14, 15, 16, 40, 63, 64, 100, 127, 128, 129, 3000}
	for i := range n {
		solutions := 1
		if i%6 == 5 {
			solutions = 2
		}
		p := synthetic((i%11+1)|(i/11+1)<<8, bts[(i*7)%int64(len(bts))], 100*((i*5)%4), solutions)
		if i%7 != 3 {
			p.GradeVersion, p.Technique = "test", "t"
			if solutions == 1 {
				p.SetGradeTenths(bandGrades[(i*5)%int64(len(bandGrades))])
			}
		}
		p, _, err := db.Submit(ctx, p)
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// inBand keeps the puzzles of band b ("" keeps all).
func inBand(ps []record.Puzzle, b sudoku.Band) []record.Puzzle {
	var out []record.Puzzle
	for _, p := range ps {
		if b == "" || p.Band == b {
			out = append(out, p)
		}
	}
	return out
}

func testListByBand(t *testing.T, bk backend) {
	db := bk.open(t)
	all := bandedArchive(t, db, 150)
	for _, b := range sudoku.Bands {
		if len(inBand(all, b.Band)) == 0 {
			t.Fatalf("no puzzle in band %s: the test archive is wrong", b.Band)
		}
	}
	sub := newSubtests(t) // reads only: a few at once
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			for _, unique := range []bool{false, true} {
				for _, b := range sudoku.Bands {
					q := record.ListQuery{Sort: s, Desc: desc, UniqueOnly: unique, Band: b.Band, Limit: 4}
					sub.Run(fmt.Sprintf("%s/desc=%v/unique=%v/%s", s, desc, unique, b.Band), func(t *testing.T) {
						testPaging(t, db, q, sorted(inBand(all, b.Band), q))
					})
				}
			}
		}
	}
	sub.Run("export", func(t *testing.T) {
		for _, b := range sudoku.Bands {
			q := record.ListQuery{Sort: record.SortClues, Desc: true, Band: b.Band}
			if d := gocmp.Diff(sorted(inBand(all, b.Band), q), exportAll(t, db, q)); d != "" {
				t.Errorf("%s (-want +got):\n%s", b.Band, d)
			}
		}
	})
	sub.Wait()
}

func testListBandRejects(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	bandedArchive(t, db, 30)
	if _, err := db.List(ctx, record.ListQuery{Band: "Easy"}); !errors.Is(err, ErrInvalidQuery) {
		t.Errorf("unknown band: %v, want ErrInvalidQuery", err)
	}
	page, err := db.List(ctx, record.ListQuery{Band: sudoku.BandMedium, Limit: 2})
	if err != nil || page.NextCursor == "" {
		t.Fatalf("%v, next %q", err, page.NextCursor)
	}
	// A cursor of one band does not page another, nor the whole archive.
	for _, q := range []record.ListQuery{
		{Band: sudoku.BandHard, Limit: 2, Cursor: page.NextCursor},
		{Limit: 2, Cursor: page.NextCursor},
	} {
		if _, err := db.List(ctx, q); !errors.Is(err, record.ErrInvalidCursor) {
			t.Errorf("band %q with a medium cursor: %v, want ErrInvalidCursor", q.Band, err)
		}
	}
}

// testBandColumnAgrees checks that the band column of migration 00011
// ranks every grade as sudoku.BandOf does, at and around every threshold,
// and that a grade of 0 (several solutions, or not graded yet) has none: the
// column itself, read back for rows with those grades.
func testBandColumnAgrees(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	vals := []int64{0}
	for _, b := range sudoku.Bands {
		vals = append(vals, b.Min-1, b.Min, b.Min+1)
		if b.Max != sudoku.NoMax {
			vals = append(vals, b.Max)
		}
	}
	vals = append(vals, 95, 120, -72) // -72: grade 7.2 waiting to be graded again
	for i, v := range vals {
		p := synthetic(int64(i)+1, 0, 0, 1)
		p.GradeVersion, p.Technique = "test", "t"
		p.SetGradeTenths(v)
		if v < 0 {
			p.SetGradeTenths(-v)
			p.GradeVersion, p.Band = "", ""
			v = 0
		}
		stored, _, err := db.Submit(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		var rank sql.NullInt64
		if err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT band FROM puzzles WHERE id = ?"), stored.ID).Scan(&rank); err != nil {
			t.Fatal(err)
		}
		want := sudoku.BandOf(v)
		got := sudoku.Band("")
		if rank.Valid {
			got = sudoku.Bands[rank.Int64].Band
		}
		if got != want || stored.Band != want {
			t.Errorf("grade %d: column says %q, the puzzle %q, BandOf %q", v, got, stored.Band, want)
		}
	}
}

// TestBandListPlans checks that every band statement seeks in an index on
// the whole of its key: the order's own for difficulty and backtracks,
// bounded by the band and the cursor, the band index for the others; never
// a sort step, never a filter over the rows before the cursor.
func TestBandListPlans(t *testing.T) {
	racefree.Only(t)
	db := MustOpenDB(t)
	bandedArchive(t, db, 30)
	if _, err := db.wconn.ExecContext(context.Background(), "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	for _, k := range bandListKeys() {
		if k.grades {
			// A grade range is checked row by row on the same seek (in
			// the grade order SQLite narrows the seek with it); the plans
			// without it say which index and seek each statement uses.
			continue
		}
		for _, export := range []bool{false, true} {
			if export && k.part != start {
				continue
			}
			stmt := sqliteDialect.listSQL(k, export)
			args := make([]any, strings.Count(stmt, "?"))
			for i := range args {
				args[i] = 1
			}
			rows, err := db.reader.Query("EXPLAIN QUERY PLAN "+stmt, args...)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for rows.Next() {
				var id, parent, notused int
				var detail string
				if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
					t.Fatal(err)
				}
				lines = append(lines, detail)
			}
			rows.Close()
			lines = withoutRowLookups(lines)
			cmp := ">"
			if k.desc {
				cmp = "<"
			}
			lead := orders[k.sort].keys[:len(orders[k.sort].keys)-1]
			index := bandIndexes[k.sort]
			var seek string
			switch {
			case k.part == start:
				seek = "band=?"
			case k.part == ties:
				seek = "band=? AND " + strings.Join(lead, "=? AND ") + "=? AND rowid" + cmp + "?"
			case len(lead) == 0:
				seek = "band=? AND rowid" + cmp + "?"
			case len(lead) == 1:
				seek = "band=? AND " + lead[0] + cmp + "?"
			default:
				seek = "band=? AND (" + strings.Join(lead, ",") + ")" + cmp + "(" + strings.TrimSuffix(strings.Repeat("?,", len(lead)), ",") + ")"
			}
			if s, ok := valuedSeek(k, "band=? AND "); ok {
				seek = s
			}
			want := "SEARCH puzzles USING INDEX " + index + " (" + seek + ")"
			if len(lines) != 1 || lines[0] != want {
				t.Errorf("%+v export=%v: %s\nplan:\n%s\nwant %q", k, export, stmt, strings.Join(lines, "\n"), want)
			}
		}
	}
}

// aroundLimits are the page sizes testListAround walks every position
// with: 1 (the puzzle alone, nothing before it), 5 (an odd page, two on
// each side), 20 (a third of the archive: clipped at either end, the page
// before it the first page), and 2 (an even page, one before). Under
// -short, 2 is left out: its one row before the puzzle is 20's half page
// and 5's two rows at a smaller scale, and none of its checks reads
// anything 1, 5 and 20 do not (every order, both ways, every position,
// ties and the ends); make test runs it, without -short.
func aroundLimits() []int {
	if testing.Short() {
		return []int{1, 5, 20}
	}
	return []int{1, 2, 5, 20}
}

func testListAround(t *testing.T, bk backend) {
	ctx, db := context.Background(), bk.open(t)
	all := bandedArchive(t, db, 60)
	sub := newSubtests(t) // reads only: a few at once
	defer sub.Wait()
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			for _, limit := range aroundLimits() {
				for _, band := range []sudoku.Band{"", sudoku.BandExtreme} {
					q := record.ListQuery{Sort: s, Desc: desc, Limit: limit, Band: band, UniqueOnly: band != ""}
					want := sorted(inBand(all, band), q)
					sub.Run(fmt.Sprintf("%s/desc=%v/limit=%d/band=%s", s, desc, limit, band), func(t *testing.T) {
						for pos, p := range want {
							q := q
							q.Around = p.ID
							page, err := db.List(ctx, q)
							if err != nil {
								t.Fatalf("around %d: %v", p.ID, err)
							}
							from := max(0, pos-limit/2)
							to := min(len(want), from+limit)
							if d := gocmp.Diff(ids(want[from:to]), ids(page.Puzzles)); d != "" {
								t.Fatalf("around %d at %d (-want +got):\n%s", p.ID, pos, d)
							}
							if page.Total != int64(len(want)) {
								t.Fatalf("total %d, want %d", page.Total, len(want))
							}
							if (page.NextCursor != "") != (to < len(want)) || (page.PrevCursor != "") != (from > 0) {
								t.Fatalf("around %d at %d: next %q prev %q", p.ID, pos, page.NextCursor, page.PrevCursor)
							}
							if page.NextCursor != "" {
								q.Around, q.Cursor = 0, page.NextCursor
								next, err := db.List(ctx, q)
								if err != nil {
									t.Fatal(err)
								}
								if d := gocmp.Diff(ids(want[to:min(len(want), to+limit)]), ids(next.Puzzles)); d != "" {
									t.Fatalf("after around %d (-want +got):\n%s", p.ID, d)
								}
							}
							if page.PrevCursor != "" {
								q.Around, q.Cursor = 0, page.PrevCursor
								prev, err := db.List(ctx, q)
								if err != nil {
									t.Fatal(err)
								}
								// The page before, or the first page when fewer than a page come before.
								lo := max(0, from-limit)
								if from < limit {
									lo = 0
								}
								if d := gocmp.Diff(ids(want[lo:min(len(want), lo+limit)]), ids(prev.Puzzles)); d != "" {
									t.Fatalf("before around %d (-want +got):\n%s", p.ID, d)
								}
							}
						}
					})
				}
			}
		}
	}
	var notUnique, notExtreme int64
	for _, p := range all {
		if !p.Unique {
			notUnique = p.ID
		}
		if p.Band != sudoku.BandExtreme {
			notExtreme = p.ID
		}
	}
	for _, q := range []record.ListQuery{
		{Around: 1 << 40},
		{Around: notUnique, UniqueOnly: true},
		{Around: notExtreme, Band: sudoku.BandExtreme},
	} {
		if _, err := db.List(ctx, q); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("%+v: %v, want ErrNotFound", q, err)
		}
	}
}

// testBandsOfCollections archives real puzzles from the easiest to the
// hardest collections, graded, and lists every band: each puzzle listed in
// a band has a grade in the band's range (docs/engine.md's promise: every
// puzzle listed extreme is graded above 6.6, hard for a person), every
// graded puzzle is listed in exactly one band, and the hardest collection
// lands in extreme.
func testBandsOfCollections(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	n := map[string]int{puzzletest.Kaggle: 12, puzzletest.Diabolical: 12, puzzletest.Top1465: 12, puzzletest.Forum1106: 4}
	if testing.Short() {
		n = map[string]int{puzzletest.Kaggle: 4, puzzletest.Diabolical: 4, puzzletest.Top1465: 4, puzzletest.Forum1106: 2}
	}
	var ps []record.Puzzle
	forum := map[sudoku.Grid]bool{}
	for name, k := range n {
		for _, l := range puzzletest.Lines(t, name, k) {
			g, err := sudoku.Parse(l)
			if err != nil {
				t.Fatal(err)
			}
			p := rate(t, g)
			logic.GradePuzzle(&p)
			ps = append(ps, p)
			forum[g] = name == puzzletest.Forum1106
		}
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	listed := 0
	for _, b := range sudoku.Bands {
		got := exportAll(t, db, record.ListQuery{Band: b.Band, Sort: record.SortGrade})
		listed += len(got)
		for _, p := range got {
			g := p.GradeTenths()
			if p.Band != b.Band || g < b.Min || g > b.Max {
				t.Errorf("puzzle %d (grade %v, band %q) listed as %s (%s)", p.ID, p.Grade, p.Band, b.Band, b.Range())
			}
			if b.Band == sudoku.BandExtreme && (p.Grade == nil || *p.Grade <= 6.6) {
				t.Errorf("extreme puzzle %d graded %v", p.ID, p.Grade)
			}
		}
	}
	if listed != len(ps) {
		t.Errorf("%d puzzles listed in the bands, want all %d (every one is graded)", listed, len(ps))
	}
	for _, p := range exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted}) {
		if forum[p.Givens] && p.Band != sudoku.BandExtreme {
			t.Errorf("forum's hardest puzzle %d: grade %v, band %q", p.ID, p.Grade, p.Band)
		}
	}
}

// testBandTotalDistinct lists bands one row per puzzle where one band
// holds many other ways of writing its puzzles and another none, so that
// bandTotal counts each way (the archive's other entries, or the band's
// entries): the totals are the band's first entries of their classes,
// exactly, and the listings hold them all.
func testBandTotalDistinct(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	rng := rand.New(rand.NewPCG(3, 4))
	graded := func(g sudoku.Grid) record.Puzzle {
		p := rate(t, g)
		logic.GradePuzzle(&p)
		return p
	}
	var ps []record.Puzzle
	for i, l := range append(puzzletest.Lines(t, puzzletest.Kaggle, 6), puzzletest.Lines(t, puzzletest.Diabolical, 2)...) {
		g, err := sudoku.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, graded(g))
		if i < 6 { // the easy ones, three more ways each
			for range 3 {
				ps = append(ps, graded(shuffled(rng, g)))
			}
		}
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	all := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	heads := map[sudoku.Band]int64{}
	for _, p := range all {
		if p.SameAs == nil {
			heads[p.Band]++
		}
	}
	if heads[sudoku.BandEasy] != 6 || len(all) != 26 {
		t.Fatalf("%d entries, heads by band %v: the test archive is wrong", len(all), heads)
	}
	for _, b := range sudoku.Bands {
		var listed int64
		q := record.ListQuery{Band: b.Band, Distinct: true, Limit: 3, Sort: record.SortClues}
		for {
			page, err := db.List(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != heads[b.Band] {
				t.Errorf("band %s, one row per puzzle: total %d, want %d", b.Band, page.Total, heads[b.Band])
			}
			listed += int64(len(page.Puzzles))
			if page.NextCursor == "" {
				break
			}
			q.Cursor = page.NextCursor
		}
		if listed != heads[b.Band] {
			t.Errorf("band %s, one row per puzzle: %d listed, want %d", b.Band, listed, heads[b.Band])
		}
	}
}
