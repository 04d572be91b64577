package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// moderationSuite is the suite's part for flags, hiding, deleting and the
// audit trail (added to suite in suite_test.go).
var moderationSuite = []suiteCase{
	{"ModerationHideRestore", testModerationHideRestore},
	{"ModerationDelete", testModerationDelete},
	{"DeleteRefiguresPlayers", testDeleteRefiguresPlayers},
	{"ModerationFlags", testModerationFlags},
	{"ModerationConcurrent", testModerationConcurrent},
	{"ModerationAudit", testModerationAudit},
}

// counterFigures are the counters' sums, or the same figures counted from
// the visible rows.
type counterFigures struct {
	Total, Uniq, Submissions, Classes, UniqClasses int64
	Buckets                                        map[string][3]int64 // kind/bucket -> n, uniq, heads
	Grades                                         map[string]int64    // grade/technique -> n
}

// checkCounters checks every counter (counts, stat_buckets, grade_counts,
// summed over the shards) against COUNT(*) of the visible rows.
func checkCounters(t *testing.T, db *DB) {
	t.Helper()
	got, want := counterSums(t, db), rowFigures(t, db)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("counters against COUNT(*) of the visible rows (-rows +counters):\n%s", d)
	}
	page, err := db.List(context.Background(), record.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != want.Total {
		t.Errorf("listing's total %d, want %d", page.Total, want.Total)
	}
}

// counterSums reads the counters, summed over the shards.
func counterSums(t *testing.T, db *DB) counterFigures {
	t.Helper()
	ctx := context.Background()
	got := counterFigures{Buckets: map[string][3]int64{}, Grades: map[string]int64{}}
	if err := db.reader.QueryRowContext(ctx, "SELECT CAST(sum(total) AS BIGINT), CAST(sum(uniq) AS BIGINT), CAST(sum(submissions) AS BIGINT), CAST(sum(classes) AS BIGINT), CAST(sum(uniq_classes) AS BIGINT) FROM counts").
		Scan(&got.Total, &got.Uniq, &got.Submissions, &got.Classes, &got.UniqClasses); err != nil {
		t.Fatal(err)
	}
	rows, err := db.reader.QueryContext(ctx, "SELECT kind, bucket, CAST(sum(n) AS BIGINT), CAST(sum(uniq) AS BIGINT), CAST(sum(heads) AS BIGINT) FROM stat_buckets GROUP BY kind, bucket")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var kind string
		var b, n, u, h int64
		if err := rows.Scan(&kind, &b, &n, &u, &h); err != nil {
			t.Fatal(err)
		}
		if n != 0 || u != 0 || h != 0 {
			got.Buckets[fmt.Sprint(kind, "/", b)] = [3]int64{n, u, h}
		}
	}
	rows.Close()
	rows, err = db.reader.QueryContext(ctx, "SELECT grade, technique, CAST(sum(n) AS BIGINT) FROM grade_counts GROUP BY grade, technique")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var g, n int64
		var tech string
		if err := rows.Scan(&g, &tech, &n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			got.Grades[fmt.Sprint(g, "/", tech)] = n
		}
	}
	rows.Close()
	return got
}

// rowFigures counts what the counters should hold from the visible rows.
func rowFigures(t *testing.T, db *DB) counterFigures {
	t.Helper()
	want := counterFigures{Buckets: map[string][3]int64{}, Grades: map[string]int64{}}
	rows, err := db.reader.QueryContext(context.Background(), `SELECT solutions, submissions, backtracks, solve_ns, clues, same_as IS NULL AND canonical_key IS NOT NULL,
    grade_version IS NOT NULL, grade, technique FROM puzzles WHERE hidden = 0`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var sol, subs, bt, ns, clues, grade int64
		var head, graded bool
		var tech string
		if err := rows.Scan(&sol, &subs, &bt, &ns, &clues, &head, &graded, &grade, &tech); err != nil {
			t.Fatal(err)
		}
		u := int64(0)
		if sol == 1 {
			u = 1
		}
		want.Total++
		want.Uniq += u
		want.Submissions += subs
		h := int64(0)
		if head {
			want.Classes++
			want.UniqClasses += u
			h = u
		}
		add := func(key string, n, u, h int64) {
			c := want.Buckets[key]
			want.Buckets[key] = [3]int64{c[0] + n, c[1] + u, c[2] + h}
		}
		add(fmt.Sprint("backtracks/", sudoku.BacktracksBucket(bt)), 1, u, h)
		add(fmt.Sprint("solve_ns/", record.SolveTimeBucket(ns)), 1, u, 0)
		add(fmt.Sprint("clues/", clues), 1, u, 0)
		if graded {
			want.Grades[fmt.Sprint(grade, "/", tech)]++
		}
	}
	rows.Close()
	return want
}

