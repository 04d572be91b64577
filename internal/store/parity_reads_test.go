package store

// parity_reads_test.go: the cases of paritySuite (parity_test.go) for
// sessions, starts, listings and copies.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// paritySessions reads sessions' players: live ones, a second session of
// a player, an expired one, one ended, one never made, and one read
// after it expired; each alone (SessionPlayer), then all together (on
// PostgreSQL one statement for the group, sessionPlayersSQL; SQLite reads
// each alone, which is the rule the statement must keep).
func paritySessions(t *testing.T, db *DB) string {
	ctx := context.Background()
	now := time.Now()
	players := newPlayers(t, db, 1400, 3)
	if err := db.StartSession(ctx, players[0], nil, session2(1500), now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.StartSession(ctx, players[1], nil, session2(1501), now.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := db.EndSession(ctx, session2(1402)); err != nil {
		t.Fatal(err)
	}
	reads := []struct {
		hash []byte
		now  time.Time
	}{
		{session2(1400), now}, {session2(1401), now}, {session2(1500), now}, {session2(1501), now},
		{session2(1402), now}, {session2(1999), now}, {session2(1400), now.Add(2 * time.Hour)}, {session2(1401), now},
	}
	var out strings.Builder
	answer := func(how string, i int, p account.Player, err error) {
		if errors.Is(err, sql.ErrNoRows) || errors.Is(err, account.ErrNoPlayer) {
			fmt.Fprintf(&out, "%s %d: no player\n", how, i)
			return
		}
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		fmt.Fprintf(&out, "%s %d: player %d %q %s\n", how, i, p.ID, p.Name, p.Role)
	}
	group := make([]*sessionReq, len(reads))
	for i, r := range reads {
		p, err := db.SessionPlayer(ctx, r.hash, r.now)
		answer("alone", i, p, err)
		group[i] = &sessionReq{hash: r.hash, now: r.now, done: make(chan sessionResult, 1)}
	}
	if db.d.postgres {
		db.readSessions(ctx, group)
	} else {
		for _, r := range group {
			p, err := db.SessionPlayer(ctx, r.hash, r.now)
			r.done <- sessionResult{p: p, err: err}
		}
	}
	for i, r := range group {
		res := <-r.done
		answer("together", i, res.p, res.err)
	}
	return out.String()
}

// parityStarts commits groups of starts (each group one group commit, as
// concurrent starts are): a puzzle, the same start twice in a group, a
// puzzle the player has open already, another writing of a class the
// group starts, a hidden puzzle, no such puzzle; then the same again,
// their attempts now open.
func parityStarts(t *testing.T, db *DB) string {
	x := paritySubmit(t, db, 3, 0)
	x2 := paritySubmit(t, db, 5, 3)
	y := paritySubmit(t, db, 7, 0)
	h := paritySubmit(t, db, 15, 0)
	hide(t, db, h.ID)
	p := newPlayers(t, db, 1600, 3)
	if _, _, err := db.StartAttempt(context.Background(), p[0], y.ID); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	commit(t, db, &out, []*finishReq{
		startReq(p[0], x.ID), startReq(p[0], x.ID), startReq(p[0], y.ID), startReq(p[1], x2.ID),
		startReq(p[1], x.ID), startReq(p[2], h.ID), startReq(p[2], 1<<40), startReq(p[2], y.ID),
	})
	commit(t, db, &out, []*finishReq{startReq(p[1], x2.ID), startReq(p[2], x2.ID), startReq(p[0], x.ID)})
	for _, line := range dumpRows(t, db, "SELECT id, player_id, puzzle_id, class_key, outcome FROM attempts") {
		out.WriteString(line + "\n")
	}
	for _, line := range dumpRows(t, db, "SELECT id, attempts, solved, gave_up FROM players") {
		out.WriteString(line + "\n")
	}
	return out.String()
}

// parityListings pages through every order (PostgreSQL orders each arm
// of a merged order itself, orderArms), both ways, over the whole archive,
// one band, the distinct and unique listings, three pages each.
func parityListings(t *testing.T, db *DB) string {
	ctx := context.Background()
	bandedArchive(t, db, 90)
	var out strings.Builder
	for _, s := range record.SortTable {
		for _, q := range []record.ListQuery{
			{Sort: s.Sort, Limit: 7}, {Sort: s.Sort, Limit: 7, Desc: true},
			{Sort: s.Sort, Limit: 5, Band: sudoku.BandHard}, {Sort: s.Sort, Limit: 6, Desc: true, Distinct: true, UniqueOnly: true},
		} {
			fmt.Fprintf(&out, "%s desc=%v band=%s distinct=%v:", q.Sort, q.Desc, q.Band, q.Distinct)
			for range 3 {
				page, err := db.List(ctx, q)
				if err != nil {
					t.Fatalf("%+v: %v", q, err)
				}
				fmt.Fprintf(&out, " [total %d:", page.Total)
				for _, p := range page.Puzzles {
					fmt.Fprintf(&out, " %d", p.ID)
				}
				out.WriteString("]")
				if q.Cursor = page.NextCursor; q.Cursor == "" {
					break
				}
			}
			out.WriteString("\n")
		}
	}
	return out.String()
}

// parityCopy restores puzzles with their ids and rows of a serial table
// with theirs (PostgreSQL then moves the id sequences past them), makes
// new ones after them, and reads every copied table's columns and keys in
// the order a copy reads them (text keys in byte order: COLLATE "C" on
// PostgreSQL).
func parityCopy(t *testing.T, db *DB) string {
	ctx := context.Background()
	var ps []record.Puzzle
	for i, n := range []int64{3, 7, 15} {
		p := parityPuzzle(t, n, 0)
		p.ID, p.Submissions = int64(5+10*i), int64(1+i)
		ps = append(ps, p)
	}
	if err := db.Restore(ctx, ps); err != nil {
		t.Fatal(err)
	}
	names := CopiedTables[0]
	if err := db.InsertRows(ctx, names, []string{"id", "name"}, [][]any{{int64(40), "Zeta"}, {int64(41), "alpha"}}); err != nil {
		t.Fatal(err)
	}
	next := parityPuzzle(t, 31, 0)
	next.GradeVersion, next.Technique, next.Techniques = "v", "Brand New", "Brand New"
	next.SetGradeTenths(30)
	p := paritySubmit2(t, db, next)
	var out strings.Builder
	fmt.Fprintf(&out, "after the restored rows: puzzle %d\n", p.ID)
	player := newPlayers(t, db, 1700, 1)[0]
	for _, tech := range []string{"X-Wing", "XY-Wing", "x-Wing", "Naked Pair", "Naked  Pair", "_Last", "ZZ"} {
		playAs(t, db, player, p.ID, 100, account.Finish{Outcome: account.OutcomeGaveUp, Hints: 1, Techniques: []string{tech}})
	}
	for i, date := range []string{"2026-01-10", "2025-12-31", "2026-01-02"} {
		if _, err := db.SetDaily(ctx, date, ps[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range append(CopiedTables, DerivedTables...) {
		cols, err := db.Columns(ctx, tb.Name)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(cols) // the order differs (tokens' id); a copy names them
		fmt.Fprintf(&out, "%s %v:", tb.Name, cols)
		if tb.Query == "" {
			err = db.ReadRows(ctx, tb, tb.Key, func(row []any) error {
				for _, v := range row {
					fmt.Fprintf(&out, " %s", dumpValue(v))
				}
				out.WriteString(";")
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		out.WriteString("\n")
	}
	return out.String()
}
