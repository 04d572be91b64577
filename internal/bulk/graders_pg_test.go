package bulk

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// TestGradersPostgres runs the graders of several servers on one
// PostgreSQL database (of the package's shared cluster): a queue they
// share.
func TestGradersPostgres(t *testing.T) {
	pgtest.Shared(t)
	t.Run("SharedQueue", func(t *testing.T) { testGradersSharedQueue(t, pgtest.NewDB(t)) })
	t.Run("DeadClaimer", func(t *testing.T) { testGradersDeadClaimer(t, pgtest.NewDB(t)) })
}

// TestGradersPipelinePostgres runs the pipeline's tests on PostgreSQL (the
// graders claim rows there). Their concurrency is the pipeline's, which
// the SQLite runs cover under the race detector; the hard puzzles they
// grade are slow under it: racefree.
func TestGradersPipelinePostgres(t *testing.T) {
	racefree.Only(t)
	pgtest.Shared(t)
	t.Run("RunInOrder", func(t *testing.T) { testGradersRunInOrder(t, mustOpenDB(t, pgtest.NewDB(t))) })
	t.Run("StopKeepsFinished", func(t *testing.T) { testGradersStopKeepsFinished(t, mustOpenDB(t, pgtest.NewDB(t))) })
}

// gradeCounts counts the grades of each puzzle, by id, over every process.
type gradeCounts struct {
	mu sync.Mutex
	by map[int64]int
}

// n returns how many times puzzle id was graded.
func (c *gradeCounts) n(id int64) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.by[id]
}

// grade returns a Grade func that counts its calls in c, then waits d
// (so that the processes overlap) and grades.
func (c *gradeCounts) grade(d time.Duration) func(*record.Puzzle) {
	return func(p *record.Puzzle) {
		c.mu.Lock()
		c.by[p.ID]++
		c.mu.Unlock()
		time.Sleep(d)
		logic.GradePuzzle(p)
	}
}

// testGradersSharedQueue: three servers' graders, each on its own handle,
// drain the same pending rows at once; every row ends graded, and each is
// graded once in all (before the claims, every server graded every row it
// reached: up to three times).
func testGradersSharedQueue(t *testing.T, dsn string) {
	dbs := []*store.DB{mustOpenDB(t, dsn), mustOpenDB(t, dsn), mustOpenDB(t, dsn)}
	ps := pendingRows(t, dbs[0], puzzletest.Kaggle, 40)
	counts := &gradeCounts{by: map[int64]int{}}
	var wg sync.WaitGroup
	graded := make([]int64, len(dbs))
	for i, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := &Graders{DB: db, Workers: 2, Group: 4, Poll: 20 * time.Millisecond, Grade: counts.grade(5 * time.Millisecond)}
			n, err := g.Drain(t.Context())
			if err != nil {
				t.Errorf("server %d: Drain: %v", i, err)
			}
			graded[i] = n
		}()
	}
	wg.Wait()
	var total int64
	for _, p := range ps {
		got, err := dbs[1].Puzzle(t.Context(), p.ID)
		if err != nil || got.GradeStatus != record.GradeDone {
			t.Errorf("puzzle %d: %s (%v), want done", p.ID, got.GradeStatus, err)
		}
		if n := counts.n(p.ID); n != 1 {
			t.Errorf("puzzle %d graded %d times, want once", p.ID, n)
		}
	}
	for _, n := range graded {
		total += n
	}
	if total != int64(len(ps)) {
		t.Errorf("the servers committed %v grades, %d in all; want %d", graded, total, len(ps))
	}
}

// testGradersDeadClaimer: a server holds the rows it claimed while it
// grades them, and the other server's Drain leaves them alone (and returns,
// not waiting on them); once the first server's connection is gone (its
// handle closed, as a kill -9 would), its claims go with it and the other
// grades those rows.
func testGradersDeadClaimer(t *testing.T, dsn string) {
	a, b := mustOpenDB(t, dsn), mustOpenDB(t, dsn)
	ps := pendingRows(t, a, puzzletest.Kaggle, 20)
	held := make(chan int64, 8)
	stuck := make(chan struct{})
	ga := &Graders{DB: a, Workers: 2, Grade: func(p *record.Puzzle) {
		held <- p.ID
		<-stuck // this server hangs mid-grade
	}}
	actx, acancel := context.WithCancel(t.Context())
	aDone := make(chan error, 1)
	go func() { aDone <- ga.Run(actx) }()
	heldIDs := map[int64]bool{<-held: true, <-held: true}

	counts := &gradeCounts{by: map[int64]int{}}
	gb := &Graders{DB: b, Workers: 2, Group: 4, Grade: counts.grade(0)}
	if _, err := gb.Drain(t.Context()); err != nil { // all but a's
		t.Fatalf("b's Drain: %v", err)
	}
	if left, err := b.CountUngraded(t.Context()); err != nil || left != int64(len(heldIDs)) {
		t.Fatalf("%d rows pending (%v) after b's Drain, want a's %d", left, err, len(heldIDs))
	}
	for id := range heldIDs {
		if counts.n(id) != 0 {
			t.Errorf("puzzle %d, claimed by server a, was graded by b", id)
		}
	}
	if err := a.Close(); err != nil { // its session ends, and its claims
		t.Fatal(err)
	}
	// The server ends a's backend, and with it its claims, after the
	// connection closes, not before Close returns: b's second Drain waits
	// for that event, not for a clock (it once ran first: 18 of 20).
	waitNoClaims(t, dsn)
	if n, err := gb.Drain(t.Context()); err != nil || n != int64(len(ps)) {
		t.Fatalf("b's second Drain: %d graded in all, %v; want %d", n, err, len(ps))
	}
	close(stuck)
	acancel()
	<-aDone
	for _, p := range ps {
		got, err := b.Puzzle(t.Context(), p.ID)
		if err != nil || got.GradeStatus != record.GradeDone {
			t.Errorf("puzzle %d: %s (%v), want done", p.ID, got.GradeStatus, err)
		}
		if n := counts.n(p.ID); n != 1 {
			t.Errorf("puzzle %d graded %d times by b, want once", p.ID, n)
		}
	}
}

// waitNoClaims waits until no session holds an advisory lock (a grader's
// claim, store/claims.go) on the database at dsn: a closed server's
// backend has ended. It fails t after a minute.
func waitNoClaims(t *testing.T, dsn string) {
	t.Helper()
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	deadline := time.Now().Add(time.Minute)
	for {
		var held int
		err := raw.QueryRow(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'
AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&held)
		if err != nil {
			t.Fatal(err)
		}
		if held == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d claims still held a minute after their server closed", held)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
