package bulk

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// Graders is the archive's grading pipeline, the one owner of the grades
// that follow a puzzle's acknowledgement: `sudoku serve` runs it for as long
// as it serves (Run), `sudoku import` until the queue is empty (Drain).
//
// The queue is the database itself: the rows without a grade version
// (store.DB's Ungraded, on the puzzles_pending index), so nothing pending is
// held only in memory and a kill -9 loses nothing: the next start grades
// what is left. One reader hands the rows out in id order (submission order)
// to Workers goroutines, which grade them; the grades are committed in small
// groups (at most Group rows, or what is finished after GroupDelay), so
// stopping keeps everything finished. On ctx's end each worker finishes the
// puzzle in its hands, the finished grades are committed, and Run returns.
//
// When DB shares its queue with other processes (Claims: several servers
// on one PostgreSQL database), the reader claims each row before handing it
// out, only as workers wait for one, and skips the rows others hold; the
// claim is let go once the grade is committed or the row handed back, so
// each row is graded by one process.
//
// Gate, when set, is asked before each puzzle: graders then run only on the
// cores requests leave idle (see Activity).
type Graders struct {
	DB    Ungraded
	Grade func(*record.Puzzle) // sets Grade, GradeFloor, Technique, GradeVersion
	// GradeCtx, when set, grades instead of Grade, and may stop when ctx
	// ends: it then reports false and the row is handed back ungraded
	// (logic.GradeDeep, whose grades can take seconds).
	GradeCtx   func(context.Context, *record.Puzzle) bool
	Workers    int           // 0 means GOMAXPROCS
	Gate       *Activity     // nil: grade at once, on every worker
	Group      int           // rows a commit at most; 0 means 32
	GroupDelay time.Duration // a finished grade waits at most this for its group; 0 means 100 ms
	Poll       time.Duration // how often an empty queue is looked at again; 0 means 1 s
	Progress   func(done, total int64)
	// OnError receives an error of a read or a commit, once per back-off
	// (see backoff.go): Run stops handing rows out, waits, doubling the
	// wait from Poll up to MaxBackoff while the errors go on, and tries
	// again. nil drops it.
	OnError func(error)
	// MaxBackoff bounds the wait after errors; 0 means DefaultMaxBackoff.
	MaxBackoff time.Duration

	wake    chan struct{}
	once    sync.Once
	queued  atomic.Int64 // rows known pending at the last look, minus those graded since
	done    atomic.Int64
	busy    atomic.Int64 // workers grading a puzzle now
	failed  atomic.Bool  // a commit failed since the reader last looked
	trouble trouble      // the errors behind a back-off (backoff.go)
}

func (g *Graders) init() {
	g.once.Do(func() { g.wake = make(chan struct{}, 1) })
}

// Wake tells a running pipeline that new rows may wait, so it looks at
// once instead of at its next Poll.
func (g *Graders) Wake() {
	g.init()
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// Queued returns how many rows waited for a grade at the pipeline's last
// look at the database, less those it graded since (0 before it starts).
func (g *Graders) Queued() int64 { return max(g.queued.Load(), 0) }

// Pending counts the rows that wait for a grade now, in the database.
func (g *Graders) Pending(ctx context.Context) (int64, error) {
	return g.DB.CountUngraded(ctx)
}

// Busy returns how many workers are grading a puzzle at this moment.
func (g *Graders) Busy() int64 { return g.busy.Load() }

// Graded returns how many rows the pipeline has graded and committed.
func (g *Graders) Graded() int64 { return g.done.Load() }

// Run grades pending rows until ctx is done, then returns nil once the
// grades finished so far are committed.
func (g *Graders) Run(ctx context.Context) error {
	return g.run(ctx, 0)
}

// Drain grades the rows pending when it starts, until none of them is
// left (or ctx is done), and returns how many it graded. A read or commit
// error ends it. Rows archived after it starts are not its to wait for:
// `sudoku import` beside running servers would otherwise grade their
// submissions too, and never end while they come faster than it grades;
// the servers' own graders take them.
func (g *Graders) Drain(ctx context.Context) (int64, error) {
	last, err := g.DB.LastID(ctx)
	if err != nil || last == 0 {
		return 0, err // an empty archive has nothing to grade
	}
	err = g.run(ctx, last)
	return g.done.Load(), err
}

// graded is a finished grade, in the order its row was handed out.
type graded struct {
	seq int64
	p   record.Puzzle
}

// run grades rows until ctx is done, or, with a drain ceiling (last > 0),
// until no row of id up to last is pending.
func (g *Graders) run(ctx context.Context, last int64) error {
	drain := last > 0
	g.init()
	workers := g.WorkerCount()
	classes := &classGrades{by: make(map[int64]classGrade)}
	jobs := make(chan graded)
	outstanding := &sync.WaitGroup{} // rows handed out, not yet committed
	f := g.newFeeder(jobs, outstanding)
	f.upto = last
	results := make(chan graded, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.work(ctx, jobs, f.ready, results, classes)
		}()
	}
	var commitErr error
	committed := make(chan struct{})
	go func() {
		defer close(committed)
		commitErr = g.commit(ctx, results, outstanding)
	}()
	err := g.feed(ctx, f, drain)
	close(jobs)
	wg.Wait()
	close(results)
	<-committed
	if ctx.Err() != nil && !drain {
		err = nil // stopped: what was finished is kept
	}
	if commitErr != nil && (err == nil || errors.Is(err, errCommit)) {
		err = commitErr
	}
	return err
}

