package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/sudoku-archive/sudoku/internal/proctest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/migrations"
)

// TestHoldSQLiteHelper is the older server of TestExportRefusedUnderOldServer
// in a process of its own (this test binary again, named like a sudoku):
// it keeps the SQLite archive SUDOKU_HOLD_ARCHIVE open, as any server
// does, says "ready" and waits for stdin to end.
func TestHoldSQLiteHelper(t *testing.T) {
	path := os.Getenv("SUDOKU_HOLD_ARCHIVE")
	if path == "" {
		t.Skip("the helper process of TestExportRefusedUnderOldServer")
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM puzzles").Scan(&n); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ready")
	bufio.NewScanner(os.Stdin).Scan()
}

// TestExportRefusedUnderOldServer is issue 50's item 8 through the
// command line: `sudoku export` of a newer binary, run beside an older
// server (here of schema 17, from before the servers table, so known only
// by the file it holds open), refuses to migrate the archive and says
// why, instead of migrating it under the server; once the server is
// stopped, the same export migrates and runs.
func TestExportRefusedUnderOldServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the processes holding a file are read from Linux's /proc/locks")
	}
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sudoku.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 17); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA journal_mode=WAL"); err != nil { // as every server sets it
		t.Fatal(err)
	}
	defer raw.Close() // this process's: the gate looks at other processes

	old, in := startHolder(t, path)
	defer func() { in.Close(); old.Wait() }()

	_, stderr, err := runCmd(t, "", "export", "--db", path)
	pid := "pid " + strconv.Itoa(old.Process.Pid)
	if !errors.Is(err, store.ErrOlderServers) || exitCode(err) != 1 || !strings.Contains(err.Error(), pid) ||
		!strings.Contains(err.Error(), "sudoku-old") || !strings.Contains(err.Error(), "schema 17") {
		t.Fatalf("export beside the older server: %v (exit %d), want ErrOlderServers naming %s; stderr %q", err, exitCode(err), pid, stderr)
	}
	t.Logf("the refusal: %v", err)
	if v, err := p.GetDBVersion(ctx); err != nil || v != 17 {
		t.Errorf("schema after the refusal: %d, %v; want 17, untouched", v, err)
	}
	in.Close()
	old.Wait()
	if _, stderr, err := runCmd(t, "", "export", "--db", path); err != nil || !strings.Contains(stderr, "database schema migrated") {
		t.Errorf("export once the older server stopped: %v; stderr %q", err, stderr)
	}
}

// startHolder starts TestHoldSQLiteHelper on the archive at path, under
// the name sudoku-old, and returns it once it holds the archive open,
// with its stdin (closing it stops the helper).
func startHolder(t *testing.T, path string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	name := proctest.CopyOfTestBinary(t, "sudoku-old")
	old := exec.Command(name, "-test.run=^TestHoldSQLiteHelper$", "-test.count=1")
	old.Env = append(os.Environ(), "SUDOKU_HOLD_ARCHIVE="+path)
	in, err := old.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := old.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Start(); err != nil {
		t.Fatal(err)
	}
	if lines := bufio.NewScanner(out); !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the older server: %q", lines.Text())
	}

	return old, in
}
