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
// together leave a core free. Requests never wait for it; graders yield
// between puzzles as soon as requests come, so a flood of submissions
// finds the cores it had before grades existed, and the graders take the
// cores back when it ends. A grader's turn is one puzzle: the longest a
// request can find every core taken by graders is one grade (a few
// milliseconds for most puzzles).
type Activity struct {
	cores int

	mu       sync.Mutex
	requests int
	grading  int
}

// NewActivity returns a gate over GOMAXPROCS cores.
func NewActivity() *Activity {
	return &Activity{cores: runtime.GOMAXPROCS(0)}
}

// Enter records a request being served; Leave its end.
func (a *Activity) Enter() {
	a.mu.Lock()
	a.requests++
	a.mu.Unlock()
}

// Leave records the end of a request recorded by Enter.
func (a *Activity) Leave() {
	a.mu.Lock()
	a.requests--
	a.mu.Unlock()
}

// gatePoll is how often a waiting grader looks at the gate again.
const gatePoll = 2 * time.Millisecond

// waitTurn waits until a grader may start a puzzle, or ctx is done.
func (a *Activity) waitTurn(ctx context.Context) error {
	for {
		a.mu.Lock()
		if a.requests+a.grading < a.cores {
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
