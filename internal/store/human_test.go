package store

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// humanSuite is the suite's part for the human order (migration 00021,
// record.SortHuman; added to the suite in suite_test.go).
var humanSuite = []suiteCase{
	{"HumanColumnAgrees", testHumanColumnAgrees},
	{"HumanOrder", testHumanOrder},
}

// testHumanColumnAgrees checks that the human column of migration 00021
// holds record.GradeSeconds of every grade from 0 to 15.0 (the column's
// exp and Go's agree once rounded), as the puzzle's HumanSeconds says.
func testHumanColumnAgrees(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	var grades []int64
	for v := range int64(151) {
		grades = append(grades, v)
	}
	ps := gradedArchive(t, db, grades)
	for _, p := range ps {
		var got int64
		if err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT human FROM puzzles WHERE id = ?"), p.ID).Scan(&got); err != nil {
			t.Fatal(err)
		}
		stored, err := db.Puzzle(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := record.GradeSeconds(p.GradeTenths()); got != want || stored.HumanSeconds() != want {
			t.Errorf("grade %d: column %d, puzzle %d, GradeSeconds %d", p.GradeTenths(), got, stored.HumanSeconds(), want)
		}
	}
}

// testHumanOrder: sort=human lists the puzzles by player_seconds where
// they have them and by their grade's prior time otherwise, on one scale,
// both orders, paging by cursor (pages of 1 and 3); the ungraded unplayed
// last in either order, by id; and the key follows player_seconds as the
// plays come.
func testHumanOrder(t *testing.T, bk backend) {
	db := bk.open(t)
	// By the prior: 9.0 is 3,686 s, 7.2 1,934 s, 4.5 735 s, 2.0 300 s.
	ps := gradedArchive(t, db, []int64{90, 20, 45, 72, 12})
	ung := archived(t, db, 500)
	// Three 20-second solves of the 9.0 bring it between the 4.5 and the
	// 7.2 (the model moves it only so far), and three of the ungraded one
	// put it in the order.
	for s := range byte(ratings.MinPlays) {
		play(t, db, 70+s, ps[0].ID, 20, account.Finish{Outcome: account.OutcomeSolved})
		play(t, db, 80+s, ung.ID, 600, account.Finish{Outcome: account.OutcomeSolved})
	}
	none := archived(t, db, 501) // neither: last
	all := append(slices.Clone(ps), ung, none)
	for i := range all {
		var err error
		if all[i], err = db.Puzzle(context.Background(), all[i].ID); err != nil {
			t.Fatal(err)
		}
	}
	if h := all[0].HumanSeconds(); all[0].PlayerSeconds == nil || h >= record.GradeSeconds(72) || h <= record.GradeSeconds(45) {
		t.Fatalf("the 9.0 solved in 20 s by three players: %d s", all[0].HumanSeconds())
	}
	for _, desc := range []bool{false, true} {
		want := humanOrder(all, desc)
		for _, limit := range []int{1, 3} {
			got := walkIDs(t, db, record.ListQuery{Sort: record.SortHuman, Desc: desc, Limit: limit})
			if !equalIDs(got, want) {
				t.Errorf("human desc=%v limit %d: %v, want %v", desc, limit, got, want)
			}
		}
	}
}

// humanOrder is the ids of ps in the human order: by HumanSeconds, then
// id, the puzzles with none (0) last by id in either direction.
func humanOrder(ps []record.Puzzle, desc bool) []int64 {
	s := slices.Clone(ps)
	slices.SortFunc(s, func(x, y record.Puzzle) int {
		hx, hy := x.HumanSeconds(), y.HumanSeconds()
		if (hx == 0) != (hy == 0) {
			if hx == 0 {
				return 1
			}
			return -1
		}
		c := cmp.Or(cmp.Compare(hx, hy), cmp.Compare(x.ID, y.ID))
		if desc && hx != 0 {
			c = -c
		}
		return c
	})
	return ids(s)
}

// walkIDs lists q page by page and returns the ids in order.
func walkIDs(t *testing.T, db *DB, q record.ListQuery) []int64 {
	t.Helper()
	var got []int64
	for {
		page, err := db.List(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ids(page.Puzzles)...)
		if page.NextCursor == "" {
			return got
		}
		q.Cursor = page.NextCursor
	}
}
