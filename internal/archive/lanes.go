package archive

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// The read lane (issue 45): the searches a read asks for (an explanation,
// a trace, a hint, a share link's solve, a technique page's example) take
// turns in a lane of their own, one at a time by default, so that however
// many clients loop over the heaviest reads, the writes and solves keep
// the search gate and a core of their own. In the lane each client (its
// address, an IPv6 one by its /64, or its API token) holds at most
// ReadsPerClient turns or places in the queue at once: the next is refused
// at once (ErrBusyReader, a 503 with Retry-After), so one client's loop
// delays another's read by a search or two, never by its whole loop.

// Defaults of the read lane.
const (
	// DefaultReadSlots is one: on the two cores of the smallest machine
	// the archive runs on, reads take at most one from the writes.
	DefaultReadSlots = 1
	// DefaultReadsPerClient lets a page and its script's request (the
	// explanation beside the trace) search at once for one client.
	DefaultReadsPerClient = 2
)

// ErrBusyReader is a read refused because its client already holds its
// share of the read lane (a 503 with Retry-After).
var ErrBusyReader error = busyReader{}

type busyReader struct{}

func (busyReader) Error() string {
	return "overloaded: this client's earlier searches are still under way; try again when they are answered"
}
func (busyReader) Kind() record.Kind { return record.KindOverloaded }

type readerKey struct{}

// ForReader marks ctx as a read's, asked by the client who (its address,
// IPv6 by its /64, or its token's key): the searches run under it take the
// read lane (Searching).
func ForReader(ctx context.Context, who string) context.Context {
	return context.WithValue(ctx, readerKey{}, who)
}

// readerOf returns the client of a read's context.
func readerOf(ctx context.Context) (string, bool) {
	who, ok := ctx.Value(readerKey{}).(string)
	return who, ok
}

// readLane is the read lane: a gate, and how many turns or places each
// client holds.
type readLane struct {
	gate      *Gate
	perClient int
	mu        sync.Mutex
	held      map[string]int
	busy      atomic.Int64 // reads refused for their client's share
}

func newReadLane(g *Gate, perClient int) *readLane {
	return &readLane{gate: g, perClient: perClient, held: map[string]int{}}
}

// enter takes a place for who and waits for a turn.
func (l *readLane) enter(ctx context.Context, who string) error {
	l.mu.Lock()
	if l.held[who] >= l.perClient {
		l.mu.Unlock()
		l.busy.Add(1)
		return ErrBusyReader
	}
	l.held[who]++
	l.mu.Unlock()
	if err := l.gate.Enter(ctx); err != nil {
		l.release(who)
		return err
	}
	return nil
}

// leave ends who's turn.
func (l *readLane) leave(who string) {
	l.gate.Leave()
	l.release(who)
}

func (l *readLane) release(who string) {
	l.mu.Lock()
	if l.held[who]--; l.held[who] <= 0 {
		delete(l.held, who) // the map holds only clients with work in the lane
	}
	l.mu.Unlock()
}

// ReadWaits returns how many reads found the read lane full and waited,
// how many of those waited too long, and how many were refused for their
// client's share.
func (a *Archive) ReadWaits() (waited, refused, busy int64) {
	g := a.reads.gate
	return g.waited.Load(), g.refused.Load(), a.reads.busy.Load()
}

// ReadGate returns the read lane's gate itself, for a caller (a test) that
// holds its turns across calls.
func (a *Archive) ReadGate() *Gate { return a.reads.gate }
