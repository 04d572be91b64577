// Package proctest runs the test binary again as another program: the
// tests of an archive held open by an older sudoku (cmd/sudoku and
// internal/store) start such a holder in its own process.
package proctest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// CopyOfTestBinary copies the running test binary to a file called name
// in a temporary directory and returns its path, once it can be run.
// A copy, not a link: the gate against older servers (internal/store,
// holders_linux.go) leaves alone the processes of its own executable
// file, and an older server's is another file.
func CopyOfTestBinary(t testing.TB, name string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o700); err != nil {
		t.Fatal(err)
	}
	// A process forked meanwhile may hold the file open for writing a
	// moment (ETXTBSY, go.dev/issue/22315): run it idle until it runs.
	for try := 0; ; try++ {
		err := exec.Command(path, "-test.run=^$").Run()
		if err == nil || !errors.Is(err, syscall.ETXTBSY) || try == 50 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return path
}
