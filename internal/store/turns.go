package store

import "sync"

// turns gathers concurrent callers into groups that one of them runs for
// all (the finishes' group commits, the sessions' reads): the caller that
// finds no group running runs every caller waiting, its own included;
// whoever queues meanwhile waits, and the first of them is handed the
// lead for the next group. No goroutine of the store's own is needed, and
// a caller alone never waits.
type turns[T any] struct {
	mu      sync.Mutex
	pending []T
	busy    bool
}

// join queues r. It returns the group the caller is to run (r among them,
// at most max), or nil when another caller's group answered r: wait blocks
// until r is answered or handed the lead, and reports the lead.
func (q *turns[T]) join(r T, max int, wait func() (lead bool)) []T {
	q.mu.Lock()
	q.pending = append(q.pending, r)
	if q.busy {
		q.mu.Unlock()
		if !wait() {
			return nil
		}
		q.mu.Lock()
	}
	q.busy = true
	n := min(len(q.pending), max)
	group := q.pending[:n:n]
	q.pending = q.pending[n:]
	q.mu.Unlock()
	return group
}

// done ends the caller's group: the first caller waiting is handed the
// lead (by lead), or the queue is idle again.
func (q *turns[T]) done(lead func(next T)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) > 0 {
		lead(q.pending[0])
	} else {
		q.busy = false
	}
}