// classes of moderation tests: three norvig puzzles, the first written
// three ways, graded alike.
func moderated(t *testing.T, db *DB) []record.Puzzle {
	t.Helper()
	ps := variants(t, 9, 3)
	for i := range ps {
		if i%2 == 0 {
			ps[i].GradeVersion, ps[i].Technique = "test", "t"
			ps[i].SetGradeTenths(int64(20 + 10*(i%3)))
		}
	}
	for i := range ps {
		stored, _, err := db.Submit(context.Background(), ps[i])
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = stored
	}
	checkCounters(t, db)
	return ps
}

// mod is a moderator of the tests.
var mod = moderation.Actor{ID: 0, Name: "tester", Via: moderation.ViaAPI}

// testModerationHideRestore: a hidden puzzle is gone from every read but
// the moderators', its givens (any way of writing them) are refused with
// the reason, the counters stop counting it; restoring brings it all back.
func testModerationHideRestore(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := moderated(t, db)
	head := ps[0] // the first entry of its class, with others
	if head.SameAs != nil {
		t.Fatalf("puzzle %d is not a class's first entry", head.ID)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if _, err := db.SetDaily(ctx, today, head); err != nil {
		t.Fatal(err)
	}
	lastYear := time.Now().UTC().AddDate(-1, 0, 0).Format(time.DateOnly)
	if _, err := db.SetDaily(ctx, lastYear, ps[1]); err != nil {
		t.Fatal(err)
	}
	dailies := func() int {
		ds, err := db.Dailies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(ds)
	}
	if _, err := db.HidePuzzle(ctx, head.ID, mod, "  "); record.KindOf(err) != record.KindInvalid {
		t.Errorf("hide without a reason: %v, want KindInvalid", err)
	}
	h, err := db.HidePuzzle(ctx, head.ID, mod, "a wrong puzzle")
	if err != nil || h.Reason != "a wrong puzzle" {
		t.Fatalf("hide: %+v, %v", h, err)
	}
	if _, err := db.HidePuzzle(ctx, head.ID, mod, "again"); !errors.Is(err, moderation.ErrAlreadyHidden) {
		t.Errorf("hide twice: %v", err)
	}
	checkCounters(t, db)
	hiddenEverywhere(t, db, head, ps)
	// A past day keeps its hidden puzzle, which Dailies leaves out.
	if _, err := db.HidePuzzle(ctx, ps[1].ID, mod, "x"); err != nil {
		t.Fatal(err)
	}
	if n := dailies(); n != 0 {
		t.Errorf("Dailies lists %d days of hidden puzzles", n)
	}
	if err := db.RestorePuzzle(ctx, ps[1].ID, mod, ""); err != nil || dailies() != 1 {
		t.Errorf("restore the past day's puzzle: %v, %d days", err, dailies())
	}
	if err := db.RestorePuzzle(ctx, head.ID, mod, "fixed"); err != nil {
		t.Fatal(err)
	}
	if err := db.RestorePuzzle(ctx, head.ID, mod, ""); !errors.Is(err, moderation.ErrNotHidden) {
		t.Errorf("restore twice: %v", err)
	}
	checkCounters(t, db)
	if p, err := db.Puzzle(ctx, head.ID); err != nil || p.Givens != head.Givens || p.Hidden {
		t.Errorf("restored puzzle: %v, hidden %v", err, p.Hidden)
	}
	if _, dup, err := db.Submit(ctx, head); err != nil || !dup {
		t.Errorf("resubmit after restore: dup %v, %v", dup, err)
	}
	givens := map[sudoku.Grid]bool{}
	for _, p := range ps {
		givens[p.Givens] = true
	}
	if n := len(exportAll(t, db, record.ListQuery{})); n != len(givens) {
		t.Errorf("export after restore: %d puzzles, want %d", n, len(givens))
	}
	checkCounters(t, db)
}

// hiddenEverywhere checks that the hidden puzzle h is in no read but
// ModPuzzle, and that its givens cannot come back (hiddenRefused).
func hiddenEverywhere(t *testing.T, db *DB, h record.Puzzle, ps []record.Puzzle) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Puzzle(ctx, h.ID); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("Puzzle of a hidden puzzle: %v", err)
	}
	if _, err := db.PuzzleByGivens(ctx, h.Givens); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("PuzzleByGivens of a hidden puzzle: %v", err)
	}
	if _, err := db.Daily(ctx, time.Now().UTC().Format(time.DateOnly)); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("today's puzzle of the day, hidden: %v", err)
	}
	for _, q := range []record.ListQuery{{}, {Distinct: true}, {UniqueOnly: true}, {Sort: record.SortGrade}} {
		for _, p := range exportAll(t, db, q) {
			if p.ID == h.ID {
				t.Errorf("export %+v has the hidden puzzle", q)
			}
		}
	}
	eq, err := db.Equivalents(ctx, ps[3])
	if err != nil || slices.ContainsFunc(eq, func(p record.Puzzle) bool { return p.ID == h.ID }) {
		t.Errorf("equivalents: %v, %d", err, len(eq))
	}
	for range 3 { // the next puzzle, from a few targets
		for _, target := range []float64{3, 5, 8} {
			if n, _, err := db.NextPuzzle(ctx, 0, target); err == nil && n.ID == h.ID {
				t.Errorf("NextPuzzle(%v) chose the hidden puzzle", target)
			}
		}
	}
	hiddenRefused(t, db, h, ps)
}

