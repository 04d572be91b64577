package store

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// commitGroupOf commits ps as one group commit (commitBatch, on the
// writer goroutine) and returns each submission's answer.
func commitGroupOf(db *DB, ps []record.Puzzle) ([]result, error) {
	ctx := context.Background()
	ops := make([]*op, len(ps))
	for i := range ps {
		ops[i] = &op{ctx: ctx, w: submitOne{&ps[i]}, done: make(chan result, 1)}
	}
	if _, err := db.do(ctx, &op{ctx: ctx, w: maintenance{func(*sql.Conn) error { db.commitBatch(ops); return nil }}}); err != nil {
		return nil, err
	}
	res := make([]result, len(ops))
	for i, o := range ops {
		res[i] = <-o.done
	}
	return res, nil
}

// testGroupRollback: a group commit that fails in its closing statement
// (another way of writing a hidden puzzle among its submissions: on
// PostgreSQL the failure comes in the middle of the group's one pipeline,
// after its rows were written) leaves nothing of itself; each submission
// is then committed alone and answered as if submitted alone (a repeat
// of a new puzzle a duplicate, a repeat of a new class filed under it).
func testGroupRollback(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	rng := rand.New(rand.NewPCG(9, 10))
	lines := puzzletest.Lines(t, puzzletest.Top1465, 4)
	grid := func(i int) sudoku.Grid {
		g, err := sudoku.Parse(lines[i])
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	hid, _, err := db.Submit(ctx, rate(t, grid(0)))
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := db.Submit(ctx, rate(t, grid(1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.HidePuzzle(ctx, hid.ID, mod, "a wrong puzzle"); err != nil {
		t.Fatal(err)
	}
	a, b := rate(t, grid(2)), rate(t, grid(3))
	group := []record.Puzzle{a, rate(t, shuffled(rng, hid.Givens)), a, b, rate(t, shuffled(rng, b.Givens)), rate(t, old.Givens)}
	res, err := commitGroupOf(db, group)
	if err != nil {
		t.Fatal(err)
	}
	var he *moderation.HiddenError
	if !errors.As(res[1].err, &he) || he.PuzzleID != hid.ID {
		t.Errorf("the hidden puzzle's other writing: %v, want puzzle %d's HiddenError", res[1].err, hid.ID)
	}
	for i, r := range res {
		if i != 1 && r.err != nil {
			t.Fatalf("submission %d: %v", i, r.err)
		}
	}
	type want struct {
		dup         bool
		submissions int64
		id          int64 // 0: any
		sameAs      int64 // 0: none
	}
	for i, w := range map[int]want{
		0: {false, 1, 0, 0}, 2: {true, 2, res[0].stored.ID, 0}, 3: {false, 1, 0, 0},
		4: {false, 1, 0, res[3].stored.ID}, 5: {true, 2, old.ID, 0},
	} {
		s := res[i].stored
		var sameAs int64
		if s.SameAs != nil {
			sameAs = *s.SameAs
		}
		if res[i].dup[0] != w.dup || s.Submissions != w.submissions || (w.id != 0 && s.ID != w.id) || sameAs != w.sameAs {
			t.Errorf("submission %d: dup %v, %d submissions, id %d, same_as %d; want %+v", i, res[i].dup[0], s.Submissions, s.ID, sameAs, w)
		}
	}
	checkArchiveClasses(t, db)
	checkCounters(t, db)
	st, err := db.Stats(ctx)
	if err != nil || st.Total != 4 {
		t.Errorf("stats: %d entries, %v; want 4 (the hidden one not counted)", st.Total, err)
	}
}

// testGroupClassRaced (PostgreSQL): a group commit whose new class another
// server starts after the group looked for it fails as a whole and runs
// again (errGroupRaced), which files the new row under that class.
func testGroupClassRaced(t *testing.T, bk backend) {
	if bk.name != "postgres" {
		t.Skip("a race between servers: PostgreSQL's")
	}
	ctx := context.Background()
	dsn := bk.dsn(t)
	db := MustOpenDBAt(t, dsn)
	lines := puzzletest.Lines(t, puzzletest.Top1465, 2)
	ga, _ := sudoku.Parse(lines[0])
	gb, _ := sudoku.Parse(lines[1])
	a, _, err := db.Submit(ctx, rate(t, ga))
	if err != nil {
		t.Fatal(err)
	}
	b := rate(t, gb)
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// "Another server" starts b's class, filed under a's row, and holds
	// it uncommitted while the group runs: the group's closing statement
	// waits for it.
	other, err := raw.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback()
	if _, err := other.Exec(`INSERT INTO classes (canonical_key, first_id) VALUES ($1, $2)`, b.Canonical.Key(), a.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan []result, 1)
	go func() {
		res, err := commitGroupOf(db, []record.Puzzle{b})
		if err != nil {
			res = []result{{err: err}}
		}
		done <- res
	}()
	for waiting := 0; waiting == 0; time.Sleep(10 * time.Millisecond) {
		if err := raw.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.Commit(); err != nil {
		t.Fatal(err)
	}
	res := (<-done)[0]
	if res.err != nil || res.dup[0] || res.stored.SameAs == nil || *res.stored.SameAs != a.ID {
		t.Errorf("submission: %v, dup %v, same_as %v; want filed under %d", res.err, res.dup, res.stored.SameAs, a.ID)
	}
	if p, err := db.PuzzleByGivens(ctx, b.Givens); err != nil || p.SameAs == nil || *p.SameAs != a.ID || p.Submissions != 1 {
		t.Errorf("stored: %+v, %v", p.SameAs, err)
	}
}

// testPipeFlushes (PostgreSQL): a pipe that reads, decides in Go and then
// writes (two round trips, as a finish group would) commits both parts;
// a failure in its second pipeline, or a refusal in Go after its first,
// rolls back the first pipeline's writes too, and the writer's connection
// serves on.
func testPipeFlushes(t *testing.T, bk backend) {
	if bk.name != "postgres" {
		t.Skip("a pipe is PostgreSQL's")
	}
	ctx := context.Background()
	db := bk.open(t)
	g, _ := sudoku.Parse(puzzletest.Lines(t, puzzletest.Top1465, 1)[0])
	p0, _, err := db.Submit(ctx, rate(t, g))
	if err != nil {
		t.Fatal(err)
	}
	submissions := func() int64 {
		p, err := db.Puzzle(ctx, p0.ID)
		if err != nil {
			t.Fatal(err)
		}
		return p.Submissions
	}
	var read int64
	err = db.inPipe(oneShard, func(p *pipe) error {
		p.Queue(`SELECT submissions FROM puzzles WHERE id = $1 FOR UPDATE`, p0.ID).QueryRow(func(r pgx.Row) error { return r.Scan(&read) })
		if err := p.Flush(); err != nil {
			return err
		}
		p.Queue(`UPDATE puzzles SET submissions = $1 WHERE id = $2`, read+1, p0.ID)
		return nil
	})
	if err != nil || read != 1 || submissions() != 2 {
		t.Fatalf("read then write: %v, read %d, now %d submissions; want 1, 2", err, read, submissions())
	}
	refused := errors.New("refused")
	for name, second := range map[string]func(p *pipe) error{
		"a failed statement": func(p *pipe) error {
			p.Queue(`UPDATE puzzles SET submissions = 0 WHERE id = $1`, p0.ID) // CHECK (submissions >= 1)
			return nil
		},
		"a refusal in Go": func(*pipe) error { return refused },
	} {
		err := db.inPipe(oneShard, func(p *pipe) error {
			p.Queue(`UPDATE puzzles SET submissions = submissions + 5 WHERE id = $1`, p0.ID)
			if err := p.Flush(); err != nil {
				return err
			}
			return second(p)
		})
		if err == nil || submissions() != 2 {
			t.Errorf("%s after a write: %v, now %d submissions; want an error and 2", name, err, submissions())
		}
	}
	if _, dup, err := db.Submit(ctx, p0); err != nil || !dup || submissions() != 3 {
		t.Errorf("submit after: dup %v, %v, %d submissions; want 3", dup, err, submissions())
	}
	checkCounters(t, db)
}
