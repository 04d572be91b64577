package store

// parity_test.go holds the store to one result for each rule it computes
// twice, once for each database (docs/storage.md, "Where the code
// differs"): a PostgreSQL path of few round trips (groupclose.go,
// group.go, startpg.go, sessionread.go, the unnest arrays of insert.go
// and upgrade.go) against SQLite's statements one after another, and the
// schema's triggers, written for each. Each case writes the same
// inputs into a new archive of each database and returns what the rule
// decided, as text; the two texts must be equal. The finishes' own
// parity tests are TestFinishParity and TestFinishGroupParity.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// A parityCase writes its inputs into db and returns, as text, what the
// archive answered and holds.
type parityCase struct {
	name string
	run  func(t *testing.T, db *DB) string
}

// paritySuite is every rule with a PostgreSQL path and an SQLite path.
var paritySuite = []parityCase{
	{"GroupCommit", parityGroupCommit}, // submit.go's submit, groupclose.go
	{"Bulk", parityBulk},               // link.go and tally.go, group.go's closeTally; insert.go
	{"Grades", parityGrades},           // SetGrades, setGradesArrays; ClaimUngraded
	{"Moderation", parityModeration},   // recount.go
	{"Triggers", parityTriggers},       // the counters' triggers: migrations/ and migrations/postgres/
	{"Sessions", paritySessions},       // SessionPlayer, sessionread.go
	{"Starts", parityStarts},           // startSteps, startpg.go
	{"Listings", parityListings},       // listsql.go's merged orders
	{"Copy", parityCopy},               // copy.go, tables.go
}

// TestParity runs each case of paritySuite on SQLite and on PostgreSQL
// and compares what they return.
func TestParity(t *testing.T) {
	bks := parityBackends(t)
	for _, pc := range paritySuite {
		t.Run(pc.name, func(t *testing.T) {
			got := make([]string, len(bks))
			for i, bk := range bks {
				got[i] = pc.run(t, bk.open(t))
			}
			if diff := cmp.Diff(strings.Split(got[0], "\n"), strings.Split(got[1], "\n")); diff != "" {
				t.Errorf("SQLite and PostgreSQL differ (-sqlite +postgres):\n%s", diff)
			}
		})
	}
	// The test cluster collates text in byte order (initdb --locale=C), as
	// SQLite does; a database made with a language's locale does not, and
	// a copy must still read text keys in byte order.
	t.Run("CopyCollated", func(t *testing.T) {
		icu := backend{name: "postgres-icu", dsn: func(tb testing.TB) string { return icuDB(tb, bks[1].dsn(tb)) }}
		want, got := parityCopy(t, bks[0].open(t)), parityCopy(t, icu.open(t))
		if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")); diff != "" {
			t.Errorf("SQLite and PostgreSQL with ICU's collation differ (-sqlite +postgres):\n%s", diff)
		}
	})
}

// icuDB makes, beside the PostgreSQL database dsn names, one whose text
// collates by ICU's root locale, and returns its URL. It skips tb when
// the server has no ICU.
func icuDB(tb testing.TB, dsn string) string {
	tb.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	u.Path += "_icu"
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+strings.TrimPrefix(u.Path, "/")+
		" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C' LOCALE_PROVIDER icu ICU_LOCALE 'und'"); err != nil {
		tb.Skipf("skipping: no database with ICU's collation: %v", err)
	}
	return u.String()
}

// parityBackends are SQLite and PostgreSQL, for a test that compares them.
func parityBackends(t *testing.T) []backend {
	return []backend{sqliteBackend, pgBackend}
}