// hiddenRefused checks that the moderators see the hidden puzzle h, and
// that its givens, written any way, cannot come back.
func hiddenRefused(t *testing.T, db *DB, h record.Puzzle, ps []record.Puzzle) {
	t.Helper()
	ctx := context.Background()
	p, hid, err := db.ModPuzzle(ctx, h.ID)
	if err != nil || !p.Hidden || hid == nil || hid.Reason != "a wrong puzzle" || hid.ByName != "" && hid.ByName != "tester" {
		t.Errorf("ModPuzzle: %+v, %+v, %v", p.Hidden, hid, err)
	}
	var he *moderation.HiddenError
	if _, _, err := db.Submit(ctx, h); !errors.As(err, &he) || he.Reason != "a wrong puzzle" || record.KindOf(err) != record.KindConflict {
		t.Errorf("resubmit the hidden givens: %v", err)
	}
	other := shuffledFrom(t, h.Givens)
	// A new row of the hidden class: on PostgreSQL the group commit's
	// closing statement finds the hide and rolls the group back.
	if _, _, err := db.Submit(ctx, other); !errors.As(err, &he) || he.PuzzleID != h.ID {
		t.Errorf("submit another way of writing the hidden puzzle: %v", err)
	}
	if _, err := db.SubmitMany(ctx, []record.Puzzle{ps[1], other}); !errors.As(err, &he) {
		t.Errorf("submit another way of writing the hidden puzzle: %v", err)
	}
	set, err := db.HiddenClasses(ctx)
	if err != nil || set.Of(&ps[1]) != nil || set.Of(&other) == nil || set.Of(&other).PuzzleID != h.ID {
		t.Errorf("HiddenClasses: %v, %v", set, err)
	}
}

