package bulk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// pendingRows rates the first n puzzles of the named collection and archives
// them ungraded, returning them in id order.
func pendingRows(t *testing.T, db *store.DB, name string, n int) []record.Puzzle {
	t.Helper()
	var ps []record.Puzzle
	for _, line := range puzzletest.Lines(t, name, n) {
		g, err := sudoku.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := db.AddMany(context.Background(), ps); err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		stored, err := db.PuzzleByGivens(context.Background(), ps[i].Givens)
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = stored
	}
	return ps
}

// TestGradersRunInOrder: the pipeline grades the pending rows in id order
// (submission order), commits them, with the figures, and takes the rows
// archived while it runs once woken.
func TestGradersRunInOrder(t *testing.T) {
	testGradersRunInOrder(t, mustOpenDB(t, filepath.Join(t.TempDir(), "graders.db")))
}

// testGradersRunInOrder is TestGradersRunInOrder on db (on PostgreSQL in
// TestGradersPostgres).
func testGradersRunInOrder(t *testing.T, db *store.DB) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// 17-clue puzzles: the order is under test, not the grade, and each is
	// graded twice (the pipeline, then want below); top1465's took 171 s
	// under -race.
	ps := pendingRows(t, db, puzzletest.SeventeenClue, 40)
	var mu sync.Mutex
	var order []int64
	g := &Graders{DB: db, Workers: 1, Group: 4, Poll: time.Hour, Grade: func(p *record.Puzzle) {
		mu.Lock()
		order = append(order, p.ID)
		mu.Unlock()
		logic.GradePuzzle(p)
	}}
	done := make(chan error, 1)
	go func() { done <- g.Run(ctx) }()
	waitQueue(t, db, 0)
	if !slices.IsSorted(order) || len(order) != len(ps) {
		t.Errorf("graded ids %v, want the %d rows in id order", order, len(ps))
	}
	// Puzzles the default budget grades in a second, -race included (the
	// forum's hardest spend it all on the nested chains).
	more := pendingRows(t, db, puzzletest.Diabolical, 5)
	g.Wake() // Poll is an hour: only the wake finds them
	waitQueue(t, db, 0)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after its context ended: %v, want nil", err)
	}
	for _, p := range append(ps, more...) {
		got, err := db.Puzzle(context.Background(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := p
		logic.GradePuzzle(&want)
		if got.GradeStatus != record.GradeDone || *got.Grade != *want.Grade || *got.GradeEP != *want.GradeEP ||
			*got.GradeED != *want.GradeED || got.Techniques != want.Techniques {
			t.Errorf("puzzle %d: status %s grade %v ep %v ed %v %q; want done %v %v %v %q", p.ID, got.GradeStatus,
				*got.Grade, *got.GradeEP, *got.GradeED, got.Techniques, *want.Grade, *want.GradeEP, *want.GradeED, want.Techniques)
		}
	}
	if g.Graded() != int64(len(ps)+len(more)) || g.Queued() != 0 {
		t.Errorf("Graded %d, Queued %d; want %d and 0", g.Graded(), g.Queued(), len(ps)+len(more))
	}
}

// waitQueue waits until n rows are pending: a few seconds, up to a minute
// under -race on a loaded machine; it fails after five.
func waitQueue(t *testing.T, db *store.DB, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		left, err := db.CountUngraded(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if left == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d rows pending after five minutes, want %d", left, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestGradersStopKeepsFinished: stopped mid-queue, the pipeline returns
// after the puzzles in its workers' hands, and every grade it finished is
// committed: the ones it had not reached stay pending, nothing is lost.
func TestGradersStopKeepsFinished(t *testing.T) {
	testGradersStopKeepsFinished(t, mustOpenDB(t, filepath.Join(t.TempDir(), "stop.db")))
}

// testGradersStopKeepsFinished is TestGradersStopKeepsFinished on db.
func testGradersStopKeepsFinished(t *testing.T, db *store.DB) {
	ctx, cancel := context.WithCancel(context.Background())
	ps := pendingRows(t, db, puzzletest.Top1465, 30)
	var mu sync.Mutex
	finished := map[int64]bool{}
	g := &Graders{DB: db, Workers: 2, Group: 1000, GroupDelay: time.Hour, Grade: func(p *record.Puzzle) {
		logic.GradePuzzle(p)
		mu.Lock()
		defer mu.Unlock()
		finished[p.ID] = true
		if len(finished) == 10 {
			cancel() // mid-queue, with a group of 1,000 not yet full
		}
	}}
	// No clock: that Run stopped mid-queue shows in the rows it left
	// pending (fewer than all graded, below).
	if err := g.Run(ctx); err != nil {
		t.Fatal(err)
	}
	var graded int
	for _, p := range ps {
		got, err := db.Puzzle(context.Background(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case finished[p.ID] && got.GradeStatus != record.GradeDone:
			t.Errorf("puzzle %d was graded before the stop but is %s", p.ID, got.GradeStatus)
		case !finished[p.ID] && got.GradeStatus != record.GradePending:
			t.Errorf("puzzle %d was never graded but is %s", p.ID, got.GradeStatus)
		case finished[p.ID]:
			graded++
		}
	}
	if graded < 10 || graded >= len(ps) {
		t.Errorf("%d of %d rows graded at the stop, want from 10 to fewer than all", graded, len(ps))
	}
}

// TestActivityGate: a grader waits while requests hold the cores, and
// until the quiet after the last request's arrival has passed, and goes on
// when a core is free and the requests have stopped coming.
func TestActivityGate(t *testing.T) {
	a := &Activity{cores: 2, quiet: 40 * time.Millisecond}
	a.Enter()
	a.Enter()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := a.waitTurn(ctx); err == nil {
		t.Fatal("a grader got a turn while requests held both cores")
	}
	a.Leave()
	a.Enter() // a request comes and goes: the quiet starts again
	a.Leave()
	came := time.Now()
	if err := a.waitTurn(context.Background()); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(came); waited < a.quiet {
		t.Errorf("a grader got a turn %v after a request came, within the quiet %v", waited, a.quiet)
	}
	// One core is a request's, one a grader's: a second grader waits.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if err := a.waitTurn(ctx2); err == nil {
		t.Fatal("a second grader got a turn with every core taken")
	}
	a.endTurn()
	a.Leave()
	if err := a.waitTurn(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.endTurn()
}

// busyOnce is an archive whose first SetGrades calls find it locked by
// another writer (store.ErrBusy, as SQLite says past its busy timeout).
type busyOnce struct {
	db    Ungraded
	mu    sync.Mutex
	fails int // calls left to fail
}

func (b *busyOnce) SetGrades(ctx context.Context, ps []record.Puzzle) error {
	b.mu.Lock()
	if b.fails > 0 {
		b.fails--
		b.mu.Unlock()
		return fmt.Errorf("set %d grades: %w", len(ps), store.ErrBusy)
	}
	b.mu.Unlock()
	return b.db.SetGrades(ctx, ps)
}

func (b *busyOnce) CountUngraded(ctx context.Context) (int64, error) { return b.db.CountUngraded(ctx) }

func (b *busyOnce) LastID(ctx context.Context) (int64, error) { return b.db.LastID(ctx) }

func (b *busyOnce) Ungraded(ctx context.Context, after int64, n int) ([]record.Puzzle, error) {
	return b.db.Ungraded(ctx, after, n)
}

// TestGradersWaitOutBusy: a commit of grades that finds the archive busy is
// tried again (several servers and an import commit to one SQLite file at
// once), so a Drain ends with every row graded, not with the error;
// before, the first SQLITE_BUSY ended `sudoku import` with exit 1 after
// its puzzles were safe.
func TestGradersWaitOutBusy(t *testing.T) {
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "busy.db"))
	ps := pendingRows(t, db, puzzletest.Kaggle, 20)
	busy := &busyOnce{db: db, fails: 2}
	g := &Graders{DB: busy, Workers: 2, Group: 8, Grade: logic.GradePuzzle}
	n, err := g.Drain(t.Context())
	if err != nil || n != int64(len(ps)) {
		t.Fatalf("Drain: %d graded, %v; want %d", n, err, len(ps))
	}
	for _, p := range ps {
		got, err := db.Puzzle(t.Context(), p.ID)
		if err != nil || got.GradeStatus != record.GradeDone {
			t.Errorf("puzzle %d: %s (%v)", p.ID, got.GradeStatus, err)
		}
	}
	if busy.fails != 0 {
		t.Errorf("%d busy answers never asked", busy.fails)
	}
}

// TestDrainEndsBesideSubmissions: a Drain (what `sudoku import` runs after
// its commit) grades the rows pending when it starts and returns, while
// servers go on archiving new puzzles faster than it grades. Before, it
// took every pending row, theirs too, and never ended while they came:
// TestServersWithImport hung on a busy machine until go test's timeout.
func TestDrainEndsBesideSubmissions(t *testing.T) {
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "drain.db"))
	lines := puzzletest.Lines(t, puzzletest.SeventeenClue, 200)
	rng := rand.New(rand.NewPCG(5, 6))
	next := 0
	add := func(n int) []record.Puzzle {
		var ps []record.Puzzle
		for range n {
			g, _ := sudoku.Parse(lines[next%len(lines)])
			if next >= len(lines) {
				g = relabel(g, rng)
			}
			next++
			p, err := record.Rate(g, sudoku.Options{})
			if err != nil {
				t.Error(err)
				return nil
			}
			ps = append(ps, p)
		}
		if _, err := db.AddMany(context.Background(), ps); err != nil {
			t.Error(err)
		}
		return ps
	}
	mine := add(20)
	last, err := db.LastID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A stand-in grade that takes 20 ms: the stream below outpaces it.
	g := &Graders{DB: db, Workers: 1, Group: 4, Grade: func(p *record.Puzzle) {
		time.Sleep(20 * time.Millisecond)
		p.SetGradeTenths(20)
		p.Technique, p.GradeVersion = "Hidden Single", "test"
	}}
	stop := make(chan struct{})
	streamed := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				streamed <- n
				return
			default:
			}
			n += len(add(4))
			time.Sleep(time.Millisecond)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	graded, err := g.Drain(ctx)
	close(stop)
	n := <-streamed
	if err != nil {
		t.Fatalf("Drain beside a stream of %d submissions: %v (%d graded), want it to end with the rows pending at its start", n, err, graded)
	}
	for _, p := range mine {
		got, err := db.PuzzleByGivens(context.Background(), p.Givens)
		if err != nil || got.ID > last || got.GradeStatus != record.GradeDone {
			t.Errorf("a row pending at the drain's start: id %d (last %d), status %s, %v", got.ID, last, got.GradeStatus, err)
		}
	}
	if n == 0 {
		t.Error("no submission came during the drain: the test shows nothing")
	}
	t.Logf("drain graded %d rows while %d were archived beside it", graded, n)
}
