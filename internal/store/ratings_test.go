package store

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// ratingsSuite is the suite's part for the players' difficulty model
// (added to the suite in suite_test.go).
var ratingsSuite = []struct {
	name string
	run  func(*testing.T, backend)
}{
	{"RatingsFigures", testRatingsFigures},
	{"RatingsPlayerTimeOrder", testRatingsPlayerTimeOrder},
	{"RatingsConcurrentFinishes", testRatingsConcurrentFinishes},
}

// play starts an attempt of a new player (session byte s) at puzzle id,
// moves its start back by seconds, and finishes it with f (seconds as
// active_seconds).
func play(t testing.TB, db *DB, s byte, id int64, seconds int64, f account.Finish) account.Attempt {
	t.Helper()
	p, err := db.NewPlayer(context.Background(), session(s), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return playAs(t, db, p.ID, id, seconds, f)
}

// playAs is play for the player player.
func playAs(t testing.TB, db *DB, player, id int64, seconds int64, f account.Finish) account.Attempt {
	t.Helper()
	ctx := context.Background()
	a, _, err := db.StartAttempt(ctx, player, id)
	if err != nil {
		t.Fatal(err)
	}
	backdate(t, db, a.ID, seconds)
	f.ActiveSeconds = seconds
	if f.Outcome == account.OutcomeSolved {
		f.Grid = solvedGrid()
	}
	a, err = db.FinishAttempt(ctx, player, a.ID, f)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// backdate moves the start of attempt id back by seconds (and a second
// more), so a finish may claim them.
func backdate(t testing.TB, db *DB, id, seconds int64) {
	t.Helper()
	err := db.write(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("UPDATE attempts SET started_at = started_at - ? WHERE id = ?"), (seconds+1)*int64(time.Second), id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testRatingsFigures: the counted attempts (first at the class, not
// practice) give both ways of writing a puzzle the same plays, solve rate,
// median and player_seconds, which appears at ratings.MinPlays plays; a
// repeat and a practice attempt change nothing; the players' skills move.
func testRatingsFigures(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	one := archived(t, db, 6)
	other := synthetic(9, 9, 1000, 1)
	other.Canonical = one.Canonical // the same puzzle, written another way
	two, _, err := db.Submit(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	solved := account.Finish{Outcome: account.OutcomeSolved}
	first := play(t, db, 1, one.ID, 100, solved)
	play(t, db, 2, two.ID, 300, solved)
	if p, _ := db.Puzzle(ctx, one.ID); p.Plays != 2 || p.PlayerSeconds != nil || p.MedianSeconds == nil || *p.MedianSeconds != 200 {
		t.Fatalf("after two plays: plays %d, player_seconds %v, median %v; want 2, nil, 200", p.Plays, p.PlayerSeconds, p.MedianSeconds)
	}
	play(t, db, 3, one.ID, 400, solved)
	play(t, db, 4, two.ID, 50, account.Finish{Outcome: account.OutcomeGaveUp})
	// Not counted: a repeat of player 1 (at the other writing), a practice.
	if a := playAs(t, db, first.PlayerID, two.ID, 10, solved); a.Counted || a.First {
		t.Errorf("a repeat was counted: %+v", a)
	}
	if a := play(t, db, 5, one.ID, 10, account.Finish{Outcome: account.OutcomeSolved, Practice: true}); a.Counted || !a.Practice || !a.First {
		t.Errorf("a practice attempt: %+v; want first, practice, not counted", a)
	}
	c, ok, err := db.ClassRating(ctx, one.Canonical.Key())
	if err != nil || !ok || c.Plays != 4 || c.Solves != 3 {
		t.Fatalf("class rating %+v, %v, %v; want 4 plays, 3 solves", c, ok, err)
	}
	for _, id := range []int64{one.ID, two.ID} {
		p, err := db.Puzzle(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Plays != 4 || p.SolveRate == nil || *p.SolveRate != 0.75 || p.MedianSeconds == nil || *p.MedianSeconds != 300 ||
			p.PlayerSeconds == nil || *p.PlayerSeconds != c.Seconds() {
			t.Errorf("puzzle %d: plays %d, solve_rate %v, median %v, player_seconds %v; want 4, 0.75, 300, %d",
				id, p.Plays, p.SolveRate, p.MedianSeconds, p.PlayerSeconds, c.Seconds())
		}
	}
	r, err := db.PlayerRating(ctx, first.PlayerID)
	if err != nil || r.Rated != 1 || r.Skill() <= 1 {
		t.Errorf("the fast player: %+v (skill %.3f), %v; want 1 rated, skill above 1", r, r.Skill(), err)
	}
	slowest := play(t, db, 6, two.ID, 3000, solved)
	if r, _ := db.PlayerRating(ctx, slowest.PlayerID); r.Skill() >= 1 {
		t.Errorf("the slow player's skill %.3f, want below 1", r.Skill())
	}
	if c2, _, _ := db.ClassRating(ctx, one.Canonical.Key()); c2.Difficulty <= c.Difficulty {
		t.Errorf("a slow solve moved the difficulty from %.3f to %.3f", c.Difficulty, c2.Difficulty)
	}
}

// testRatingsPlayerTimeOrder: sort=player_time lists the puzzles with
// player_seconds by it (both orders), then those without, by id, paging
// by cursor.
func testRatingsPlayerTimeOrder(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	var ps []sudoku.Puzzle
	for n := range int64(6) {
		ps = append(ps, archived(t, db, 20+n))
	}
	// Puzzles 1 and 3 get three plays each: 3 slower than 1.
	s := byte(1)
	for _, pc := range []struct {
		i       int
		seconds int64
	}{{1, 60}, {1, 70}, {1, 80}, {3, 900}, {3, 1000}, {3, 1100}} {
		play(t, db, s, ps[pc.i].ID, pc.seconds, account.Finish{Outcome: account.OutcomeSolved})
		s++
	}
	for _, tc := range []struct {
		desc bool
		want []int64
	}{
		{false, []int64{ps[1].ID, ps[3].ID, ps[0].ID, ps[2].ID, ps[4].ID, ps[5].ID}},
		{true, []int64{ps[3].ID, ps[1].ID, ps[5].ID, ps[4].ID, ps[2].ID, ps[0].ID}},
	} {
		var got []int64
		q := sudoku.ListQuery{Sort: sudoku.SortPlayerTime, Desc: tc.desc, Limit: 1}
		for {
			page, err := db.List(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ids(page.Puzzles)...)
			if page.NextCursor == "" {
				break
			}
			q.Cursor = page.NextCursor
		}
		if !equalIDs(got, tc.want) {
			t.Errorf("player_time desc=%v: %v, want %v", tc.desc, got, tc.want)
		}
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// testRatingsConcurrentFinishes: 200 players finish one puzzle at once
// (each twice): plays equals the counted attempts, and every player is
// rated once.
func testRatingsConcurrentFinishes(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	pz := archived(t, db, 31)
	const players = 200
	type pa struct{ player, attempt int64 }
	as := make([]pa, players)
	for i := range players {
		p, err := db.NewPlayer(ctx, session2(i), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		a, _, err := db.StartAttempt(ctx, p.ID, pz.ID)
		if err != nil {
			t.Fatal(err)
		}
		as[i] = pa{p.ID, a.ID}
	}
	var wg sync.WaitGroup
	for i, a := range as {
		for range 2 {
			wg.Go(func() {
				f := account.Finish{Outcome: account.OutcomeGaveUp}
				if i%4 != 0 {
					f = account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid()}
				}
				_, _ = db.FinishAttempt(ctx, a.player, a.attempt, f)
			})
		}
	}
	wg.Wait()
	var counted, rated int64
	if err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM attempts WHERE counted = 1").Scan(&counted); err != nil {
		t.Fatal(err)
	}
	if err := db.reader.QueryRowContext(ctx, "SELECT CAST(sum(rated) AS BIGINT) FROM players").Scan(&rated); err != nil {
		t.Fatal(err)
	}
	p, err := db.Puzzle(ctx, pz.ID)
	if err != nil {
		t.Fatal(err)
	}
	if counted != players || rated != players || p.Plays != players || p.Solves != players*3/4 {
		t.Errorf("counted %d, rated %d, plays %d, solves %d; want %d, %d, %d, %d", counted, rated, p.Plays, p.Solves, players, players, players, players*3/4)
	}
}

// session2 is a session hash for player i of many.
func session2(i int) []byte {
	h := make([]byte, 32)
	h[0], h[1], h[2] = 0xEE, byte(i>>8), byte(i)
	return h
}
