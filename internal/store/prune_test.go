package store

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// testPruneAnonymous: anonymous players made before the cutoff who
// started nothing since go, with their attempts, sessions and reports
// (counted in the audit trail, the open ones apart); accounts, recent players and players seen since stay.
func testPruneAnonymous(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	exp := time.Now().Add(time.Hour)
	newPlayer := func(n int) int64 {
		p, err := db.NewPlayer(ctx, session(byte(n)), exp)
		if err != nil {
			t.Fatal(err)
		}
		return p.ID
	}
	pz := archived(t, db, 3)
	gone, seen, fresh, named := newPlayer(1), newPlayer(2), newPlayer(3), newPlayer(4)
	if _, err := db.Signup(ctx, named, "Ann", "hash", session(4), session(5), exp); err != nil {
		t.Fatal(err)
	}
	for _, p := range []int64{gone, seen} {
		if _, _, err := db.StartAttempt(ctx, p, pz.ID); err != nil {
			t.Fatal(err)
		}
	}
	// gone reported the puzzle long ago, and no moderator has looked.
	if _, err := db.Flag(ctx, pz.ID, gone, moderation.ReasonWrong, "old report"); err != nil {
		t.Fatal(err)
	}
	// gone, seen and Ann were made a hundred days ago; gone's attempt is
	// as old, seen's is of today.
	old := time.Now().Add(-100 * 24 * time.Hour).UnixNano()
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		if _, err := tx.Exec(db.d.sql("UPDATE players SET created_at = ? WHERE id IN (?, ?, ?)"), old, gone, seen, named); err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("UPDATE flags SET created_at = ? WHERE player_id = ?"), old, gone); err != nil {
			return err
		}
		_, err := tx.Exec(db.d.sql("UPDATE attempts SET started_at = ? WHERE player_id = ?"), old, gone)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.PruneAnonymous(ctx, time.Now().Add(-90*24*time.Hour), moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	if res.Players != 1 || res.Attempts != 1 || res.Sessions != 1 || res.Reports != 1 || res.OpenReports != 1 {
		t.Errorf("pruned %+v, want one player, its attempt, session and open report", res)
	}
	if _, err := db.Player(ctx, gone); err == nil {
		t.Errorf("player %d still there", gone)
	}
	if _, err := db.SessionPlayer(ctx, session(1), time.Now()); err == nil {
		t.Error("the pruned player's session still opens")
	}
	for _, p := range []int64{seen, fresh, named} {
		if _, err := db.Player(ctx, p); err != nil {
			t.Errorf("player %d: %v", p, err)
		}
	}
	entries, err := db.Audit(ctx, 0, 10)
	if err != nil || len(entries) == 0 || entries[0].Action != moderation.ActionPrune ||
		!strings.Contains(entries[0].Detail, "1 moderation reports (1 open)") {
		t.Errorf("audit after the prune: %+v, %v; want the reports counted", entries, err)
	}
	if res, err := db.PruneAnonymous(ctx, time.Now().Add(-90*24*time.Hour), moderation.CLI()); err != nil || res.Players != 0 {
		t.Errorf("second prune: %+v, %v", res, err)
	}
}
