package store

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// TestPruneSignsOfLife (issue 45): a prune of anonymous players made a
// hundred days ago keeps each that showed any sign of life within the
// window, not only an attempt started: one whose old attempt was finished
// five days ago, one who flagged a puzzle today, one whose session was
// used today; it prunes the one idle since. Both stores.
func TestPruneSignsOfLife(t *testing.T) {
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) {
			t.Parallel()
			pruneSignsOfLife(t, bk.open(t))
		})
	}
}

func pruneSignsOfLife(t *testing.T, db *DB) {
	ctx := context.Background()
	day := 24 * time.Hour
	ps := newPlayers(t, db, 1200, 4)
	idle, finisher, flagger, visitor := ps[0], ps[1], ps[2], ps[3]
	pz := archived(t, db, 3)
	started := map[int64]int64{}
	for _, p := range []int64{idle, finisher} {
		a, _, err := db.StartAttempt(ctx, p, pz.ID)
		if err != nil {
			t.Fatal(err)
		}
		started[p] = a.ID
	}
	if _, err := db.FinishAttempt(ctx, finisher, started[finisher], account.Finish{Outcome: account.OutcomeGaveUp}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Flag(ctx, pz.ID, flagger, moderation.ReasonWrong, ""); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	old, fiveDays := now.Add(-100*day).UnixNano(), now.Add(-5*day).UnixNano()
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{"UPDATE players SET created_at = ?, seen_at = NULL", []any{old}},
			{"UPDATE attempts SET started_at = ?", []any{old}},
			{"UPDATE attempts SET finished_at = ? WHERE player_id = ?", []any{fiveDays, finisher}},
		} {
			if _, err := tx.Exec(db.d.sql(q.sql), q.args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The visitor's browser comes back today.
	if _, err := db.SessionPlayer(ctx, session2(1200+3), now); err != nil {
		t.Fatal(err)
	}
	db.seen.writes.Wait() // the visit's seen_at is written beside the request
	res, err := db.PruneAnonymous(ctx, now.Add(-30*day), moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	if res.Players != 1 {
		t.Errorf("pruned %+v, want the idle player alone", res)
	}
	if _, err := db.Player(ctx, idle); err == nil {
		t.Errorf("the idle player %d is still there", idle)
	}
	for name, p := range map[string]int64{"finisher": finisher, "flagger": flagger, "visitor": visitor} {
		if _, err := db.Player(ctx, p); err != nil {
			t.Errorf("the %s (%d) was pruned: %v", name, p, err)
		}
	}
}
