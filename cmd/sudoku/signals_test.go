package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeStopsOnEverySignal: SIGTERM, SIGINT and SIGHUP each stop the
// server gracefully: exit 0, "stopped" logged, the archive closed cleanly
// (no -wal or -shm file left) and the acknowledged puzzle in it.
func TestServeStopsOnEverySignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary: skipped with -short")
	}
	bin := buildBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dbPath := filepath.Join(t.TempDir(), "sudoku.db")
			p := startProc(t, bin, dbPath, "--rate-limit", "0", "--graders", "0")
			if res, err := submit(context.Background(), http.DefaultClient, p.url, easy); err != nil || res.status != http.StatusCreated {
				t.Fatalf("submit: %+v %v", res, err)
			}
			p.cmd.Process.Signal(sig)
			select {
			case err := <-p.done:
				p.done <- err // for the cleanup's kill
				if err != nil {
					t.Fatalf("serve exited with %v on %v\n%s", err, sig, p.logs)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("serve did not stop on %v\n%s", sig, p.logs)
			}
			if !strings.Contains(p.logs.String(), "msg=stopped") {
				t.Errorf("no graceful stop logged on %v:\n%s", sig, p.logs)
			}
			for _, f := range []string{dbPath + "-wal", dbPath + "-shm"} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s left behind: the archive was not closed", filepath.Base(f))
				}
			}
			if out, _, err := runCmd(t, "", "export", "--db", dbPath); err != nil || !strings.Contains(out, easy) {
				t.Errorf("export after the stop: %v, %q", err, out)
			}
		})
	}
}

// TestServeBindFailure: an address that cannot be listened on (taken, or
// not an address) ends `sudoku serve` at once with exit 1 and the reason,
// before it opens the archive: it used to grade on with no listener, and
// an unbindable --metrics-addr hung the server until a signal.
func TestServeBindFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary: skipped with -short")
	}
	bin := buildBinary(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	freeAddr := free.Addr().String()
	free.Close()
	for _, tc := range []struct{ flag, addr, want string }{
		{"--addr", taken.Addr().String(), "address already in use"},
		{"--addr", "bogus", "missing port in address"},
		// issue 50: the metrics' address was bound after the public one
		// and the archive, and its failure hung the server until a signal.
		{"--metrics-addr", taken.Addr().String(), "address already in use"},
		{"--metrics-addr", "bogus", "missing port in address"},
	} {
		dbPath := filepath.Join(t.TempDir(), "sudoku.db")
		args := []string{"serve", "--addr", tc.addr, "--db", dbPath}
		if tc.flag == "--metrics-addr" {
			args = []string{"serve", "--addr", freeAddr, "--metrics-addr", tc.addr, "--db", dbPath}
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "SUDOKU_ADDR=", "SUDOKU_DB=")
		done := make(chan struct{})
		var out []byte
		go func() { out, err = cmd.CombinedOutput(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%s %s: still running", tc.flag, tc.addr)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "listen on "+tc.addr) || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s %s: %v, output %q", tc.flag, tc.addr, err, out)
		}
		if _, err := os.Stat(dbPath); err == nil {
			t.Errorf("%s %s: the archive was made before the bind failed", tc.flag, tc.addr)
		}
	}
}