// busyRetries and busyBackoff bound how a commit of grades waits out an
// archive that is busy (SQLite locked by another writer past its busy
// timeout: several servers and an import committing at once): up to
// about a minute in all, doubling from busyBackoff, before it gives up and
// leaves the rows pending.
const (
	busyRetries = 6
	busyBackoff = time.Second
)

// stopGrace is how long a commit of finished grades may go on once the
// graders are stopped.
const stopGrace = 5 * time.Second

// setGrades commits group, trying again while the archive is busy; the rows
// stay pending (and are graded again later) if it never gets its turn.
func (g *Graders) setGrades(ctx context.Context, group []record.Puzzle) error {
	wait := busyBackoff
	for try := 0; ; try++ {
		err := g.DB.SetGrades(ctx, group)
		if err == nil || record.KindOf(err) != record.KindBusy || try == busyRetries {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait *= 2
	}
}

// errCommit ends a Drain whose commit failed (the error itself is
// returned by the committer).
var errCommit = errors.New("a commit of grades failed")

// feedPage is how many pending rows the reader takes at a time.
const feedPage = 256

// feed hands the pending rows out in id order. When no row is left after
// the last one handed out, it waits for the rows in hand to be committed and
// looks again from the start (a row may have been committed late with a
// lower id, on PostgreSQL, or withdrawn by ResetGrades), then waits for Wake
// or Poll. A drain (f.upto > 0) takes only the rows of id up to f.upto and
// returns instead of waiting (rows another process claimed are left to it:
// a server under load may hold a few while its gate waits).
func (g *Graders) feed(ctx context.Context, f *feeder, drain bool) error {
	poll := g.Poll
	if poll <= 0 {
		poll = time.Second
	}
	g.count(ctx)
	if g.Progress != nil {
		g.Progress(0, g.Queued())
	}
	swept := false // rows handed out since the look from the start
	for ctx.Err() == nil {
		seen, handed, err := f.page(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if drain {
				return err
			}
			g.trouble.note(err)
			f.outstanding.Wait()
			g.backOff(ctx, poll)
			continue
		}
		swept = swept || handed > 0
		if seen == feedPage && !g.failed.Load() {
			continue
		}
		f.outstanding.Wait()
		if g.failed.Swap(false) {
			if drain {
				return errCommit
			}
			// The rows stay pending: hand out no more (grading them
			// would be lost work) until the archive takes grades again.
			f.after, swept = 0, false
			g.backOff(ctx, poll)
			continue
		}
		if handed > 0 {
			continue // look once more from after: rows may have come
		}
		if swept {
			f.after, swept = 0, false // once more from the start before resting
			continue
		}
		f.after = 0
		g.trouble.clear() // a whole sweep without an error
		if g.count(ctx); drain {
			return nil
		}
		select {
		case <-ctx.Done():
		case <-g.wake:
			g.count(ctx)
		case <-time.After(poll):
			g.count(ctx)
		}
	}
	return ctx.Err()
}

// Claims is an archive that several processes may grade at once (store.DB
// on PostgreSQL): the pipeline claims each row before it grades it, and lets
// go of the claim once the grade is committed or the row handed back, so
// that each row is graded by one process.
type Claims interface {
	SharesGrading() bool
	UngradedIDs(ctx context.Context, after int64, n int) ([]int64, error)
	ClaimUngraded(ctx context.Context, ids []int64) ([]record.Puzzle, error)
	ReleaseClaims(ctx context.Context, ids []int64) error
}

// feeder is feed's position in the queue.
type feeder struct {
	g           *Graders
	claims      Claims // nil: the rows are this process's alone
	jobs        chan<- graded
	outstanding *sync.WaitGroup
	after, seq  int64
	// ready has a token from each worker waiting for a row, with claims
	// (nil without); idle counts the tokens taken and not yet used.
	ready chan struct{}
	idle  int
	// upto bounds a Drain: the last row when it started (0: none), so that
	// rows submitted meanwhile, the servers' to grade, do not keep an import
	// grading for as long as they come.
	upto int64
}

func (g *Graders) newFeeder(jobs chan<- graded, outstanding *sync.WaitGroup) *feeder {
	f := &feeder{g: g, jobs: jobs, outstanding: outstanding}
	if c, ok := g.DB.(Claims); ok && c.SharesGrading() {
		f.claims = c
		f.ready = make(chan struct{}, g.WorkerCount())
	}
	return f
}

// page hands out the pending rows of the next page after f.after and
// returns how many rows the page held and how many it handed out. With
// claims it claims rows only for the workers waiting for one, so that a
// busy process holds no row an idle one could grade.
func (f *feeder) page(ctx context.Context) (seen, handed int, err error) {
	if f.claims == nil {
		ps, err := f.g.DB.Ungraded(ctx, f.after, feedPage)
		if err != nil {
			return 0, 0, err
		}
		for f.upto > 0 && len(ps) > 0 && ps[len(ps)-1].ID > f.upto {
			ps = ps[:len(ps)-1]
		}
		handed, err = f.handOut(ctx, ps)
		return len(ps), handed, err
	}
	ids, err := f.claims.UngradedIDs(ctx, f.after, feedPage)
	if err != nil {
		return 0, 0, err
	}
	for f.upto > 0 && len(ids) > 0 && ids[len(ids)-1] > f.upto {
		ids = ids[:len(ids)-1]
	}
	for i := 0; i < len(ids); {
		if err := f.waitIdle(ctx, len(ids)-i); err != nil {
			return len(ids), handed, err
		}
		chunk := ids[i:min(i+f.idle, len(ids))]
		ps, err := f.claims.ClaimUngraded(ctx, chunk)
		if err != nil {
			return len(ids), handed, err
		}
		n, err := f.handOut(ctx, ps)
		handed += n
		f.idle -= n
		if err != nil || n < len(ps) {
			return len(ids), handed, err
		}
		i += len(chunk)
		f.after = chunk[len(chunk)-1]
	}
	return len(ids), handed, nil
}

// waitIdle waits until a worker waits for a row, and counts in f.idle
// the workers waiting, up to want.
func (f *feeder) waitIdle(ctx context.Context, want int) error {
	if f.idle == 0 {
		select {
		case <-f.ready:
			f.idle++
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for f.idle < want {
		select {
		case <-f.ready:
			f.idle++
		default:
			return nil
		}
	}
	return nil
}

// handOut gives ps to the workers, in order, and returns how many it gave;
// on ctx's end the rest are let go (their claims released).
func (f *feeder) handOut(ctx context.Context, ps []record.Puzzle) (int, error) {
	for i := range ps {
		if f.g.failed.Load() {
			// A commit failed: grades would be lost work until the
			// archive takes them again (feed backs off).
			f.g.release(ctx, ps[i:])
			return i, nil
		}
		f.outstanding.Add(1)
		f.seq++
		select {
		case f.jobs <- graded{seq: f.seq, p: ps[i]}:
		case <-ctx.Done():
			f.outstanding.Done()
			f.g.release(ctx, ps[i:])
			return i, ctx.Err()
		}
		f.after = ps[i].ID
	}
	return len(ps), nil
}

// release lets go of the claims of ps, if the archive takes claims, under a
// context of its own when ctx has ended (the rows go back to the queue).
func (g *Graders) release(ctx context.Context, ps []record.Puzzle) {
	c, ok := g.DB.(Claims)
	if !ok || len(ps) == 0 || !c.SharesGrading() {
		return
	}
	ids := make([]int64, len(ps))
	for i := range ps {
		ids[i] = ps[i].ID
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := c.ReleaseClaims(rctx, ids); err != nil {
		g.report(err)
	}
}

// count refreshes Queued from the database.
func (g *Graders) count(ctx context.Context) {
	if n, err := g.DB.CountUngraded(ctx); err == nil {
		g.queued.Store(n)
	}
}

func (g *Graders) report(err error) {
	if g.OnError != nil {
		g.OnError(err)
	}
}

// work grades the rows it is handed until jobs is closed or ctx is done;
// a puzzle it has started it finishes and hands on.
func (g *Graders) work(ctx context.Context, jobs <-chan graded, ready chan<- struct{}, results chan<- graded, classes *classGrades) {
	for {
		var j graded
		var ok bool
		if ready != nil {
			ready <- struct{}{} // never blocks: one token a worker at most
		}
		select {
		case j, ok = <-jobs:
		case <-ctx.Done():
		}
		if !ok || ctx.Err() != nil {
			if ok {
				results <- graded{seq: -1, p: j.p} // handed out, not graded: not committed
			}
			return
		}
		if g.Gate != nil && g.Gate.waitTurn(ctx) != nil {
			results <- graded{seq: -1, p: j.p}
			return
		}
		g.busy.Add(1)
		done := g.gradeOne(ctx, &j.p, classes)
		g.busy.Add(-1)
		if g.Gate != nil {
			g.Gate.endTurn()
		}
		if !done {
			results <- graded{seq: -1, p: j.p} // stopped by ctx's end: not committed
			return
		}
		results <- j
	}
}

// gradeOne grades p (through the class grades), with GradeCtx when set; it
// reports false when ctx's end stopped the grade.
func (g *Graders) gradeOne(ctx context.Context, p *record.Puzzle, classes *classGrades) bool {
	if g.GradeCtx == nil {
		classes.grade(p, g.Grade)
		return true
	}
	done := true
	classes.grade(p, func(p *record.Puzzle) { done = g.GradeCtx(ctx, p) })
	return done
}

// commit stores finished grades in groups until results is closed. After
// ctx's end it still commits what the workers finished, under a context of
// its own with a short deadline.
func (g *Graders) commit(ctx context.Context, results <-chan graded, outstanding *sync.WaitGroup) error {
	size, delay := g.Group, g.GroupDelay
	if size <= 0 {
		size = 32
	}
	if delay <= 0 {
		delay = 100 * time.Millisecond
	}
	var group []record.Puzzle
	var handed int // results taken, graded or not, for outstanding
	var firstErr error
	flush := func() {
		if len(group) > 0 {
			// Finished grades are kept when the graders stop, even while
			// their commit is under way: the write outlives ctx by
			// stopGrace at most (a commit started before the stop, or
			// the last group flushed after it).
			wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
			defer cancel()
			stopped := context.AfterFunc(ctx, func() { time.AfterFunc(stopGrace, cancel) })
			defer stopped()
			slices.SortFunc(group, func(a, b record.Puzzle) int { return int(a.ID - b.ID) })
			if err := g.setGrades(wctx, group); err != nil {
				g.failed.Store(true)
				g.trouble.note(err) // reported once per back-off, not per group
				if firstErr == nil {
					firstErr = err
				}
			} else {
				g.trouble.clear()
				n := g.done.Add(int64(len(group)))
				g.queued.Add(-int64(len(group)))
				if g.Progress != nil {
					g.Progress(n, n+g.Queued())
				}
			}
		}
		g.release(ctx, group) // committed or left pending: others may take them
		group = group[:0]
		for ; handed > 0; handed-- {
			outstanding.Done()
		}
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case r, ok := <-results:
			if !ok {
				flush()
				return firstErr
			}
			if r.seq < 0 { // handed out, not graded: it stays pending
				g.release(ctx, []record.Puzzle{r.p})
				outstanding.Done()
				continue
			}
			handed++
			if len(group) == 0 {
				timer.Reset(delay)
			}
			group = append(group, r.p)
			if len(group) >= size {
				timer.Stop()
				flush()
			}
		case <-timer.C:
			flush()
		}
	}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// WorkerCount returns how many workers Run starts.
func (g *Graders) WorkerCount() int {
	if g.Workers > 0 {
		return g.Workers
	}
	return runtime.GOMAXPROCS(0)
}
