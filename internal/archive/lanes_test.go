package archive

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestReadLane: a read's searches take the read lane, never the search
// gate (a write's search runs with every read turn taken, and a read's
// with every write turn taken); one client holds at most ReadsPerClient
// turns or places, the next refused at once with ErrBusyReader while
// another client still gets its place; a turn left frees the place.
func TestReadLane(t *testing.T) {
	// The queue's wait is long, so that a refusal "at once" is told from
	// a wait by far; the waits the test wants end with their context.
	a := New(Options{Store: &memStore{}, SearchSlots: 1, SearchQueueTimeout: time.Minute})
	ctx := t.Context()
	noop := func() error { return nil }
	brief := func() context.Context {
		c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		t.Cleanup(cancel)
		return c
	}

	// Every write turn taken: a read still runs.
	if err := a.SearchGate().Enter(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Searching(ForReader(ctx, "a"), noop); err != nil {
		t.Errorf("read with the write gate full: %v", err)
	}
	if err := a.Searching(brief(), noop); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("write with the write gate full: %v, want a wait", err)
	}
	a.SearchGate().Leave()

	// Client a holds the read turn and waits for a second: its third is
	// refused at once, b's is queued (and times out like any wait).
	release := make(chan struct{})
	held := make(chan struct{})
	go a.Searching(ForReader(ctx, "a"), func() error { close(held); <-release; return nil })
	<-held
	if err := a.Searching(ctx, noop); err != nil {
		t.Errorf("write with the read lane full: %v", err)
	}
	second := make(chan error, 1)
	go func() { second <- a.Searching(ForReader(ctx, "a"), noop) }()
	waitFor(t, func() bool { w, _, _ := a.ReadWaits(); return w >= 1 })
	start := time.Now()
	if err := a.Searching(ForReader(ctx, "a"), noop); !errors.Is(err, ErrBusyReader) || time.Since(start) > 30*time.Second {
		t.Errorf("a's third read: %v after %s, want ErrBusyReader at once", err, time.Since(start))
	}
	if err := a.Searching(ForReader(brief(), "b"), noop); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("b's read behind a's: %v, want a wait", err)
	}
	close(release)
	if err := <-second; err != nil {
		t.Errorf("a's second read: %v", err)
	}
	if err := a.Searching(ForReader(ctx, "a"), noop); err != nil {
		t.Errorf("a's read once its turns ended: %v", err)
	}
	if _, _, busy := a.ReadWaits(); busy != 1 {
		t.Errorf("%d reads refused for their client's share, want 1", busy)
	}
	// A read whose client has gone gets no turn, even a free one.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if err := a.Searching(ForReader(gone, "c"), noop); !errors.Is(err, context.Canceled) {
		t.Errorf("read of a client gone: %v", err)
	}
}

// waitFor polls cond until it holds, for at most 10 s (an event, not a
// clock: the deadline only ends a test that would hang).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(time.Millisecond)
	}
}
