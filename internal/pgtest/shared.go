package pgtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// shared is the test process's one cluster (Shared): initdb and a server
// start cost about a second of two cores each, and most tests need only a
// database of their own, not a server.
var shared struct {
	once sync.Once
	c    *Cluster
	err  error
}

// Shared returns the test process's shared cluster, started by the first
// test that asks for it and stopped by StopShared (from the package's
// TestMain) or, should the process die first, by a watcher process once
// it has gone. A test on it takes a database of its own (NewDB) and must
// leave the server as it found it: a test that pauses, restarts or
// reconfigures its server, or measures it, starts its own (Start).
// Without server binaries it skips tb, or fails it under CI=true.
func Shared(tb testing.TB) *Cluster {
	tb.Helper()
	bin := mustBin(tb)
	shared.once.Do(func() {
		c, err := start(bin)
		if err != nil {
			shared.err = err
			return
		}
		c.shared = true
		c.watch()
		shared.c = c
	})
	if shared.err != nil {
		tb.Fatalf("start the shared PostgreSQL cluster: %v", shared.err)
	}
	return shared.c
}

// NewDB creates an empty database on the shared cluster (Shared) and
// returns its URL; the database is dropped when tb ends.
func NewDB(tb testing.TB) string {
	tb.Helper()
	return Shared(tb).NewDB(tb)
}

// StopShared stops the shared cluster, if a test started it, and removes
// its files. TestMain calls it after m.Run.
func StopShared() {
	if shared.c != nil {
		shared.c.Stop()
	}
}

// watch starts a process that stops the cluster and removes its files once
// this process has gone without calling StopShared (a panic, a test
// timeout, a kill): no server is left running behind a dead test binary.
// It is a process group of its own, so that the interrupt that ended the
// tests does not end it too.
func (c *Cluster) watch() {
	stop := append(append([]string{}, c.as...), c.bin+"/pg_ctl", "-D", c.data, "-m", "immediate", "-w", "stop")
	quoted := make([]string, len(stop))
	for i, a := range stop {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	script := fmt.Sprintf("while kill -0 %d 2>/dev/null; do sleep 1; done; if [ -d '%s' ]; then %s >/dev/null 2>&1; rm -rf '%s'; fi",
		os.Getpid(), c.dir, strings.Join(quoted, " "), c.dir)
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err == nil {
		go func() { _ = cmd.Wait() }() // reaps the watcher should it end first
	}
}

// dropDB drops database name, at the end of the test that made it on the
// shared cluster, ending any connection still open to it: thousands of
// tests' databases would otherwise fill the disk.
func (c *Cluster) dropDB(tb testing.TB, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err == nil {
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)")
	}
	if err != nil {
		tb.Errorf("drop database %s: %v", name, err)
	}
}

// dbName is the name of the cluster's nth database.
func dbName(n int64) string { return "t" + strconv.FormatInt(n, 10) }
