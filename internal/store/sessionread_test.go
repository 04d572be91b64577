package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// testSessionsTogether: sessions' players read together (on PostgreSQL
// one statement for the requests waiting, sessionread.go) answer as each
// read alone: a live session its player, an expired, unknown or ended one
// account.ErrNoPlayer, each at its own time; a group read by hand (the
// several-session statement whatever the timing) and many concurrent
// requests alike.
func testSessionsTogether(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	now := time.Now()
	var ids []int64
	for i := range 6 {
		p, err := db.NewPlayer(ctx, session2(900+i), now.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if err := db.EndSession(ctx, session2(905)); err != nil {
		t.Fatal(err)
	}
	// want is the player asked of session2(900+i) at the time at; 0 for none.
	ask := func(i int, at time.Time) int64 {
		switch {
		case i >= 5 || at.After(now.Add(time.Hour)):
			return 0
		default:
			return ids[i]
		}
	}
	check := func(i int, at time.Time, p account.Player, err error) {
		t.Helper()
		if want := ask(i, at); want == 0 && !errors.Is(err, account.ErrNoPlayer) || want != 0 && (err != nil || p.ID != want) {
			t.Errorf("session %d at %v: %d, %v; want player %d", i, at.Sub(now), p.ID, err, want)
		}
	}
	times := []time.Time{now, now.Add(2 * time.Hour), now.Add(time.Minute)}
	if bk.name == "postgres" {
		var group []*sessionReq
		for i := range 8 {
			group = append(group, &sessionReq{hash: session2(900 + i), now: times[i%3], done: make(chan sessionResult, 1)})
		}
		db.readSessions(ctx, group)
		for i, r := range group {
			res := <-r.done
			check(i, r.now, res.p, notFound(res.err))
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 40 {
				i, at := (g+k)%8, times[(g*7+k)%3]
				p, err := db.SessionPlayer(ctx, session2(900+i), at)
				check(i, at, p, err)
			}
		}()
	}
	wg.Wait()
}
