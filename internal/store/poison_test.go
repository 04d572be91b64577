package store

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// TestPoisonIsolated (issue 45): a finish whose data the database refuses
// (a NUL in a technique name, which PostgreSQL's text cannot hold) fails
// alone; every other start and finish of its group commit is answered as
// if it had not been there. The poisoned finishes go straight to the
// finishes' queue, past FinishAttempt's text check (which refuses them
// before any group, as the web's callers see), to prove the group's own
// isolation; on SQLite, which stores a NUL, they simply succeed.
func TestPoisonIsolated(t *testing.T) {
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) {
			t.Parallel()
			db := bk.open(t)
			poisonGroup(t, db)
			poisonConcurrent(t, db)
		})
	}
}

// poisoned is a solved finish whose technique name holds a NUL.
func poisoned() account.Finish {
	return account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), Hints: 1, Techniques: []string{"X-Wing\x00"}}
}

// poisonGroup commits one group of 30 finishes, every fifth poisoned,
// and checks that the 24 others are recorded.
func poisonGroup(t *testing.T, db *DB) {
	ctx := context.Background()
	players := newPlayers(t, db, 900, 30)
	group := make([]*finishReq, len(players))
	for i, p := range players {
		a, _, err := db.StartAttempt(ctx, p, archived(t, db, int64(100+i)).ID)
		if err != nil {
			t.Fatal(err)
		}
		f := account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), Hints: 1, Techniques: []string{"X-Wing"}}
		if i%5 == 0 {
			f = poisoned()
		}
		group[i] = &finishReq{player: p, id: a.ID, f: f, done: make(chan finishResult, 1)}
	}
	db.commitFinishes(ctx, group)
	for i, r := range group {
		res := <-r.done
		if i%5 != 0 && (res.err != nil || res.a.Outcome != account.OutcomeSolved) {
			t.Errorf("finish %d beside poisoned ones: %+v, %v", i, res.a, res.err)
		}
	}
	// Through FinishAttempt the text is refused before any group: 422.
	a, _, err := db.StartAttempt(ctx, players[1], archived(t, db, 99).ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.FinishAttempt(ctx, players[1], a.ID, poisoned()); !errors.Is(err, account.ErrBadFinish) {
		t.Errorf("FinishAttempt with a NUL in a technique: %v, want ErrBadFinish", err)
	}
}

// poisonConcurrent has 30 players start and finish attempts at once, five
// rounds, every fifth player's finishes poisoned (sent past the check):
// every other request succeeds.
func poisonConcurrent(t *testing.T, db *DB) {
	ctx := context.Background()
	const n, rounds = 30, 5
	players := newPlayers(t, db, 1000, n)
	puzzles := make([]int64, rounds)
	for r := range puzzles {
		puzzles[r] = archived(t, db, int64(200+r)).ID
	}
	var wg sync.WaitGroup
	errs := make(chan error, n*rounds*2)
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				a, _, err := db.StartAttempt(ctx, p, puzzles[r])
				if err != nil {
					errs <- err
					continue
				}
				if i%5 == 0 {
					req := &finishReq{player: p, id: a.ID, f: poisoned(), done: make(chan finishResult, 1)}
					db.finishes.do(ctx, db, req)
					continue
				}
				f := account.Finish{Outcome: account.OutcomeGaveUp, Hints: 1, Techniques: []string{"Naked Pair"}}
				if _, err := db.FinishAttempt(ctx, p, a.ID, f); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a request beside poisoned finishes: %v", err)
	}
}
