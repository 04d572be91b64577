package store

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// tiedArchive fills db with puzzles whose sort keys tie often: 5 backtrack
// values, 3 solve times, clue counts from a few bits, every 7th with two
// solutions. It returns them as stored.
func tiedArchive(tb testing.TB, db *DB, n int64) []record.Puzzle {
	tb.Helper()
	ctx := context.Background()
	var ps []record.Puzzle
	for i := range n {
		solutions := 1
		if i%7 == 3 {
			solutions = 2
		}
		// n of a few bits only, so clue counts repeat.
		stored, _, err := db.Submit(ctx, synthetic((i%13+1)|(i/13+1)<<8, (i*7)%5, 100*((i*5)%3), solutions))
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, stored)
	}
	return ps
}

// sorted is the order List must produce, computed in Go.
func sorted(ps []record.Puzzle, q record.ListQuery) []record.Puzzle {
	var out []record.Puzzle
	for _, p := range ps {
		if !q.UniqueOnly || p.Unique {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b record.Puzzle) int {
		// Ascending by grade, the ungraded (grade 0) come last; so do
		// the rows without a value of a NoneLast order (leading key 0).
		if pendingLast(q) && (keyOf(q.Sort, &a)[0] == 0) != (keyOf(q.Sort, &b)[0] == 0) {
			if keyOf(q.Sort, &a)[0] == 0 {
				return 1
			}
			return -1
		}
		c := slices.Compare(keyOf(q.Sort, &a), keyOf(q.Sort, &b))
		if q.Desc {
			c = -c
		}
		return cmp.Compare(c, 0)
	})
	return out
}

// testListPagesEveryOrder walks every order, both ways, of the whole
// archive and of its unique puzzles, forward and back, in pages of 1, 7,
// 20 and 100 rows. Under -short the walk of the whole archive by one row
// is left out (the unique puzzles' one stays): testListAround's pages of
// one, in every order and direction, follow the cursors on either side of
// every row of an archive with ties in every key, which is what that walk
// reads; make test runs it, without -short.
func testListPagesEveryOrder(t *testing.T, bk backend) {
	db := bk.open(t)
	all := tiedArchive(t, db, 157)
	sub := newSubtests(t) // reads only: a few at once
	defer sub.Wait()
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			for _, unique := range []bool{false, true} {
				for _, limit := range []int{1, 7, 20, 100} {
					if limit == 1 && !unique && testing.Short() {
						// Four fifths of the walk's reads; see above.
						continue
					}
					q := record.ListQuery{Sort: s, Desc: desc, UniqueOnly: unique, Limit: limit}
					sub.Run(fmt.Sprintf("%s/desc=%v/unique=%v/limit=%d", s, desc, unique, limit), func(t *testing.T) {
						testPaging(t, db, q, sorted(all, q))
					})
				}
			}
		}
	}
}

// testPaging walks q forward to the end by NextCursor and back to the start
// by PrevCursor, checking every page against want.
func testPaging(t *testing.T, db *DB, q record.ListQuery, want []record.Puzzle) {
	ctx := context.Background()
	var pages []record.Page
	var got []record.Puzzle
	for {
		page, err := db.List(ctx, q)
		if err != nil {
			t.Fatalf("page %d: %v", len(pages)+1, err)
		}
		if page.Total != int64(len(want)) {
			t.Fatalf("total %d, want %d", page.Total, len(want))
		}
		if (len(pages) == 0) != (page.PrevCursor == "") {
			t.Fatalf("page %d: PrevCursor %q", len(pages)+1, page.PrevCursor)
		}
		if len(page.Puzzles) > q.Limit || (page.NextCursor != "" && len(page.Puzzles) != q.Limit) {
			t.Fatalf("page %d: %d rows with limit %d", len(pages)+1, len(page.Puzzles), q.Limit)
		}
		pages = append(pages, page)
		got = append(got, page.Puzzles...)
		if page.NextCursor == "" {
			break
		}
		if len(pages) > len(want)+1 {
			t.Fatal("paging does not end")
		}
		q.Cursor = page.NextCursor
	}
	if d := gocmp.Diff(ids(want), ids(got)); d != "" {
		t.Fatalf("forward (-want +got):\n%s", d)
	}
	if d := gocmp.Diff(want, got); d != "" {
		t.Fatalf("forward rows (-want +got):\n%s", d)
	}

	// Back from the last page, page by page, to the first.
	for i := len(pages) - 1; i > 0; i-- {
		q.Cursor = pages[i].PrevCursor
		page, err := db.List(ctx, q)
		if err != nil {
			t.Fatalf("back to page %d: %v", i, err)
		}
		if d := gocmp.Diff(ids(pages[i-1].Puzzles), ids(page.Puzzles)); d != "" {
			t.Fatalf("back to page %d (-forward +backward):\n%s", i, d)
		}
		if page.NextCursor != pages[i-1].NextCursor {
			t.Errorf("back to page %d: NextCursor differs", i)
		}
		if (i == 1) != (page.PrevCursor == "") {
			t.Errorf("back to page %d: PrevCursor %q", i, page.PrevCursor)
		}
	}
}

