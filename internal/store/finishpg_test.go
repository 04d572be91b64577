package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// TestFinishParity plays the same 120 finishes, one after another, on
// SQLite (the finish in steps) and on PostgreSQL (finishAll's read and
// write, a group of one each) and checks that they record the same: every attempt, the
// players' counts, skills and figures, the classes' ratings and every
// puzzle's figures. The finishes mix solves and give-ups, hints with
// techniques, practice, repeats at a class (another writing of it
// included), classes played many times (the median of odd and even
// counts), and new classes rated from a fitted prior.
func TestFinishParity(t *testing.T) {
	pgtest.Shared(t)
	dumps := map[string]string{}
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		db := bk.open(t)
		playParity(t, db)
		dumps[bk.name] = dumpFinishes(t, db)
	}
	if diff := cmp.Diff(dumps["sqlite"], dumps["postgres"]); diff != "" {
		t.Errorf("SQLite and PostgreSQL recorded different finishes (-sqlite +postgres):\n%s", diff)
	}
}

// playParity plays TestFinishParity's finishes on db.
func playParity(t *testing.T, db *DB) {
	ctx := context.Background()
	var ids []int64
	for _, n := range []int64{1, 2, 3, 6} {
		ids = append(ids, archived(t, db, n).ID)
	}
	one, _ := db.Puzzle(ctx, ids[3])
	ids = append(ids, writtenAgain(t, db, one, 9).ID, writtenAgain(t, db, one, 12).ID)
	players := newPlayers(t, db, 500, 8)
	rng := rand.New(rand.NewPCG(36, 36))
	techniques := []string{"Hidden Single", "Naked Pair", "X-Wing"}
	for i := range 120 {
		if i == 60 { // the later finishes rate new classes from a fitted prior
			setPrior(t, db, ratings.Prior{Alpha: 4.5, Beta: 0.4, Ungraded: 6.25})
			ids = append(ids, archived(t, db, 4).ID, archived(t, db, 5).ID)
		}
		f := account.Finish{Outcome: account.OutcomeSolved, Practice: rng.IntN(8) == 0}
		if rng.IntN(4) == 0 {
			f.Outcome = account.OutcomeGaveUp
		}
		for range rng.IntN(3) {
			f.Hints++
			f.Techniques = append(f.Techniques, techniques[rng.IntN(len(techniques))])
		}
		playAs(t, db, players[rng.IntN(len(players))], ids[rng.IntN(len(ids))], 30+rng.Int64N(600), f)
	}
}

