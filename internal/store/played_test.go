package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// testListPlayed: the played filter keeps the puzzles a player solved (by
// class: solving one writing of a puzzle solves the others) or never
// played (no attempt at its class, finished or open), in every order and
// direction, page by page both ways, with exact totals, beside the other
// filters; its cursors are its own, and it needs a player.
func testListPlayed(t *testing.T, bk backend) {
	db := bk.open(t)
	f := playedFixture(t, db)
	sortedIDs := func(ps ...record.Puzzle) []int64 {
		var s []int64
		for _, x := range ps {
			s = append(s, x.ID)
		}
		slices.Sort(s)
		return s
	}
	all := f.all
	want := map[record.Played][]int64{
		record.PlayedSolved:   sortedIDs(all[0], all[3], f.twin, all[4]),
		record.PlayedUnplayed: sortedIDs(all[5], all[6], all[7], all[8]),
	}
	for played, wantIDs := range want {
		for _, distinct := range []bool{false, true} {
			w := slices.DeleteFunc(slices.Clone(wantIDs), func(id int64) bool { return distinct && id == f.twin.ID })
			for _, s := range record.Sorts {
				for _, desc := range []bool{false, true} {
					lq := record.ListQuery{Sort: s, Desc: desc, Limit: 2, Distinct: distinct, Played: played, Player: f.p}
					got := walkPlayed(t, db, lq, len(w))
					if !slices.Equal(got, w) {
						t.Errorf("%s distinct=%v %s desc=%v: %v, want %v", played, distinct, s, desc, got, w)
					}
				}
			}
		}
	}
	checkPlayedBesideOthers(t, db, f)
	checkPlayedCursors(t, db, f.p)
}

// playedPuzzles is testListPlayed's archive: nine puzzles, a second writing
// (twin) of all[3], and two players p and q who played some of them.
type playedPuzzles struct {
	all  []record.Puzzle
	twin record.Puzzle
	p, q int64
}

// playedFixture archives the puzzles and plays them: p solved all[0], gave
// up all[1], left all[2] open, solved twin (so all[3] too), gave up and then
// solved all[4]; q solved all[5].
func playedFixture(t *testing.T, db *DB) playedPuzzles {
	t.Helper()
	ctx := context.Background()
	var all []record.Puzzle
	for n := int64(1); n <= 9; n++ {
		if n == 4 {
			all = append(all, archived(t, db, 6)) // synthetic 9 is a form of it
			continue
		}
		all = append(all, archived(t, db, n*7))
	}
	other := synthetic(9, 9, 1000, 1)
	other.Canonical = all[3].Canonical // all[3] written another way
	twin, _, err := db.Submit(ctx, other)
	if err != nil || twin.ID == all[3].ID {
		t.Fatalf("second writing = %+v, %v", twin, err)
	}
	all = append(all, twin)
	p, _ := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour))
	q, _ := db.NewPlayer(ctx, session(2), time.Now().Add(time.Hour))
	playOutcome(t, db, p.ID, all[0].ID, account.OutcomeSolved)
	playOutcome(t, db, p.ID, all[1].ID, account.OutcomeGaveUp)
	playOutcome(t, db, p.ID, all[2].ID, account.OutcomeOpen)
	playOutcome(t, db, p.ID, twin.ID, account.OutcomeSolved) // solves all[3] too
	playOutcome(t, db, p.ID, all[4].ID, account.OutcomeGaveUp)
	playOutcome(t, db, p.ID, all[4].ID, account.OutcomeSolved) // solved at the second go
	playOutcome(t, db, q.ID, all[5].ID, account.OutcomeSolved)
	return playedPuzzles{all: all, twin: twin, p: p.ID, q: q.ID}
}

// playOutcome starts an attempt of player at puzzle and finishes it with
// outcome o, or leaves it open.
func playOutcome(t *testing.T, db *DB, player, puzzle int64, o account.Outcome) {
	t.Helper()
	ctx := context.Background()
	a, _, err := db.StartAttempt(ctx, player, puzzle)
	if err != nil {
		t.Fatal(err)
	}
	f := account.Finish{Outcome: o}
	switch o {
	case account.OutcomeOpen:
		return
	case account.OutcomeSolved:
		f.Grid = solvedGrid()
	}
	if _, err := db.FinishAttempt(ctx, player, a.ID, f); err != nil {
		t.Fatal(err)
	}
}