func ids(ps []record.Puzzle) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// TestListPrevFromShortStart: going back from a page that does not start on
// a multiple of the limit lands on a full first page, not a short one.
func testListPrevFromShortStart(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := tiedArchive(t, db, 30)
	q := record.ListQuery{Sort: record.SortSubmitted, Limit: 4}
	page, err := db.List(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	// Page 2 with a limit of 4 starts at row 5; asking for 10 rows from
	// there and going back must give rows 1-10, the first page.
	q.Cursor = page.NextCursor
	page, err = db.List(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	q.Limit, q.Cursor = 10, page.PrevCursor
	back, err := db.List(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(ids(all[:10]), ids(back.Puzzles)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if back.PrevCursor != "" || back.NextCursor == "" {
		t.Errorf("first page: prev %q next %q", back.PrevCursor, back.NextCursor)
	}
}

// TestListPastTheEnd: a cursor whose row is the last one (as when the
// archive shrank, or a cursor was kept) gives an empty page whose
// PrevCursor leads back to the page ending with that row.
func testListPastTheEnd(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := tiedArchive(t, db, 12)
	for _, desc := range []bool{false, true} {
		q := record.ListQuery{Sort: record.SortDifficulty, Desc: desc, Limit: 5}
		want := sorted(all, q)
		last := want[len(want)-1]
		q.Cursor = cursor{sort: q.Sort, desc: desc, key: keyOf(q.Sort, &last)}.encode()
		page, err := db.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Puzzles) != 0 || page.NextCursor != "" || page.PrevCursor == "" {
			t.Fatalf("desc=%v: past the end: %d rows, next %q, prev %q", desc, len(page.Puzzles), page.NextCursor, page.PrevCursor)
		}
		q.Cursor = page.PrevCursor
		page, err = db.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if d := gocmp.Diff(ids(want[len(want)-5:]), ids(page.Puzzles)); d != "" {
			t.Errorf("desc=%v: page before the end (-want +got):\n%s", desc, d)
		}
	}
}

func testListDefaultsAndLimits(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := tiedArchive(t, db, 30)
	page, err := db.List(ctx, record.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	want := sorted(all, record.ListQuery{Sort: record.SortDifficulty})[:record.DefaultLimit]
	if d := gocmp.Diff(ids(want), ids(page.Puzzles)); d != "" {
		t.Errorf("zero query: want the first %d by difficulty ascending (-want +got):\n%s", record.DefaultLimit, d)
	}
	for _, q := range []record.ListQuery{
		{Limit: -1}, {Limit: record.MaxLimit + 1}, {Sort: "rating"}, {Sort: "id; DROP TABLE puzzles"},
	} {
		if _, err := db.List(ctx, q); !errors.Is(err, ErrInvalidQuery) {
			t.Errorf("List(%+v): %v, want ErrInvalidQuery", q, err)
		}
		if err := db.Export(ctx, q, func(record.Puzzle) error { return nil }); q.Sort != "" && !errors.Is(err, ErrInvalidQuery) {
			t.Errorf("Export(%+v): %v, want ErrInvalidQuery", q, err)
		}
	}
	empty := bk.open(t)
	page, err = empty.List(ctx, record.ListQuery{})
	if err != nil || page.Puzzles == nil || len(page.Puzzles) != 0 || page.NextCursor != "" || page.PrevCursor != "" || page.Total != 0 {
		t.Errorf("empty archive: %+v, %v", page, err)
	}
}

func testListRejectsBadCursors(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	tiedArchive(t, db, 30)
	q := record.ListQuery{Sort: record.SortDifficulty, Desc: true, Limit: 5}
	page, err := db.List(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	good := page.NextCursor
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	enc := base64.RawURLEncoding.EncodeToString
	withByte := func(i int, v byte) string {
		b := slices.Clone(raw)
		b[i] = v
		return enc(b)
	}
	other := func(q2 record.ListQuery) string {
		p, err := db.List(ctx, q2)
		if err != nil || p.NextCursor == "" {
			t.Fatalf("cursor for %+v: %v", q2, err)
		}
		return p.NextCursor
	}
	for _, tc := range []struct{ name, cursor string }{
		{"garbage", "!!not a cursor!!"},
		{"sql", "1' OR '1'='1"},
		{"version byte only", enc([]byte{cursorVersion})},
		{"truncated", good[:len(good)-2]},
		{"one byte short", enc(raw[:len(raw)-1])},
		{"trailing byte", enc(append(slices.Clone(raw), 0))},
		{"padded", good + "=="},
		{"other version", withByte(0, 2)},
		{"unknown sort", withByte(1, 9)},
		{"unknown flag", withByte(2, raw[2]|0x80)},
		{"too long", strings.Repeat("A", 200)},
		{"another sort", other(record.ListQuery{Sort: record.SortBacktracks, Desc: true, Limit: 5})},
		{"another sort, same key count", other(record.ListQuery{Sort: record.SortClues, Desc: true, Limit: 5})},
		{"other direction", other(record.ListQuery{Sort: record.SortDifficulty, Limit: 5})},
		{"other filter", other(record.ListQuery{Sort: record.SortDifficulty, Desc: true, UniqueOnly: true, Limit: 5})},
		{"negative key", cursor{sort: q.Sort, desc: true, key: []int64{-1, 0, 1}}.encode()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := q
			q.Cursor = tc.cursor
			if _, err := db.List(ctx, q); !errors.Is(err, record.ErrInvalidCursor) {
				t.Errorf("cursor %q: %v, want ErrInvalidCursor", tc.cursor, err)
			}
		})
	}
	// Another limit with the same cursor is fine: the cursor is a position.
	q.Cursor, q.Limit = good, 9
	if _, err := db.List(ctx, q); err != nil {
		t.Errorf("good cursor with another limit: %v", err)
	}
}

// TestListPlans checks with EXPLAIN QUERY PLAN that every listing statement
// walks its order's index: no sort step (temp b-tree), no scan of the table
// through anything else, and a cursor query seeks on its whole key.
func TestListPlans(t *testing.T) {
	racefree.Only(t)
	db := MustOpenDB(t)
	tiedArchive(t, db, 20)
	// Statistics must not tempt the planner away either.
	if _, err := db.wconn.ExecContext(context.Background(), "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	type plan struct {
		k      listKey
		export bool
	}
	var plans []plan
	for _, k := range listKeys() {
		if k.grades {
			continue // the same plans, a grade range checked row by row (see TestBandListPlans)
		}
		plans = append(plans, plan{k, false})
		if k.part == start {
			plans = append(plans, plan{k, true})
		}
	}
	for _, pl := range plans {
		k := pl.k
		t.Run(fmt.Sprintf("%s/desc=%v/unique=%v/part=%d/export=%v", k.sort, k.desc, k.unique, k.part, pl.export), func(t *testing.T) {
			stmt := sqliteDialect.listSQL(k, pl.export)
			lines := withoutRowLookups(queryPlan(t, db, stmt))
			o := orders[k.sort]
			want := wantPlanStep(k)
			if !o.merged {
				if len(lines) != 1 || lines[0] != want {
					t.Errorf("%s\nplan:\n%s\nwant:\n%s", stmt, strings.Join(lines, "\n"), want)
				}
				return
			}
			// One seek per band and one for the rows without a band
			// (band IS NULL seeks as band=?), merged: no other step.
			seeks := 0
			for _, l := range lines {
				switch l {
				case want:
					seeks++
				case "MERGE (UNION ALL)", "LEFT", "RIGHT":
				default:
					t.Errorf("%s\nplan:\n%s\nunexpected step %q", stmt, strings.Join(lines, "\n"), l)
				}
			}
			if seeks != len(sudoku.Bands)+1 {
				t.Errorf("%s\nplan:\n%s\nwant %d times:\n%s", stmt, strings.Join(lines, "\n"), len(sudoku.Bands)+1, want)
			}
		})
	}
}

// wantPlanStep is what the plan of k's listing must say, after "SCAN
// puzzles" or "SEARCH puzzles": the index and the seek. A merged order
// seeks the same way in each band.
// valuedSeek is the seek of a start or beyond statement of one valued part
// of a NoneLast order (pendinglast.go): its rows' leading key is > 0 or
// = 0, and SQLite seeks on that beside the band and the cursor's bound.
// ok is false for the statements the split leaves as they were: every
// row, the ties, and the ascending rest of the valued rows, whose "> 0"
// the cursor's "> ?" subsumes.
func valuedSeek(k listKey, prefix string) (seek string, ok bool) {
	lead := orders[k.sort].keys[0]
	switch {
	case k.valued == everyRow || k.part == ties:
		return "", false
	case k.valued == noneOnly:
		return prefix + lead + "=?", true
	case k.part == start:
		return prefix + lead + ">?", true
	case k.desc:
		return prefix + lead + ">? AND " + lead + "<?", true
	}
	return "", false
}

func wantPlanStep(k listKey) string {
	o := orders[k.sort]
	index := o.index
	lead := o.keys[:len(o.keys)-1]
	cmp := ">"
	if k.desc {
		cmp = "<"
	}
	var band string
	if o.merged {
		band = "band=? AND "
	}
	if seek, ok := valuedSeek(k, band); ok {
		return "SEARCH puzzles USING INDEX " + index + " (" + seek + ")"
	}
	switch {
	case index == "" && k.part == start:
		return "SCAN puzzles" // rowid order, stopped by LIMIT
	case index == "":
		return "SEARCH puzzles USING INTEGER PRIMARY KEY (rowid" + cmp + "?)"
	case k.part == start && o.merged:
		return "SEARCH puzzles USING INDEX " + index + " (band=?)"
	case k.part == start:
		return "SCAN puzzles USING INDEX " + index
	case k.part == ties:
		return "SEARCH puzzles USING INDEX " + index + " (" + band + strings.Join(lead, "=? AND ") + "=? AND rowid" + cmp + "?)"
	case len(lead) == 0:
		return "SEARCH puzzles USING INDEX " + index + " (id" + cmp + "?)"
	case len(lead) == 1:
		return "SEARCH puzzles USING INDEX " + index + " (" + band + lead[0] + cmp + "?)"
	default:
		return "SEARCH puzzles USING INDEX " + index + " (" + band + "(" + strings.Join(lead, ",") + ")" + cmp + "(" + strings.TrimSuffix(strings.Repeat("?,", len(lead)), ",") + "))"
	}
}

// queryPlan returns the steps of EXPLAIN QUERY PLAN for stmt, its
// parameters all 1.
// rowLookups are the steps of a listing's plan that look up one listed
// row's own extras by key (migration 00016): its collection membership
// (the collection filter's EXISTS), its submitter's name and its
// collections' ids. Each costs a seek per row listed, never a scan, so the
// plan tests leave them out and check the listing's own walk.
var rowLookups = []string{
	"SEARCH collection_puzzles EXISTS USING PRIMARY KEY (collection_id=? AND puzzle_id=?)",
	"SEARCH players USING INTEGER PRIMARY KEY (rowid=?)",
	"SEARCH puzzle_figures USING INTEGER PRIMARY KEY (rowid=?)", // a row's players' figures (migration 00022)
	"USE TEMP B-TREE FOR string_agg(ORDER BY)",
	"SEARCH collection_puzzles USING COVERING INDEX collection_puzzles_puzzle (puzzle_id=?)",
}

// withoutRowLookups returns lines without the rowLookups and the
// correlated subqueries that hold them.
func withoutRowLookups(lines []string) []string {
	var out []string
	for _, l := range lines {
		if slices.Contains(rowLookups, l) || strings.HasPrefix(l, "CORRELATED SCALAR SUBQUERY ") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func queryPlan(t *testing.T, db *DB, stmt string) []string {
	t.Helper()
	args := make([]any, paramCount(stmt))
	for i := range args {
		args[i] = 1
	}
	rows, err := db.reader.Query("EXPLAIN QUERY PLAN "+stmt, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return withoutRowLookups(lines)
}

// paramCount is the number of parameters of stmt, numbered ?1 to ?N.
func paramCount(stmt string) int {
	n := 0
	for strings.Contains(stmt, "?"+strconv.Itoa(n+1)) {
		n++
	}
	return n
}

func testExport(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := tiedArchive(t, db, 60)
	for _, q := range []record.ListQuery{
		{},
		{Sort: record.SortClues, Desc: true},
		{Sort: record.SortSubmitted, UniqueOnly: true, Limit: 3, Cursor: "ignored"},
	} {
		if d := gocmp.Diff(sorted(all, normalizedOrFail(t, q)), exportAll(t, db, q)); d != "" {
			t.Errorf("export %+v (-want +got):\n%s", q, d)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := db.Export(ctx, record.ListQuery{}, func(record.Puzzle) error {
		n++
		if n == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 10 {
		t.Errorf("export stopped after %d with %v", n, err)
	}
}

func normalizedOrFail(t *testing.T, q record.ListQuery) record.ListQuery {
	t.Helper()
	q.Limit, q.Cursor = 0, ""
	q, err := normalize(q)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// FuzzDecodeCursor: no input makes decoding panic, and whatever decodes
// survives a round trip unchanged.
func FuzzDecodeCursor(f *testing.F) {
	for _, c := range []cursor{
		{sort: record.SortDifficulty, key: []int64{0, 0, 1}},
		{sort: record.SortClues, desc: true, unique: true, before: true, key: []int64{81, 1 << 40}},
		{sort: record.SortSubmitted, key: []int64{1<<63 - 1}},
	} {
		f.Add(c.encode(), len(c.key))
	}
	f.Add("!!", 2)
	f.Fuzz(func(t *testing.T, s string, nkeys int) {
		if nkeys < 1 || nkeys > 3 {
			return
		}
		c, err := decodeCursor(s, nkeys)
		if err != nil {
			if !errors.Is(err, record.ErrInvalidCursor) {
				t.Fatalf("%q: %v does not wrap ErrInvalidCursor", s, err)
			}
			return
		}
		again, err := decodeCursor(c.encode(), nkeys)
		if err != nil {
			t.Fatalf("re-encoded %q: %v", s, err)
		}
		if d := gocmp.Diff(*c, *again, gocmp.AllowUnexported(cursor{})); d != "" {
			t.Fatalf("round trip of %q (-first +second):\n%s", s, d)
		}
	})
}

// testExportAcrossChunks exports more puzzles than several chunks of the
// reading goroutine hold: every puzzle comes once, in order, from Export and
// (givens only) from ExportGivens, and an error from fn in the middle of a
// chunk stops both at once.
func testExportAcrossChunks(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	n := 3*exportChunk + 5
	ps := make([]record.Puzzle, n)
	for i := range ps {
		ps[i] = synthetic(int64(i+1), int64(i*7919%61), int64(i*104729%1000), 1+i%5/4)
		ps[i].GradeVersion = "test"
		if ps[i].Unique {
			ps[i].SetGradeTenths(bandGrades[i%len(bandGrades)])
		}
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	all := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	if len(all) != n {
		t.Fatalf("exported %d puzzles, want %d", len(all), n)
	}
	for _, q := range []record.ListQuery{
		{Sort: record.SortDifficulty, Desc: true},
		{Sort: record.SortSolveTime},
		{Sort: record.SortClues, UniqueOnly: true},
		{Sort: record.SortBacktracks, Band: sudoku.Bands[1].Band},
	} {
		t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
			want := sorted(all, normalizedOrFail(t, q))
			if q.Band != "" {
				want = slices.DeleteFunc(want, func(p record.Puzzle) bool { return p.Band != q.Band })
			}
			if d := gocmp.Diff(want, exportAll(t, db, q)); d != "" {
				t.Errorf("Export (-want +got):\n%s", d)
			}
			var givens []sudoku.Grid
			if err := db.ExportGivens(ctx, q, func(g sudoku.Grid) error {
				givens = append(givens, g)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			var wantGivens []sudoku.Grid
			for _, p := range want {
				wantGivens = append(wantGivens, p.Givens)
			}
			if d := gocmp.Diff(wantGivens, givens); d != "" {
				t.Errorf("ExportGivens (-want +got):\n%s", d)
			}
		})
	}
	stop := errors.New("stop")
	at := exportChunk + 3
	var got int
	err := db.Export(ctx, record.ListQuery{}, func(record.Puzzle) error {
		if got++; got == at {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || got != at {
		t.Errorf("Export stopped after %d with %v, want %d and stop", got, err, at)
	}
	got = 0
	err = db.ExportGivens(ctx, record.ListQuery{}, func(sudoku.Grid) error {
		if got++; got == at {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || got != at {
		t.Errorf("ExportGivens stopped after %d with %v, want %d and stop", got, err, at)
	}
	// The connection went back to the pool in a state fit for the next
	// export.
	if again := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted}); len(again) != n {
		t.Errorf("export after a stopped one: %d puzzles, want %d", len(again), n)
	}
}

// TestInvalidQueryKind: every query List refuses is an invalid input (400
// from the server, exit 2 from the command), never an internal error.
func TestInvalidQueryKind(t *testing.T) {
	db := MustOpenDB(t)
	for _, q := range []record.ListQuery{
		{Sort: "nope"},
		{Limit: record.MaxLimit + 1},
		{Band: "impossible"},
		{Played: "sometimes", Player: 1},
		{Collection: -1},
		{Collection: 1, Techniques: "x-wing"},
		{Played: record.PlayedSolved},
	} {
		_, err := db.List(context.Background(), q)
		if !errors.Is(err, ErrInvalidQuery) || record.KindOf(err) != record.KindInvalid {
			t.Errorf("%+v: %v (kind %v), want an invalid list query", q, err, record.KindOf(err))
		}
	}
}