// parityPuzzle is synthetic puzzle n written as a way of the class of
// synthetic puzzle class (n's own when class is 0; the two must have as
// many givens), with measures spread over the histograms' buckets, two
// solutions when n%5 == 4, and a grade when n is even.
func parityPuzzle(t *testing.T, n, class int64) record.Puzzle {
	t.Helper()
	solutions := 1
	if n%5 == 4 {
		solutions = 2
	}
	p := synthetic(n, n%9*15, 900+n%13*4000, solutions)
	if class != 0 {
		if bits.OnesCount64(uint64(n)) != bits.OnesCount64(uint64(class)) {
			t.Fatalf("puzzles %d and %d have different numbers of givens", n, class)
		}
		p.Canonical = synthetic(class, 0, 0, 1).Canonical
	}
	if n%2 == 0 && solutions == 1 {
		p.GradeVersion, p.Technique = "test", []string{"Hidden Single", "X-Wing", "XY-Wing"}[n%3]
		p.Techniques = record.JoinTechniques([]string{"Hidden Single", p.Technique})
		p.SetGradeTenths(10 + n%60)
	}
	return p
}

// paritySubmit archives parityPuzzle(n, class) alone.
func paritySubmit(t *testing.T, db *DB, n, class int64) record.Puzzle {
	t.Helper()
	p, _, err := db.Submit(context.Background(), parityPuzzle(t, n, class))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// parityPlayed has three players solve puzzle id (ratings.MinPlays), so
// that its class shows players' figures and player_seconds.
func parityPlayed(t *testing.T, db *DB, id int64, from int) {
	t.Helper()
	for i, player := range newPlayers(t, db, from, 3) {
		playAs(t, db, player, id, int64(200+100*i), account.Finish{Outcome: account.OutcomeSolved})
	}
}

// hide hides puzzle id.
func hide(t *testing.T, db *DB, id int64) {
	t.Helper()
	if _, err := db.HidePuzzle(context.Background(), id, mod, "parity"); err != nil {
		t.Fatal(err)
	}
}

// refusedAs names an error's kind, for an answer both databases must give.
func refusedAs(err error) string {
	for _, e := range []error{record.ErrNotFound, ErrInvalidPuzzle} {
		if errors.Is(err, e) {
			return "refused: " + e.Error()
		}
	}
	var h *moderation.HiddenError
	if errors.As(err, &h) {
		return "refused: hidden"
	}
	return fmt.Sprintf("refused: kind %d", record.KindOf(err))
}

// givensByID names puzzle id by its givens: PostgreSQL's ids skip the
// values a conflicting insert took, so ids are compared through rows.
func givensByID(t *testing.T, db *DB, id *int64) string {
	t.Helper()
	if id == nil {
		return "-"
	}
	var g string
	if err := db.reader.QueryRow(db.d.sql("SELECT givens FROM puzzles WHERE id = ?"), *id).Scan(&g); err != nil {
		t.Fatalf("puzzle %d: %v", *id, err)
	}
	return g
}

// parityGroupCommit commits groups of submissions as one group commit
// each: new puzzles, a puzzle twice in a group, a repeat of an archived
// one, another writing of a played class (its figures), a new class
// written twice in a group, two solutions; a group with another writing
// of a hidden puzzle (rolled back, each submission then alone); the
// hidden puzzle's own givens.
func parityGroupCommit(t *testing.T, db *DB) string {
	a := paritySubmit(t, db, 3, 0)
	h := paritySubmit(t, db, 7, 0)
	parityPlayed(t, db, a.ID, 1000)
	hide(t, db, h.ID)
	groups := [][][2]int64{
		{{6, 0}, {6, 0}, {3, 0}, {5, 3}, {15, 0}, {23, 15}, {29, 15}, {31, 0}, {1, 0}, {24, 0}},
		{{47, 0}, {11, 7}, {6, 0}, {55, 47}, {12, 0}},
		{{7, 0}, {9, 6}, {2, 0}, {10, 3}},
	}
	var out strings.Builder
	for i, g := range groups {
		ps := make([]record.Puzzle, len(g))
		for j, n := range g {
			ps[j] = parityPuzzle(t, n[0], n[1])
		}
		res, err := commitGroupOf(db, ps)
		if err != nil {
			t.Fatal(err)
		}
		for j, r := range res {
			if r.err != nil {
				fmt.Fprintf(&out, "group %d, %d: %s\n", i, j, refusedAs(r.err))
				continue
			}
			fmt.Fprintf(&out, "group %d, %d: %s duplicate=%v submissions=%d same_as=%s plays=%d player_seconds=%v\n", i, j, r.stored.Givens,
				r.dup[0], r.stored.Submissions, givensByID(t, db, r.stored.SameAs), r.stored.Plays, record.OrZero(r.stored.PlayerSeconds))
		}
	}
	return out.String() + dumpArchive(t, db)
}

// parityBulk writes by SubmitMany, AddMany and a batch in parts: more
// rows than one statement of insertMany and more classes than one look-up
// of classes take on SQLite, with repeats within a call and of earlier
// ones, other writings of classes archived before, made earlier in the
// call or played; then a SubmitMany with another writing of a hidden
// puzzle, refused whole.
func parityBulk(t *testing.T, db *DB) string {
	ctx := context.Background()
	a := paritySubmit(t, db, 3, 0)
	h := paritySubmit(t, db, 7, 0)
	parityPlayed(t, db, a.ID, 1100)
	hide(t, db, h.ID)
	var out strings.Builder
	dups := func(what string, d []bool, err error) {
		if err != nil {
			fmt.Fprintf(&out, "%s: %s\n", what, refusedAs(err))
			return
		}
		fmt.Fprintf(&out, "%s: %v\n", what, d)
	}
	d, err := db.SubmitMany(ctx, bulkPuzzles(t, 1<<10, 150, a))
	dups("SubmitMany", d, err)
	d, err = db.AddMany(ctx, bulkPuzzles(t, 1<<10+300, 120, a))
	dups("AddMany", d, err)
	b, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range [][]record.Puzzle{bulkPuzzles(t, 1<<10+100, 90, a), bulkPuzzles(t, 1<<12, 70, a)} {
		if err := b.Add(part); err != nil {
			t.Fatal(err)
		}
	}
	n, err := b.Commit()
	fmt.Fprintf(&out, "batch: %d duplicates, %v\n", n, err)
	d, err = db.SubmitMany(ctx, []record.Puzzle{parityPuzzle(t, 1<<13, 0), parityPuzzle(t, 11, 7)})
	dups("SubmitMany of a hidden class", d, err)
	return out.String() + dumpArchive(t, db)
}

// bulkPuzzles are n puzzles from synthetic puzzle from on: every third
// another writing of an earlier class with as many givens, every seventh
// a repeat of an earlier one (the seventh a), every eleventh another
// writing of a's class (synthetic puzzle 3's).
func bulkPuzzles(t *testing.T, from int64, n int, a record.Puzzle) []record.Puzzle {
	t.Helper()
	var ps []record.Puzzle
	var heads []int64 // the numbers of the classes made so far, in order
	for i := range n {
		k := from + int64(i)
		switch {
		case i%11 == 10: // two givens, as 3, past every other number here
			ps = append(ps, parityPuzzle(t, 1<<(20+k%10)|1<<(30+k/10%10), 3))
			continue
		case i%7 == 6 && i > 10:
			ps = append(ps, ps[i-9])
			continue
		case i == 6:
			ps = append(ps, a)
			continue
		}
		class := int64(0)
		if i%3 == 2 {
			for _, m := range slices.Backward(heads) {
				if bits.OnesCount64(uint64(m)) == bits.OnesCount64(uint64(k)) {
					class = m
					break
				}
			}
		}
		if class == 0 {
			heads = append(heads, k)
		}
		ps = append(ps, parityPuzzle(t, k, class))
	}
	return ps
}

// parityGrades grades rows by SetGrades (a hidden one among them, which
// stays ungraded), after the rows waiting for a grade are read and
// claimed (a graded row, a hidden row and an unknown id among the claims).
func parityGrades(t *testing.T, db *DB) string {
	ctx := context.Background()
	var ids []int64
	for n := int64(1 << 14); n < 1<<14+40; n++ {
		p := parityPuzzle(t, n, 0)
		p.GradeVersion, p.Technique, p.Techniques = "", "", ""
		p.SetGradeTenths(0)
		if n%8 == 0 {
			p = parityPuzzle(t, n, 0)
		}
		ids = append(ids, paritySubmit2(t, db, p).ID)
	}
	hide(t, db, ids[5])
	var out strings.Builder
	waiting, err := db.Ungraded(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := db.ClaimUngraded(ctx, []int64{ids[0], ids[1], ids[5], ids[8], 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range claimed {
		fmt.Fprintf(&out, "claimed %s\n", p.Givens)
	}
	if err := db.ReleaseClaims(ctx, ids); err != nil {
		t.Fatal(err)
	}
	hidden, _, err := db.ModPuzzle(ctx, ids[5])
	if err != nil {
		t.Fatal(err)
	}
	waiting = append(waiting, hidden)
	for i := range waiting {
		p := &waiting[i]
		fmt.Fprintf(&out, "waiting %s\n", p.Givens)
		p.GradeVersion, p.Technique = "v", []string{"Naked Pair", "X-Wing"}[i%2]
		p.Techniques = record.JoinTechniques([]string{"Naked Single", p.Technique})
		if p.Solutions == 1 {
			p.SetGradeTenths(int64(12 + 7*i))
		}
	}
	if err := db.SetGrades(ctx, waiting); err != nil {
		t.Fatal(err)
	}
	return out.String() + dumpArchive(t, db)
}

// paritySubmit2 archives p alone.
func paritySubmit2(t *testing.T, db *DB, p record.Puzzle) record.Puzzle {
	t.Helper()
	stored, _, err := db.Submit(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return stored
}

// parityModeration hides, restores and deletes first entries of classes
// and their other writings, and flags one, recounting every counter.
func parityModeration(t *testing.T, db *DB) string {
	ctx := context.Background()
	a := paritySubmit(t, db, 3, 0)
	members := []record.Puzzle{paritySubmit(t, db, 5, 3), paritySubmit(t, db, 6, 3), paritySubmit(t, db, 9, 3)}
	b := paritySubmit(t, db, 15, 0)
	c := paritySubmit(t, db, 23, 15)
	parityPlayed(t, db, a.ID, 1200)
	player := newPlayers(t, db, 1300, 1)[0]
	var out strings.Builder
	step := func(what string, err error) {
		if err != nil {
			fmt.Fprintf(&out, "%s: %s\n", what, refusedAs(err))
		}
	}
	_, err := db.Flag(ctx, b.ID, player, moderation.ReasonWrong, "parity")
	step("flag", err)
	hide(t, db, a.ID)
	hide(t, db, members[1].ID)
	step("restore", db.RestorePuzzle(ctx, a.ID, mod, "parity"))
	step("delete", db.DeletePuzzle(ctx, members[0].ID, mod, "parity"))
	hide(t, db, b.ID)
	step("delete hidden", db.DeletePuzzle(ctx, b.ID, mod, "parity"))
	step("delete other writing", db.DeletePuzzle(ctx, c.ID, mod, "parity"))
	return out.String() + dumpArchive(t, db)
}

// parityTriggers changes rows in the ways the schema's triggers count
// (SQLite's, and PostgreSQL's plpgsql in migrations/postgres): grades
// withdrawn (ResetGrades) and given again with new measures (Remeasure:
// rows moving between the histograms' buckets), and submissions changed
// and rows deleted by hand.
func parityTriggers(t *testing.T, db *DB) string {
	ctx := context.Background()
	var ps []record.Puzzle
	for n := int64(1 << 15); n < 1<<15+30; n++ {
		class := int64(0)
		if n%6 == 5 && bits.OnesCount64(uint64(n)) == bits.OnesCount64(uint64(n-3)) {
			class = n - 3
		}
		ps = append(ps, paritySubmit(t, db, n, class))
	}
	n, err := db.ResetGrades(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "reset %d\n", n)
	var again []record.Puzzle
	for i := 0; i < len(ps); i += 3 {
		p := ps[i]
		p.Backtracks, p.SolveNS = p.Backtracks*7+3, p.SolveNS*40
		if p.Solutions == 1 && i%2 == 0 {
			p.GradeVersion, p.Technique = "other", "X-Wing"
			p.SetGradeTenths(int64(40 + i))
		}
		again = append(again, p)
	}
	if err := db.Remeasure(ctx, again); err != nil {
		t.Fatal(err)
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(db.d.sql("UPDATE puzzles SET submissions = submissions + 2 WHERE id = ?"), ps[4].ID); err != nil {
			return err
		}
		_, err := tx.Exec(db.d.sql("DELETE FROM puzzles WHERE id IN (?, ?)"), ps[7].ID, ps[10].ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String() + dumpArchive(t, db)
}

// dumpArchive writes out what the rules decide of the puzzles: each row
// by its givens (its submissions, class, hidden flag, measures, grade,
// band, players' figures), the classes, the technique index (by name:
// PostgreSQL's ids of technique_names skip too), every
// counter summed over the shards and the stats read from them.
func dumpArchive(t *testing.T, db *DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT p.givens, p.submissions, h.givens AS same_as, p.hidden, p.solutions, p.clues, p.backtracks, p.solve_ns,
    p.grade_version, p.grade, p.technique, p.techniques, p.band, p.player_seconds, p.human, f.plays, f.solves, f.median_seconds
FROM puzzles AS p LEFT JOIN puzzles AS h ON h.id = p.same_as LEFT JOIN puzzle_figures AS f ON f.puzzle_id = p.id`,
		`SELECT c.canonical_key, p.givens FROM classes AS c JOIN puzzles AS p ON p.id = c.first_id`,
		`SELECT n.name, p.givens FROM puzzle_techniques AS t JOIN puzzles AS p ON p.id = t.puzzle_id JOIN technique_names AS n ON n.id = t.technique`,
		`SELECT n.name, CAST(sum(c.n) AS BIGINT) AS n FROM technique_counts AS c JOIN technique_names AS n ON n.id = c.technique GROUP BY n.name HAVING sum(c.n) <> 0`,
	} {
		for _, line := range dumpRows(t, db, q) {
			b.WriteString(line + "\n")
		}
	}
	fmt.Fprintf(&b, "counters %+v\n", counterSums(t, db))
	s, err := db.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "stats %+v\n", s)
	return b.String()
}

// dumpRows runs q on db and returns its rows as lines, sorted (in Go: the
// two databases collate text differently), each value as text whatever
// the driver's type for it.
func dumpRows(t *testing.T, db *DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.reader.Query(db.d.sql(q), args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		var line strings.Builder
		for i, v := range scanRow(t, rows, len(cols)) {
			fmt.Fprintf(&line, "%s=%s ", cols[i], dumpValue(v))
		}
		lines = append(lines, line.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	return lines
}

// scanRow scans the row rows is at into n values, each of whatever type
// the driver gives it: for the dumps that compare whole tables, whose
// columns they do not know ahead.
func scanRow(t *testing.T, rows *sql.Rows, n int) []any {
	t.Helper()
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	return vals
}

// dumpValue writes v as text: bytes as text when they are printable, in
// hex otherwise; times in UTC.
func dumpValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		for _, c := range v {
			if c < ' ' || c > '~' {
				return fmt.Sprintf("%x", v)
			}
		}
		return string(v)
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano)
	case sql.RawBytes:
		return dumpValue([]byte(v))
	}
	return fmt.Sprint(v)
}
