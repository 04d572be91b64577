package bulk

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// Activity is the gate between requests and background graders: every
// request holds a place while it is served (Enter, Leave), and a grader
// starts a puzzle only while the requests in hand and the graders at work
// together leave a core free, and no request has come in the last
// Quiet (2 ms): a flood, whose requests come closer than that, keeps the
// graders off even in the instants when few requests are in hand (the
// load generator on the same machine, or the answers being written).
// Requests never wait for it; graders yield
// between puzzles as soon as requests come, so a flood of submissions
// finds the cores it had before grades existed, and the graders take the
// cores back when it ends. A grader's turn is one puzzle: the longest a
// request can find every core taken by graders is one grade (a few
// milliseconds for most puzzles).
type Activity struct {
	cores int
	quiet time.Duration

	mu       sync.Mutex
	requests int
	grading  int
	last     time.Time // the last request's arrival
}

// Quiet is how long after a request's arrival a grader may start a
// puzzle.
const Quiet = 2 * time.Millisecond

// NewActivity returns a gate over GOMAXPROCS cores.
func NewActivity() *Activity {
	return &Activity{cores: runtime.GOMAXPROCS(0), quiet: Quiet}
}

// Enter records a request being served; Leave its end.
func (a *Activity) Enter() {
	now := time.Now()
	a.mu.Lock()
	a.requests++
	a.last = now
	a.mu.Unlock()
}

// Leave records the end of a request recorded by Enter.
func (a *Activity) Leave() {
	a.mu.Lock()
	a.requests--
	a.mu.Unlock()
}

// Waiting records that a request entered with Enter now waits on
// something that takes no core (a slow client reading its download): its
// place goes to the graders until Resumed. An export streams for as long
// as its client reads, and counted as at work throughout, every export
// turn taken by a slow download stopped all grading on a 2-core server
// (issue 50).
func (a *Activity) Waiting() {
	a.mu.Lock()
	a.requests--
	a.mu.Unlock()
}

// Resumed ends Waiting: the request is at work again. It is no arrival:
// the graders' Quiet does not start again.
func (a *Activity) Resumed() {
	a.mu.Lock()
	a.requests++
	a.mu.Unlock()
}

// gatePoll is how often a waiting grader looks at the gate again.
const gatePoll = 2 * time.Millisecond

// waitTurn waits until a grader may start a puzzle, or ctx is done.
func (a *Activity) waitTurn(ctx context.Context) error {
	for {
		a.mu.Lock()
		if a.requests+a.grading < a.cores && time.Since(a.last) >= a.quiet {
			a.grading++
			a.mu.Unlock()
			return nil
		}
		a.mu.Unlock()
		t := time.NewTimer(gatePoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// endTurn ends a grader's turn begun by waitTurn.
func (a *Activity) endTurn() {
	a.mu.Lock()
	a.grading--
	a.mu.Unlock()
}

// Turn waits, as a grader does, until the cores requests leave idle let a
// piece of background work start, or ctx is done, and returns the function
// that ends the turn: other background work (the archive's warming of
// practice boards) takes turns with the graders, counted as one of them.
func (a *Activity) Turn(ctx context.Context) (end func(), err error) {
	if err := a.waitTurn(ctx); err != nil {
		return nil, err
	}
	return a.endTurn, nil
}
