// Package pgtest starts throwaway PostgreSQL clusters for tests, from the
// server binaries of Debian's postgresql package (or any installation with
// initdb and pg_ctl). A cluster lives in a temporary directory, listens on a
// Unix socket there only, and is stopped and removed when its test ends
// (Start) or, for the one a test process shares (Shared, NewDB,
// NewDBFrom), when the process's TestMain calls StopShared. Nothing is
// downloaded.
//
// Where the binaries are: $SUDOKU_PG_BIN (a directory; "none" means there is
// no PostgreSQL), else the directory of initdb on PATH, else the newest
// /usr/lib/postgresql/*/bin. `make test` sets SUDOKU_PG_BIN (.ci/prereqs),
// so installing PostgreSQL changes the tests' input and the test cache
// cannot replay an old skip. Without binaries the tests that need a cluster
// skip, saying why; under CI=true they fail instead.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	bin  string // directory of initdb, pg_ctl, pgbench's server side
	dir  string // holds data/ and the socket
	data string
	as   []string // the command prefix that runs a binary as the cluster's owner
	n    atomic.Int64
}

// Bin returns the directory of the PostgreSQL server binaries, or an error
// that says why there is none.
func Bin() (string, error) {
	if dir := os.Getenv("SUDOKU_PG_BIN"); dir != "" {
		if dir == "none" {
			return "", errors.New("no PostgreSQL server binaries (SUDOKU_PG_BIN=none). Install them: apt-get install -y postgresql")
		}
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err != nil {
			return "", fmt.Errorf("SUDOKU_PG_BIN=%s: %w", dir, err)
		}
		// A directory of links (initdb, pg_ctl and postgres linked into
		// /usr/local/bin) leads to the installation's own, which also
		// holds the client tools (pg_dump, pg_restore, createdb).
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "initdb")); err == nil {
			return filepath.Dir(real), nil
		}
		return dir, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries (initdb) found. Install them: apt-get install -y postgresql")
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// Start starts a cluster of tb's own and stops it when tb ends: for a test
// that pauses, restarts or reconfigures its server (ALTER SYSTEM), or
// measures it. Any other test takes a database on the package's shared
// cluster (NewDB). Without server binaries it skips tb, or fails it under
// CI=true.
func Start(tb testing.TB) *Cluster {
	tb.Helper()
	c, err := start(mustBin(tb))
	if err != nil {
		tb.Fatalf("start PostgreSQL: %v", err)
	}
	tb.Cleanup(c.Stop)
	return c
}

// mustBin returns the server binaries' directory, or skips tb (fails it
// under CI=true) when there are none.
func mustBin(tb testing.TB) string {
	tb.Helper()
	bin, err := Bin()
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("CI=true, where every test must run: %v", err)
		}
		tb.Skipf("skipping: %v", err)
	}
	return bin
}

func start(bin string) (_ *Cluster, err error) {
	dir, err := os.MkdirTemp("", "pgtest")
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, dir: dir, data: filepath.Join(dir, "data")}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	if err := os.Mkdir(c.data, 0o700); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		// initdb refuses to run as root: the cluster belongs to the
		// postgres user, who must be able to reach its directory.
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no postgres user to own the cluster: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chmod(dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.Chown(c.data, uid, gid); err != nil {
			return nil, err
		}
		c.as = []string{"setpriv", "--reuid=" + u.Uid, "--regid=" + u.Gid, "--clear-groups"}
	}
	if out, err := c.run("initdb", "-D", c.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C"); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// Only a Unix socket in data/: no port to collide with another
	// cluster. fsync stays on: the tests check durability.
	if err := c.pgStart(); err != nil {
		return nil, err
	}
	return c, nil
}

// pgStart starts the cluster's server.
func (c *Cluster) pgStart() error {
	opts := "-c listen_addresses='' -k " + c.data + " -c max_connections=300"
	if out, err := c.run("pg_ctl", "-D", c.data, "-o", opts, "-l", filepath.Join(c.data, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.data, "log"))
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return nil
}

// Pause stops the cluster's server at once (immediate mode), keeping its
// files: an outage under the clients, which Resume ends.
func (c *Cluster) Pause(tb testing.TB) {
	tb.Helper()
	if out, err := c.run("pg_ctl", "-D", c.data, "-m", "immediate", "-w", "stop"); err != nil {
		tb.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

// Resume starts the server Pause stopped.
func (c *Cluster) Resume(tb testing.TB) {
	tb.Helper()
	if err := c.pgStart(); err != nil {
		tb.Fatal(err)
	}
}

// run runs one of the cluster's binaries as its owner.
func (c *Cluster) run(name string, args ...string) ([]byte, error) {
	argv := append(append(append([]string{}, c.as...), filepath.Join(c.bin, name)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// pg_ctl start leaves the server running: should it ever hold on to
	// the output pipe, Run returns 10 s after pg_ctl exits instead of
	// waiting for the server to end.
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	return out.Bytes(), err
}

// Stop stops the cluster at once (immediate mode: no shutdown checkpoint)
// and removes its files.
func (c *Cluster) Stop() {
	_, _ = c.run("pg_ctl", "-D", c.data, "-m", "immediate", "-w", "stop")
	os.RemoveAll(c.dir)
}

// SocketDir is the directory of the cluster's Unix socket, for tools such as
// psql and pgbench (-h).
func (c *Cluster) SocketDir() string { return c.data }

// BinDir is the directory of the server binaries the cluster runs from.
func (c *Cluster) BinDir() string { return c.bin }

// URL returns the connection URL of database name on the cluster.
func (c *Cluster) URL(name string) string {
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Host: "localhost", Path: "/" + name}
	u.RawQuery = url.Values{"host": {c.data}, "sslmode": {"disable"}}.Encode()
	return u.String()
}

// NewDB creates an empty database on the cluster and returns its URL.
func (c *Cluster) NewDB(tb testing.TB) string {
	tb.Helper()
	return c.newDB(tb, "")
}

// newDB creates a database with CREATE DATABASE's options opts.
func (c *Cluster) newDB(tb testing.TB, opts string) string {
	tb.Helper()
	name := dbName(c.n.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		tb.Fatalf("connect to the test cluster: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" "+opts); err != nil {
		tb.Fatalf("create database %s: %v", name, err)
	}
	return c.URL(name)
}

// PostmasterPID returns the process id of the cluster's postmaster (the
// first line of postmaster.pid), for benchmarks that meter its CPU.
func (c *Cluster) PostmasterPID() (int, error) {
	b, err := os.ReadFile(filepath.Join(c.data, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(first))
}

// Restart restarts the cluster with the options it was started with, so
// that settings that need a restart (ALTER SYSTEM SET
// shared_preload_libraries) take effect.
func (c *Cluster) Restart() error {
	if out, err := c.run("pg_ctl", "-D", c.data, "-l", filepath.Join(c.data, "log"), "-w", "-t", "60", "restart"); err != nil {
		return fmt.Errorf("pg_ctl restart: %v\n%s", err, out)
	}
	return nil
}