// setPrior makes p the archive's prior, as a refit that fits one does.
func setPrior(t *testing.T, db *DB, p ratings.Prior) {
	err := db.write(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value"),
			priorName, []byte(formatPrior(p)))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// dumpFinishes writes out what finishes record, times of day left out.
func dumpFinishes(t *testing.T, db *DB) string {
	var b strings.Builder
	for _, q := range []string{
		"SELECT id, player_id, puzzle_id, outcome, seconds, hints, first, counted, practice, techniques, CAST(round(skill * 1000000000) AS bigint) AS skill FROM attempts ORDER BY id",
		"SELECT id, attempts, solved, gave_up, skill, rated, streak, streak_day FROM players ORDER BY id",
		"SELECT player_id, grade, solves, seconds, fastest, slowest FROM player_grades ORDER BY player_id, grade",
		"SELECT player_id, technique, hints, gave_up FROM player_techniques ORDER BY player_id, technique",
		"SELECT class_key, plays, solves, difficulty, weight, prior FROM class_ratings ORDER BY class_key",
		"SELECT id, player_seconds, human FROM puzzles ORDER BY id",
		"SELECT puzzle_id, plays, solves, median_seconds FROM puzzle_figures ORDER BY puzzle_id",
	} {
		rows, err := db.reader.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			for i, v := range scanRow(t, rows, len(cols)) {
				if s, ok := v.([]byte); ok && cols[i] != "class_key" {
					v = string(s)
				}
				fmt.Fprintf(&b, "%s=%v ", cols[i], v)
			}
			b.WriteString("\n")
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestFinishClassRaced: a finish group whose class's rating another
// server made between the group's read and its write (the write's
// statement goes with the COMMIT, unchecked) fails itself with
// ratingRacedMark, rolls back and runs again, and the second run rates
// the class from the row it now finds: the finish is recorded once.
func TestFinishClassRaced(t *testing.T) {
	dsn := pgtest.NewDB(t)
	db, other := MustOpenDBAt(t, dsn), MustOpenDBAt(t, dsn)
	ctx := context.Background()
	x := archived(t, db, 6)
	p, err := db.NewPlayer(ctx, session2(800), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := db.StartAttempt(ctx, p.ID, x.ID)
	if err != nil {
		t.Fatal(err)
	}
	backdate(t, db, a.ID, 200)
	fs := []*finishReq{{player: p.ID, id: a.ID, f: account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), ActiveSeconds: 200}}}
	tries := 0
	var results []finishResult
	err = db.inPipe(oneShard, func(pp *pipe) error {
		tries++
		read := queueFinishRead(pp, fs)
		if err := pp.Flush(); err != nil {
			return err
		}
		if tries == 1 { // another server's first counted finish of the class, now
			if _, err := other.writer.Exec(`INSERT INTO class_ratings (class_key, plays, solves, difficulty, weight, prior)
SELECT class_key, 1, 1, 7, 2, 7 FROM attempts WHERE id = $1`, a.ID); err != nil {
				return err
			}
		}
		var err error
		results, err = finishAll(pp, fs, read, time.Now().UTC())
		return err
	})
	if err != nil || tries != 2 || len(results) != 1 || results[0].err != nil || !results[0].a.Counted {
		t.Fatalf("finish: %v after %d runs, %+v; want a counted finish after 2", err, tries, results)
	}
	var plays, solves, done int64
	if err := db.reader.QueryRow(`SELECT plays, solves FROM class_ratings`).Scan(&plays, &solves); err != nil || plays != 2 || solves != 2 {
		t.Errorf("class rating: %d plays, %d solves, %v; want 2 and 2 (the other server's and this)", plays, solves, err)
	}
	if err := db.reader.QueryRow(`SELECT count(*) FROM attempts WHERE outcome = 'solved'`).Scan(&done); err != nil || done != 1 {
		t.Errorf("%d attempts solved, %v; want 1", done, err)
	}
}

// TestFinishSecondsRepaired: a puzzle of a class whose player_seconds
// went astray is set right by the class's next finish, even one that
// leaves the expected seconds as they were, on both databases. On
// PostgreSQL the write leaves the expected seconds out when every puzzle
// of each class showed them already (finishKeepSQL), and sets them when
// one did not (secondsMove).
func TestFinishSecondsRepaired(t *testing.T) {
	pgtest.Shared(t)
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) { testSecondsRepaired(t, bk.open(t)) })
	}
	g := &finishGroup{classes: map[string]*groupClass{"k": {shown: 0}}}
	if g.secondsMove() {
		t.Error("a class showing its expected seconds: the write sets them again")
	}
	g.classes["k"].c.Plays = ratings.MinPlays
	if !g.secondsMove() {
		t.Error("a class whose expected seconds moved: the write leaves them out")
	}
}

func testSecondsRepaired(t *testing.T, db *DB) {
	x := archived(t, db, 6)
	y := writtenAgain(t, db, x, 9)
	players := newPlayers(t, db, 900, 2)
	shown := func() (xs, ys int64) {
		t.Helper()
		if err := db.reader.QueryRow(db.d.sql(`SELECT (SELECT player_seconds FROM puzzles WHERE id = ?), (SELECT player_seconds FROM puzzles WHERE id = ?)`),
			x.ID, y.ID).Scan(&xs, &ys); err != nil {
			t.Fatal(err)
		}
		return xs, ys
	}
	solved := account.Finish{Outcome: account.OutcomeSolved}
	playAs(t, db, players[0], x.ID, 120, solved) // one counted play: no expected seconds yet (MinPlays)
	if xs, ys := shown(); xs != 0 || ys != 0 {
		t.Fatalf("after one play: player_seconds %d and %d, want 0 and 0", xs, ys)
	}
	err := db.write(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql(`UPDATE puzzles SET player_seconds = 77 WHERE id = ?`), y.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	playAs(t, db, players[1], y.ID, 150, solved) // the expected seconds stay 0
	if xs, ys := shown(); xs != 0 || ys != 0 {
		t.Errorf("after a second play: player_seconds %d and %d, want 0 and 0 (the stray 77 set right)", xs, ys)
	}
}
