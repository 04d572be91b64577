package store

import (
	"bufio"
	"context"
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
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestHoldArchiveHelper is the older server of TestMigrateRefusedUnderServer,
// run in a process of its own (this test binary again, under a name that
// begins with "sudoku"): it serves the archive SUDOKU_HOLD_ARCHIVE at the
// older schema, registered in the servers table when SUDOKU_HOLD_REGISTER
// is set, says "ready", then submits the puzzle of each number it reads
// on stdin ("ok" or the error) until stdin ends.
func TestHoldArchiveHelper(t *testing.T) {
	path := os.Getenv("SUDOKU_HOLD_ARCHIVE")
	if path == "" {
		t.Skip("the helper process of TestMigrateRefusedUnderServer")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := openOld(t, path)
	if err != nil {
		fmt.Println("open:", err)
		return
	}
	defer db.Close()
	if os.Getenv("SUDOKU_HOLD_REGISTER") != "" {
		left := make(chan struct{})
		go func() {
			defer close(left)
			db.KeepRegistered(ctx, func(err error) { fmt.Println("register:", err) })
		}()
		defer func() { cancel(); <-left }() // it leaves the table, as a server that stops does
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if s, _ := db.Servers(ctx); len(s) > 0 {
				break
			}
		}
	}
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		n, _ := strconv.ParseInt(in.Text(), 10, 64)
		if _, _, err := db.Submit(ctx, synthetic(n, 1, 1, 1)); err != nil {
			fmt.Println("submit:", err)
			continue
		}
		fmt.Println("ok")
	}
}

// oldServerProc is a running TestHoldArchiveHelper.
type oldServerProc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startOldServer starts the older server on the SQLite archive at path.
func startOldServer(t *testing.T, path string, register bool) *oldServerProc {
	t.Helper()
	name := proctest.CopyOfTestBinary(t, "sudoku-old")
	cmd := exec.Command(name, "-test.run=^TestHoldArchiveHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SUDOKU_HOLD_ARCHIVE="+path)
	if register {
		cmd.Env = append(cmd.Env, "SUDOKU_HOLD_REGISTER=1")
	}
	cmd.Stderr = os.Stderr
	p := &oldServerProc{cmd: cmd}
	var err error
	if p.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.out = bufio.NewScanner(out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.stop() })
	if line := p.line(); line != "ready" {
		t.Fatalf("the older server: %q", line)
	}
	return p
}

// line is the helper's next line of output.
func (p *oldServerProc) line() string {
	if !p.out.Scan() {
		return "(no more output)"
	}
	return p.out.Text()
}

// stop ends the helper (it closes the archive) and waits for it.
func (p *oldServerProc) stop() {
	if p.in != nil {
		p.in.Close()
		p.in = nil
		p.cmd.Wait()
	}
}

// TestMigrateRefusedUnderServer is issue 50's item 8 on SQLite: with an
// older server serving the archive (registered in the servers table, or
// of a binary from before it, which only holds the file open), a newer
// binary's Open (every command: export, import, ...) refuses to migrate,
// naming the server, and changes nothing: the server goes on taking
// submissions. Once it has stopped, the same Open migrates.
func TestMigrateRefusedUnderServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the processes holding a file are read from Linux's /proc/locks")
	}
	t.Parallel()
	for _, register := range []bool{true, false} {
		t.Run(fmt.Sprintf("registered=%v", register), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "sudoku.db")
			oldGraded(t, path, 10)
			old := startOldServer(t, path, register)
			_, err := Open(ctx, path)
			var oe *OlderServersError
			pid := "pid " + strconv.Itoa(old.cmd.Process.Pid)
			if !errors.Is(err, ErrOlderServers) || !errors.As(err, &oe) || oe.From != oldSchema || len(oe.Servers) != 1 || !strings.Contains(oe.Servers[0], pid) {
				t.Fatalf("open under the older server: %v, want OlderServersError naming %s", err, pid)
			}
			want := "sudoku-old"
			if register {
				want = "schema " + strconv.Itoa(oldSchema)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the refusal %q does not say %q", err, want)
			}
			if v := schemaVersion(t, path); v != oldSchema {
				t.Errorf("schema after the refusal: %d, want %d", v, oldSchema)
			}
			fmt.Fprintln(old.in, 11)
			if line := old.line(); line != "ok" {
				t.Errorf("the older server's submission after the refusal: %q", line)
			}
			old.stop()
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("open once the older server stopped: %v", err)
			}
			defer db.Close()
			if n := len(exportAll(t, db, record.ListQuery{})); n != 11 {
				t.Errorf("%d puzzles after the upgrade, want 11", n)
			}
		})
	}
}
