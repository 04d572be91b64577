package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// ratingsSuite is the suite's part for the players' difficulty model
// (added to the suite in suite_test.go).
var ratingsSuite = []suiteCase{
	{"RatingsFigures", testRatingsFigures},
	{"RatingsPlayerTimeOrder", testRatingsPlayerTimeOrder},
	{"RatingsConcurrentFinishes", testRatingsConcurrentFinishes},
	{"RatingsTwoServers", testRatingsTwoServers},
	{"RatingsImportAttempts", testRatingsImportAttempts},
	{"RatingsRefit", testRatingsRefit},
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
// practice) give every way of writing a puzzle the same plays, solve rate,
// median and player_seconds, which appears at ratings.MinPlays plays; a
// repeat and a practice attempt change nothing; the players' skills move;
// a deleted player's attempts leave later finishes counted.
func testRatingsFigures(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	one := archived(t, db, 6)
	two := writtenAgain(t, db, one, 9)
	solved := account.Finish{Outcome: account.OutcomeSolved}
	first := play(t, db, 1, one.ID, 100, solved)
	play(t, db, 2, two.ID, 300, solved)
	if p, _ := db.Puzzle(ctx, one.ID); p.Plays != 2 || p.PlayerSeconds != nil || record.OrZero(p.MedianSeconds) != 200 {
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
	// A third way of writing it, archived after the plays, shows them too.
	third := writtenAgain(t, db, one, 12)
	c, ok, err := db.ClassRating(ctx, one.Canonical.Key())
	if err != nil || !ok || c.Plays != 4 || c.Solves != 3 {
		t.Fatalf("class rating %+v, %v, %v; want 4 plays, 3 solves", c, ok, err)
	}
	for _, id := range []int64{one.ID, two.ID, third.ID} {
		checkFigures(t, db, id, 4, 0.75, 300, c.Seconds())
	}
	checkSkills(t, db, first.PlayerID, one, two)
	// A deleted player's attempts are gone; the class keeps their effect
	// and later finishes still count (the median of what is left).
	if err := db.DeletePlayer(ctx, first.PlayerID, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	play(t, db, 7, one.ID, 500, solved)
	if p, _ := db.Puzzle(ctx, one.ID); p.Plays != 6 || record.OrZero(p.MedianSeconds) != 450 {
		t.Errorf("after a deletion and a play: plays %d, median %d; want 6, 450 (of 300, 400, 500, 3000)", p.Plays, record.OrZero(p.MedianSeconds))
	}
}

// writtenAgain archives synthetic puzzle n as another way of writing p
// (its canonical form) and returns it as Submit answered.
func writtenAgain(t *testing.T, db *DB, p record.Puzzle, n int64) record.Puzzle {
	t.Helper()
	other := synthetic(n, n, 1000, 1)
	other.Canonical = p.Canonical
	q, _, err := db.Submit(context.Background(), other)
	now, _ := db.Puzzle(context.Background(), p.ID)
	if err != nil || q.SameAs == nil || q.ID == p.ID || q.Plays != now.Plays {
		t.Fatalf("another writing of puzzle %d: %+v, %v; want filed under it, with its %d plays", p.ID, q, err, now.Plays)
	}
	return q
}

// checkFigures checks the figures of puzzle id.
func checkFigures(t *testing.T, db *DB, id, plays int64, rate float64, median, expected int64) {
	t.Helper()
	p, err := db.Puzzle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Plays != plays || p.SolveRate == nil || *p.SolveRate != rate || record.OrZero(p.MedianSeconds) != median || record.OrZero(p.PlayerSeconds) != expected {
		t.Errorf("puzzle %d: plays %d, solve_rate %v, median %v, player_seconds %v; want %d, %v, %d, %d",
			id, p.Plays, p.SolveRate, p.MedianSeconds, p.PlayerSeconds, plays, rate, median, expected)
	}
}

// checkSkills: the fast player (fast) is above 1; a new slow solve at two
// makes its player below 1 and the class harder.
func checkSkills(t *testing.T, db *DB, fast int64, one, two record.Puzzle) {
	t.Helper()
	ctx := context.Background()
	r, err := db.PlayerRating(ctx, fast)
	if err != nil || r.Rated != 1 || r.Skill() <= 1 {
		t.Errorf("the fast player: %+v (skill %.3f), %v; want 1 rated, skill above 1", r, r.Skill(), err)
	}
	c, _, _ := db.ClassRating(ctx, one.Canonical.Key())
	slowest := play(t, db, 6, two.ID, 3000, account.Finish{Outcome: account.OutcomeSolved})
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
	var ps []record.Puzzle
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
		q := record.ListQuery{Sort: record.SortPlayerTime, Desc: tc.desc, Limit: 1}
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

// testRatingsTwoServers: two handles on one archive (two servers) finish
// 120 players' attempts at one puzzle at once, each with its own group
// commits: the class's row serialises them (PostgreSQL: SELECT ... FOR
// UPDATE), so plays equals the counted attempts and the class's row
// agrees.
func testRatingsTwoServers(t *testing.T, bk backend) {
	ctx := context.Background()
	dbs := twoServers(t, bk)
	pz := archived(t, dbs[0], 33)
	const players = 120
	work := openAttempts(t, dbs[0], players, func(int) int64 { return pz.ID })
	var wg sync.WaitGroup
	for i, w := range work {
		wg.Go(func() {
			f := account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), ActiveSeconds: int64(60 + i)}
			if _, err := dbs[i%2].FinishAttempt(ctx, w.player, w.id, f); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	p, err := dbs[1].Puzzle(ctx, pz.ID)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := dbs[0].ClassRating(ctx, pz.Canonical.Key())
	if err != nil || p.Plays != players || c.Plays != players || c.Weight != ratings.PriorWeight+players {
		t.Errorf("plays %d, class %+v, %v; want %d plays and weight %v", p.Plays, c, err, players, ratings.PriorWeight+players)
	}
}

// testRatingsImportAttempts: imported attempts find a named player
// whatever the case, make the unknown ones (no password), count each
// player's first at a class only, and fill the dashboard and the puzzle's
// figures as finishes do.
func testRatingsImportAttempts(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ann, err := db.AddUser(ctx, "Ann", "", account.RolePlayer, moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	pz := archived(t, db, 35)
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	im := func(player string, seconds int64, outcome account.Outcome, h int) ImportedAttempt {
		return ImportedAttempt{PuzzleID: pz.ID, Imported: account.Imported{Player: player, Puzzle: pz.Givens.String(), Seconds: seconds, Outcome: outcome, At: at.Add(time.Duration(h) * time.Hour)}}
	}
	made, err := db.ImportAttempts(ctx, []ImportedAttempt{
		im("ann", 100, account.OutcomeSolved, 0), im("bob", 200, account.OutcomeGaveUp, 1),
		im("ANN", 50, account.OutcomeSolved, 2), im("cy", 300, account.OutcomeSolved, 3),
	}, nil)
	if err != nil || made != 2 {
		t.Fatalf("import: %d players made, %v; want 2", made, err)
	}
	as, err := db.Attempts(ctx, ann.ID, 0, 10)
	if err != nil || len(as) != 2 || !as[1].First || !as[1].Counted || as[0].First || as[0].Counted || as[1].Seconds != 100 {
		t.Fatalf("ann's attempts: %+v, %v; want the first (100 s) counted, the second not", as, err)
	}
	if p, _ := db.Summary(ctx, ann.ID, time.Now()); p.Solved != 2 || p.Attempts != 2 {
		t.Errorf("ann's dashboard: %+v; want 2 solved of 2", p)
	}
	checkFigures(t, db, pz.ID, 3, 0.6667, 200, expectedSeconds(t, db, pz))
}

// expectedSeconds is the player_seconds of the class of p as the class's
// row says.
func expectedSeconds(t *testing.T, db *DB, p record.Puzzle) int64 {
	t.Helper()
	c, ok, err := db.ClassRating(context.Background(), p.Canonical.Key())
	if err != nil || !ok {
		t.Fatalf("class of puzzle %d: %v, %v", p.ID, ok, err)
	}
	return c.Seconds()
}

// session2 is a session hash for player i of many.
func session2(i int) []byte {
	h := make([]byte, 32)
	h[0], h[1], h[2] = 0xEE, byte(i>>8), byte(i)
	return h
}

// newPlayers makes n players, signed in with session2(from), ...,
// session2(from+n-1), and returns their ids.
func newPlayers(t testing.TB, db *DB, from, n int) []int64 {
	t.Helper()
	ids := make([]int64, n)
	for i := range ids {
		p, err := db.NewPlayer(context.Background(), session2(from+i), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = p.ID
	}
	return ids
}

// testRatingsRefit: a refit recomputes the figures the finishes kept
// (plays, solves, medians agree; difficulties move to the joint fit), gives
// the same result bit for bit when run again, and forgets nothing counted.
func testRatingsRefit(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	var ps []record.Puzzle
	for n := range int64(4) {
		ps = append(ps, archived(t, db, 40+n))
	}
	var players []int64
	for i := range 6 {
		p, err := db.NewPlayer(ctx, session(byte(i+1)), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p.ID)
	}
	for i, player := range players {
		for j, pz := range ps {
			f := account.Finish{Outcome: account.OutcomeSolved, Hints: int64(i % 2)}
			if (i+j)%5 == 0 {
				f = account.Finish{Outcome: account.OutcomeGaveUp}
			}
			playAs(t, db, player, pz.ID, int64(60*(j+1)*(i+2)), f)
		}
	}
	playAs(t, db, players[0], ps[0].ID, 5, account.Finish{Outcome: account.OutcomeSolved}) // a repeat: not counted
	online := ratingsDump(t, db)
	progressed := int64(0)
	sum, err := db.Refit(ctx, func(done, total int64) { progressed = done })
	if err != nil {
		t.Fatal(err)
	}
	if sum.Attempts != 24 || sum.Classes != 4 || sum.Players != 6 || progressed != 28 {
		t.Errorf("refit summary %+v, progress %d; want 24 attempts, 4 classes, 6 players, progress 28", sum, progressed)
	}
	first := ratingsDump(t, db)
	if _, err := db.Refit(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if again := ratingsDump(t, db); again != first {
		t.Errorf("a second refit differs:\n%s\nfirst:\n%s", again, first)
	}
	// plays, solves and medians are counts: the refit finds what the
	// finishes kept.
	for i, pz := range ps {
		a, _ := db.Puzzle(ctx, pz.ID)
		if !strings.Contains(online, figuresLine(a)) {
			t.Errorf("puzzle %d after the refit: %s; online:\n%s", i, figuresLine(a), online)
		}
		if a.PlayerSeconds == nil {
			t.Errorf("puzzle %d has no player_seconds after the refit", i)
		}
	}
}

// figuresLine is a puzzle's counted figures, as ratingsDump writes them.
func figuresLine(p record.Puzzle) string {
	return fmt.Sprintf("puzzle %d: %d %d %d", p.ID, p.Plays, p.Solves, record.OrZero(p.MedianSeconds))
}

// ratingsDump writes every figure of the model in the archive, exactly.
func ratingsDump(t *testing.T, db *DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		"SELECT class_key, plays, solves, difficulty, weight, prior FROM class_ratings ORDER BY class_key",
		"SELECT id, skill, rated FROM players ORDER BY id",
		"SELECT id, counted FROM attempts ORDER BY id",
		"SELECT name, value FROM settings WHERE name = 'ratings_prior'",
	} {
		rows, err := db.reader.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			v := make([]any, len(cols))
			ptr := make([]any, len(cols))
			for i := range v {
				ptr[i] = &v[i]
			}
			if err := rows.Scan(ptr...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%v\n", v)
		}
		rows.Close()
	}
	rows, err := db.reader.Query("SELECT id FROM puzzles ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		p, err := db.Puzzle(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d\n", figuresLine(p), record.OrZero(p.PlayerSeconds))
	}
	return b.String()
}
