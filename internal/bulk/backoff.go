package bulk

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// On a full disk the graders used to grade the whole queue, fail every
// commit, log each failure (432 ERROR lines in 10 s) and start again a
// second later, at full CPU, while /healthz?verbose said ok (issue 38).
// Now a failed read or commit stops the hand-out: the pipeline waits,
// doubling the wait from Poll up to MaxBackoff while the failures go on,
// reports the error once per wait (OnError), and says so (Degraded) until
// a commit succeeds again.

// DefaultMaxBackoff is the longest wait between tries after errors.
const DefaultMaxBackoff = 2 * time.Minute

// trouble is the state of a pipeline that meets errors.
type trouble struct {
	mu    sync.Mutex
	err   error         // the last error since the last success, nil: none
	since time.Time     // when the errors began
	wait  time.Duration // the last back-off's wait
}

// note records err, a failed read or commit.
func (t *trouble) note(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		t.since = time.Now()
	}
	t.err = err
}

// clear records a success: the errors are over.
func (t *trouble) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.err, t.wait = nil, 0
}

// next returns how long to wait and the error to report: the last wait
// doubled (first from poll), at most most.
func (t *trouble) next(poll, most time.Duration) (time.Duration, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.wait == 0 {
		t.wait = poll
	} else {
		t.wait = min(2*t.wait, most)
	}
	return t.wait, t.err
}

// backOff waits out errors: it reports the last one once, with the wait,
// and sleeps. A success meanwhile (another path committing) resets the
// next wait.
func (g *Graders) backOff(ctx context.Context, poll time.Duration) {
	most := g.MaxBackoff
	if most <= 0 {
		most = DefaultMaxBackoff
	}
	wait, err := g.trouble.next(poll, most)
	if err != nil {
		g.report(fmt.Errorf("grading paused for %s, the puzzles stay pending: %w", wait, err))
	}
	sleep(ctx, wait)
}

// Degraded says why the pipeline is not grading, "" while it is well: the
// last error of the reads or commits failing since (a time), which ends
// at the next commit that succeeds.
func (g *Graders) Degraded() (reason string, since time.Time) {
	g.trouble.mu.Lock()
	defer g.trouble.mu.Unlock()
	if g.trouble.err == nil {
		return "", time.Time{}
	}
	return "grading: " + g.trouble.err.Error(), g.trouble.since
}
