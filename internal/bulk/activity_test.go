package bulk

import (
	"context"
	"testing"
	"time"
)

// TestActivityWaiting: a request that waits on its client (Waiting, an
// export's blocked write) leaves its place to a grader, and takes it back
// (Resumed) without counting as a new arrival (issue 50: slow exports on
// every core stopped all grading).
func TestActivityWaiting(t *testing.T) {
	a := &Activity{cores: 1, quiet: time.Hour}
	a.last = time.Now().Add(-2 * time.Hour)
	a.Enter()
	a.last = time.Now().Add(-2 * time.Hour) // the arrival long past: only the place counts
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := a.waitTurn(short); err == nil {
		t.Fatal("a grader got a turn while the request held the only core")
	}
	a.Waiting()
	if err := a.waitTurn(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.endTurn()
	a.Resumed()
	if a.requests != 1 || time.Since(a.last) < time.Hour {
		t.Errorf("after Resumed: %d requests, last arrival %v ago; want 1, the old arrival", a.requests, time.Since(a.last))
	}
	a.Leave()
}