// shuffledFrom is g written another way (its first two rows swapped),
// rated.
func shuffledFrom(t *testing.T, g sudoku.Grid) record.Puzzle {
	t.Helper()
	tr := g
	for c := range 9 {
		tr[c], tr[9+c] = g[9+c], g[c]
	}
	p, err := record.Rate(tr, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testDeleteRefiguresPlayers: deleting a puzzle takes its solves, hints and
// give-ups out of its players' times by grade and techniques. Players ann
// and bob play the same puzzles (imported, with their times), but ann also
// puzzle 2 (twice, hints the second time): once 2 is deleted, ann's figures
// are bob's, the fastest and slowest of the grade 2 shares with 8 rebuilt;
// once 0 (given up by both) is deleted too, its technique leaves both.
func testDeleteRefiguresPlayers(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := moderated(t, db) // 0, 2, 4 and 8 distinct, graded 2.0, 4.0, 3.0, 4.0; 6 is 0
	var players [2]account.Player
	for i, name := range []string{"Ann", "Bob"} {
		var err error
		if players[i], err = db.AddUser(ctx, name, "", account.RolePlayer, moderation.CLI()); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var as []ImportedAttempt
	add := func(player string, p record.Puzzle, seconds int64, outcome account.Outcome) {
		at = at.Add(time.Hour)
		as = append(as, ImportedAttempt{PuzzleID: p.ID, Imported: account.Imported{Player: player, Puzzle: p.Givens.String(), Seconds: seconds, Outcome: outcome, At: at}})
	}
	add("ann", ps[2], 10, account.OutcomeSolved)
	for _, name := range []string{"ann", "bob"} {
		add(name, ps[8], 50, account.OutcomeSolved)
		add(name, ps[4], 30, account.OutcomeSolved)
		add(name, ps[0], 70, account.OutcomeGaveUp)
	}
	if _, err := db.ImportAttempts(ctx, as, nil); err != nil {
		t.Fatal(err)
	}
	a, _, err := db.StartAttempt(ctx, players[0].ID, ps[2].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.FinishAttempt(ctx, players[0].ID, a.ID, account.Finish{Outcome: account.OutcomeSolved, Grid: ps[2].Solution.String(),
		Hints: 2, Techniques: []string{"X-Wing", "X-Wing"}}); err != nil {
		t.Fatal(err)
	}
	figures := func(p account.Player) string {
		t.Helper()
		s, err := db.Summary(ctx, p.ID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%+v %+v", s.ByGrade, s.Techniques)
	}
	bob := figures(players[1])
	if ann := figures(players[0]); ann == bob || !strings.Contains(ann, "X-Wing") || !strings.Contains(bob, "Fastest:50") {
		t.Fatalf("before the deletes, ann %s\nbob %s\nwant ann's with puzzle 2's solves and hints, bob's fastest 50 s at 4.0", ann, bob)
	}
	if err := db.DeletePuzzle(ctx, ps[2].ID, mod, ""); err != nil {
		t.Fatal(err)
	}
	if ann, bob2 := figures(players[0]), figures(players[1]); ann != bob || bob2 != bob {
		t.Errorf("after deleting the puzzle only ann played:\nann %s\nbob %s\nwant bob's as before: %s", ann, bob2, bob)
	}
	if err := db.DeletePuzzle(ctx, ps[0].ID, mod, ""); err != nil {
		t.Fatal(err)
	}
	ann, bob := figures(players[0]), figures(players[1])
	if ann != bob || strings.Contains(ann, "GaveUp:1") || !strings.Contains(ann, "Solves:1") {
		t.Errorf("after deleting the puzzle both gave up:\nann %s\nbob %s\nwant the same, with their solves and no give-up", ann, bob)
	}
}

// testModerationDelete: deleting a puzzle takes its attempts (and their
// players' counts) and flags with it; deleting a class's first entry hands
// the class to the next; the counters stay exact, hidden or not.
func testModerationDelete(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := moderated(t, db)
	pl, err := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := db.StartAttempt(ctx, pl.ID, ps[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.FinishAttempt(ctx, pl.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Flag(ctx, ps[0].ID, pl.ID, moderation.ReasonWrong, ""); err != nil {
		t.Fatal(err)
	}
	if err := db.DeletePuzzle(ctx, ps[0].ID, mod, "spam"); err != nil {
		t.Fatal(err)
	}
	checkCounters(t, db)
	checkArchiveClasses(t, db)
	if _, _, err := db.ModPuzzle(ctx, ps[0].ID); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("deleted puzzle: %v", err)
	}
	s, err := db.Summary(ctx, pl.ID, time.Now())
	if err != nil || s.Attempts != 0 || s.GaveUp != 0 {
		t.Errorf("player's counts after the delete: %+v, %v", s, err)
	}
	if err := db.DeletePuzzle(ctx, ps[0].ID, mod, ""); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("delete twice: %v", err)
	}
	// A hidden puzzle, deleted: the counters did not count it.
	if _, err := db.HidePuzzle(ctx, ps[1].ID, mod, "x"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeletePuzzle(ctx, ps[1].ID, mod, ""); err != nil {
		t.Fatal(err)
	}
	checkCounters(t, db)
	// The new first entry of the class, deleted too, then the last one.
	gone := map[int64]bool{ps[0].ID: true, ps[1].ID: true}
	for _, p := range ps[3:] {
		if p.Canonical == ps[0].Canonical && !gone[p.ID] {
			gone[p.ID] = true
			if err := db.DeletePuzzle(ctx, p.ID, mod, ""); err != nil {
				t.Fatal(err)
			}
			checkCounters(t, db)
			checkArchiveClasses(t, db)
		}
	}
	// The class is gone: its next submission starts it again.
	stored, dup, err := db.Submit(ctx, ps[0])
	if err != nil || dup || stored.SameAs != nil {
		t.Errorf("resubmit a deleted class: dup %v, same_as %v, %v", dup, stored.SameAs, err)
	}
	checkCounters(t, db)
}

// checkArchiveClasses checks that each class has one first entry and the
// others point to it.
func checkArchiveClasses(t *testing.T, db *DB) {
	t.Helper()
	all := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	heads := map[sudoku.Grid]int64{}
	for _, p := range all {
		if p.SameAs == nil {
			if h, ok := heads[p.Canonical]; ok {
				t.Errorf("class %s has two first entries, %d and %d", p.Canonical, h, p.ID)
			}
			heads[p.Canonical] = p.ID
		}
	}
	for _, p := range all {
		if p.SameAs != nil && heads[p.Canonical] != *p.SameAs {
			t.Errorf("puzzle %d filed under %d, its class's first entry is %d", p.ID, *p.SameAs, heads[p.Canonical])
		}
	}
}

// testModerationFlags: a player flags a puzzle once; the queue lists the
// flagged visible puzzles, paged; dismissing or hiding resolves them.
func testModerationFlags(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := moderated(t, db)
	var players []int64
	for i := range 3 {
		p, err := db.NewPlayer(ctx, session(byte(i+1)), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p.ID)
	}
	for i, pl := range players {
		if _, err := db.Flag(ctx, ps[1].ID, pl, moderation.ReasonDuplicate, fmt.Sprint("flag ", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Flag(ctx, ps[1].ID, players[0], moderation.ReasonOther, ""); !errors.Is(err, moderation.ErrFlagged) || record.KindOf(err) != record.KindConflict {
		t.Errorf("second flag: %v", err)
	}
	if _, err := db.Flag(ctx, ps[2].ID, players[0], "nonsense", ""); record.KindOf(err) != record.KindInvalid {
		t.Errorf("unknown reason: %v", err)
	}
	if _, err := db.Flag(ctx, ps[2].ID, players[0], moderation.ReasonOther, string(make([]rune, moderation.MaxFlagText+1))); record.KindOf(err) != record.KindInvalid {
		t.Errorf("text too long: %v", err)
	}
	if _, err := db.Flag(ctx, 99999, players[0], moderation.ReasonOther, ""); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("flag an unknown puzzle: %v", err)
	}
	if _, err := db.Flag(ctx, ps[2].ID, players[1], moderation.ReasonOffensive, "rude"); err != nil {
		t.Fatal(err)
	}
	checkQueue(t, db, ps, players)
}

// checkQueue pages the moderators' queue of testModerationFlags, then
// resolves it by dismissing and hiding; a deleted player's flags go.
func checkQueue(t *testing.T, db *DB, ps []record.Puzzle, players []int64) {
	t.Helper()
	ctx := context.Background()
	q, err := db.OpenFlags(ctx, 0, 1)
	if err != nil || len(q) != 1 || q[0].Puzzle.ID != ps[1].ID || len(q[0].Flags) != 3 || q[0].Flags[0].Text != "flag 0" {
		t.Fatalf("first page of the queue: %+v, %v", q, err)
	}
	q, err = db.OpenFlags(ctx, q[0].Flags[0].ID, 10)
	if err != nil || len(q) != 1 || q[0].Puzzle.ID != ps[2].ID {
		t.Fatalf("second page of the queue: %+v, %v", q, err)
	}
	if n, err := db.Dismiss(ctx, ps[1].ID, mod, "not a duplicate"); err != nil || n != 3 {
		t.Errorf("dismiss: %d, %v", n, err)
	}
	if _, err := db.Dismiss(ctx, ps[1].ID, mod, ""); !errors.Is(err, moderation.ErrNoOpenFlags) {
		t.Errorf("dismiss again: %v", err)
	}
	if _, err := db.HidePuzzle(ctx, ps[2].ID, mod, "rude"); err != nil {
		t.Fatal(err)
	}
	if q, err := db.OpenFlags(ctx, 0, 10); err != nil || len(q) != 0 {
		t.Errorf("queue after dismissing and hiding: %+v, %v", q, err)
	}
	if _, err := db.Flag(ctx, ps[2].ID, players[2], moderation.ReasonOther, ""); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("flag a hidden puzzle: %v", err)
	}
	// A deleted player's flags go with them.
	if err := db.DeletePlayer(ctx, players[0], moderation.Actor{ID: players[0], Via: moderation.ViaAPI}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM flags WHERE player_id = ?"), players[0]).Scan(&n); err != nil || n != 0 {
		t.Errorf("flags of a deleted player: %d, %v", n, err)
	}
}

// testModerationConcurrent hides, restores, deletes and submits the same
// puzzles at once through two handles: every act either happens whole or
// is refused, and the counters end exact.
func testModerationConcurrent(t *testing.T, bk backend) {
	ctx := context.Background()
	dbs := twoServers(t, bk)
	ps := moderated(t, dbs[0])
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for j := range 12 {
				db := dbs[(w+j)%2]
				p := ps[(w+j)%len(ps)]
				var err error
				switch (w + j) % 4 {
				case 0:
					_, err = db.HidePuzzle(ctx, p.ID, mod, "busy")
				case 1:
					err = db.RestorePuzzle(ctx, p.ID, mod, "")
				case 2:
					_, _, err = db.Submit(ctx, p)
				case 3:
					if j == 11 && w%4 == 0 {
						err = db.DeletePuzzle(ctx, p.ID, mod, "")
					}
				}
				switch k := record.KindOf(err); {
				case err == nil, k == record.KindConflict, k == record.KindNotFound:
				default:
					t.Errorf("worker %d: %v", w, err)
				}
			}
		})
	}
	wg.Wait()
	checkCounters(t, dbs[0])
	checkArchiveClasses(t, dbs[0])
}

// testModerationAudit: every act is in the trail, newest first, paged; the
// database refuses to change or remove an entry.
func testModerationAudit(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p := archived(t, db, 3)
	u, err := db.AddUser(ctx, "admin1", "hash", account.RoleAdmin, moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetRole(ctx, "ADMIN1", account.RoleModerator, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRole(ctx, "admin1", account.RoleModerator, moderation.CLI()); err != nil { // no change: not recorded
		t.Fatal(err)
	}
	if _, err := db.AddToken(ctx, "admin1", session(5), moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	by := moderation.Actor{ID: u.ID, Name: "admin1", Via: moderation.ViaAPI}
	if _, err := db.HidePuzzle(ctx, p.ID, by, "why not"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeletePuzzle(ctx, p.ID, by, "gone"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeletePlayer(ctx, u.ID, by); err != nil {
		t.Fatal(err)
	}
	es, err := db.Audit(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, fmt.Sprintf("%s %s %s p%d %s %q %q", e.Actor.Via, e.Actor.Name, e.Action, e.PuzzleID, e.PlayerName, e.Reason, e.Detail))
	}
	want := []string{
		`api admin1 account_delete p0 admin1 "" ""`,
		fmt.Sprintf(`api admin1 delete p%d  "gone" "0 attempts deleted"`, p.ID),
		fmt.Sprintf(`api admin1 hide p%d  "why not" "0 open flags resolved"`, p.ID),
		`cli command line token p0 admin1 "" "token 1"`,
		`cli command line role p0 admin1 "" "admin -> moderator"`,
		`cli command line user_add p0 admin1 "" "role admin"`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("audit trail (-want +got):\n%s", d)
	}
	page, err := db.Audit(ctx, es[1].ID, 2)
	if err != nil || len(page) != 2 || page[0].ID != es[2].ID {
		t.Errorf("a page before entry %d: %+v, %v", es[1].ID, page, err)
	}
	if _, err := db.Audit(ctx, 0, 0); record.KindOf(err) != record.KindInvalid {
		t.Errorf("limit 0: %v", err)
	}
	for _, q := range []string{"UPDATE audit SET reason = 'edited'", "DELETE FROM audit"} {
		if err := db.write(ctx, func(tx *sql.Tx) error { _, err := tx.Exec(q); return err }); err == nil {
			t.Errorf("%s: the database let it through", q)
		}
	}
	if after, err := db.Audit(ctx, 0, 100); err != nil || len(after) != len(es) || after[0].Reason != es[0].Reason {
		t.Errorf("trail after the refused changes: %d entries, %v", len(after), err)
	}
}
