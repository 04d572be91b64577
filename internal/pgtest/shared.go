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

	mu        sync.Mutex
	templates map[string]*template
}

// A template is a database that NewDBFrom copies: made once per process.
type template struct {
	once sync.Once
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
		c.watch()
		shared.c = c
	})
	if shared.err != nil {
		tb.Fatalf("start the shared PostgreSQL cluster: %v", shared.err)
	}
	return shared.c
}

// NewDB creates an empty database on the shared cluster (Shared) and
// returns its URL. The database stays until the cluster stops: PostgreSQL
// 15 checkpoints at every DROP DATABASE (pg_stat_bgwriter's
// checkpoints_req counts one each), which would flush every other test's
// writes each time a test ends; a package's few hundred databases of a few
// megabytes each go with the cluster's directory.
func NewDB(tb testing.TB) string {
	tb.Helper()
	return Shared(tb).NewDB(tb)
}

// NewDBFrom creates a database on the shared cluster as a copy of the
// template called name, and returns its URL; like NewDB's, it stays until
// the cluster stops. The first call of the process makes the template: a new
// database that fill fills through the URL it is given (say, a schema's
// migrations, which cost a test a second on an empty database where a copy
// costs a fraction), and that no connection may use afterwards. Every call
// with one name must pass the same fill.
func NewDBFrom(tb testing.TB, name string, fill func(dsn string) error) string {
	tb.Helper()
	c := Shared(tb)
	shared.mu.Lock()
	if shared.templates == nil {
		shared.templates = map[string]*template{}
	}
	tpl, ok := shared.templates[name]
	if !ok {
		tpl = &template{}
		shared.templates[name] = tpl
	}
	shared.mu.Unlock()
	tpl.once.Do(func() { tpl.err = c.makeTemplate(name, fill) })
	if tpl.err != nil {
		tb.Fatalf("template database %s: %v", name, tpl.err)
	}
	return c.newDB(tb, "TEMPLATE "+pgx.Identifier{name}.Sanitize())
}

// makeTemplate makes the template database name: created, filled, then
// closed to connections, since PostgreSQL copies only a database nobody
// is connected to (and a closed client's backend ends a moment after).
func (c *Cluster) makeTemplate(name string, fill func(dsn string) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	id := pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+id); err != nil {
		return err
	}
	if err := fill(c.URL(name)); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+id+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
	return err
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

// dbName is the name of the cluster's nth database.
func dbName(n int64) string { return "t" + strconv.FormatInt(n, 10) }
