package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// loginLimits are the server's limits (five a name, twenty an address,
// five a device cookie) over window.
func loginLimits(window time.Duration) account.LoginLimits {
	return account.LoginLimits{Window: window, PerName: 5, PerAddress: 20, PerDevice: 5}
}

// testLoginTryConcurrent: tries for one name sent all at once, through two
// handles on the same archive (two servers), are held to the limit: each
// try counts and records in one transaction, so exactly five are allowed.
func testLoginTryConcurrent(t *testing.T, bk backend) {
	dsn := bk.dsn(t)
	servers := []*DB{MustOpenDBAt(t, dsn), MustOpenDBAt(t, dsn)}
	const tries, limit = 24, 5
	now := time.Now()
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := now.Add(time.Duration(i))
			refused, err := servers[i%2].LoginTry(context.Background(), account.LoginAttempt{NameKey: "zoe", Address: at.String(), At: at}, loginLimits(15*time.Minute))
			if err != nil {
				t.Error(err)
			}
			if refused == account.ThrottleNone {
				allowed.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n != limit {
		t.Errorf("%d of %d concurrent tries allowed, want %d", n, tries, limit)
	}
}