// checkPlayedBesideOthers: another player's filter is theirs alone, the
// filter works beside a grade range and unique, and around a puzzle
// outside the filter finds nothing.
func checkPlayedBesideOthers(t *testing.T, db *DB, f playedPuzzles) {
	t.Helper()
	ctx := context.Background()
	all := f.all
	// Another player's filter is theirs alone.
	page, err := db.List(ctx, record.ListQuery{Played: record.PlayedSolved, Player: f.q})
	if err != nil || page.Total != 1 || len(page.Puzzles) != 1 || page.Puzzles[0].ID != all[5].ID {
		t.Errorf("q's solved = %+v, %v; want puzzle %d", page, err, all[5].ID)
	}
	// With a grade range and unique beside it.
	page, err = db.List(ctx, record.ListQuery{Played: record.PlayedUnplayed, Player: f.p, UniqueOnly: true, GradeMin: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := int64(len(page.Puzzles)); page.Total != n {
		t.Errorf("unplayed graded: total %d, %d rows", page.Total, n)
	}

	// Around: a puzzle outside the filter is not in the listing.
	if _, err := db.List(ctx, record.ListQuery{Played: record.PlayedSolved, Player: f.p, Around: all[1].ID}); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("around a puzzle given up, solved filter: %v, want ErrNotFound", err)
	}
	page, err = db.List(ctx, record.ListQuery{Played: record.PlayedSolved, Player: f.p, Around: all[0].ID})
	if err != nil || page.Total != 4 || !slices.ContainsFunc(page.Puzzles, func(x record.Puzzle) bool { return x.ID == all[0].ID }) {
		t.Errorf("around a solved puzzle = %+v, %v", page, err)
	}
}

// checkPlayedCursors: the played filter's cursors are its own, and the
// filter needs a player and a known value.
func checkPlayedCursors(t *testing.T, db *DB, player int64) {
	t.Helper()
	ctx := context.Background()
	first, err := db.List(ctx, record.ListQuery{Limit: 1, Played: record.PlayedSolved, Player: player})
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first solved page = %+v, %v", first, err)
	}
	plain, err := db.List(ctx, record.ListQuery{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []record.ListQuery{
		{Limit: 1, Cursor: first.NextCursor},
		{Limit: 1, Cursor: first.NextCursor, Played: record.PlayedUnplayed, Player: player},
		{Limit: 1, Cursor: plain.NextCursor, Played: record.PlayedSolved, Player: player},
	} {
		if _, err := db.List(ctx, c); !errors.Is(err, record.ErrInvalidCursor) {
			t.Errorf("List(%+v) = %v, want ErrInvalidCursor", c, err)
		}
	}
	for _, c := range []record.ListQuery{
		{Played: record.PlayedSolved},
		{Played: "mine", Player: player},
	} {
		if _, err := db.List(ctx, c); !errors.Is(err, ErrInvalidQuery) {
			t.Errorf("List(%+v) = %v, want ErrInvalidQuery", c, err)
		}
	}
}

// walkPlayed pages through q forward to the end, checking each page's
// total against want, then back from the last page to the first; it
// returns the ids met, sorted.
func walkPlayed(t *testing.T, db *DB, q record.ListQuery, want int) []int64 {
	t.Helper()
	ctx := context.Background()
	var got []int64
	var pages []record.Page
	for i := 0; i < 20; i++ {
		page, err := db.List(ctx, q)
		if err != nil {
			t.Fatalf("List(%+v): %v", q, err)
		}
		if page.Total != int64(want) {
			t.Errorf("List(%+v): total %d, want %d", q, page.Total, want)
		}
		pages = append(pages, page)
		for _, x := range page.Puzzles {
			got = append(got, x.ID)
		}
		if page.NextCursor == "" {
			break
		}
		q.Cursor = page.NextCursor
	}
	for i := len(pages) - 1; i > 0; i-- {
		q.Cursor = pages[i].PrevCursor
		back, err := db.List(ctx, q)
		if err != nil {
			t.Fatalf("List back (%+v): %v", q, err)
		}
		if !slices.Equal(ids(back.Puzzles), ids(pages[i-1].Puzzles)) {
			t.Errorf("%s desc=%v: page before %d = %v, want %v", q.Sort, q.Desc, i, ids(back.Puzzles), ids(pages[i-1].Puzzles))
		}
	}
	slices.Sort(got)
	return got
}
