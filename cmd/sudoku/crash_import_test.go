package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/bulk"
)

// TestCrashImport runs the real `sudoku import` on 20,000 puzzles (four
// full batches of bulk.DefaultBatchSize and a part) and kills it with
// SIGKILL at a random moment, several times over the same database. After each kill the database must pass
// integrity_check, its totals must agree with its rows, and it must hold
// only whole batches: exactly the first k*BatchSize lines of the input, and
// within each batch the same submission count (a re-run counts each batch
// it commits once more).
// Then one more run completes, counting what the killed runs committed as
// duplicates and storing nothing twice.
//
//	go test ./cmd/sudoku -run TestCrashImport -v -crash.rounds=10
func TestCrashImport(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped with -short")
	}
	if *crashRounds < 1 {
		t.Skip("-crash.rounds=0: nothing to kill")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	src := newPuzzleSource(t)
	lines := make([]string, 5*bulk.DefaultBatchSize-480) // four full batches and a part
	for i := range lines {
		lines[i] = src.next()
	}
	input := filepath.Join(dir, "puzzles.txt")
	if err := os.WriteFile(input, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const batch = bulk.DefaultBatchSize
	dbPath := filepath.Join(dir, "sudoku.db")
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 2))
	t.Logf("seed %d", seed)

	importOnce := func(killAfter time.Duration) (string, bool) {
		return runKilledAfter(t, killAfter, bin, "import", "--db", dbPath, input)
	}
	// stored checks the file and returns how many puzzles it holds.
	stored := func() int {
		t.Helper()
		return checkWholeBatches(t, dbPath, lines, batch)
	}

	for round := range *crashRounds {
		wait := 100*time.Millisecond + time.Duration(rng.Int64N(int64(1400*time.Millisecond)))
		out, killed := importOnce(wait)
		n := stored()
		if !killed {
			t.Logf("round %d: the import finished within %s: %s", round+1, wait.Round(time.Millisecond), strings.TrimSpace(out))
			continue
		}
		t.Logf("round %d: killed after %s; %d puzzles stored (%d batches)", round+1, wait.Round(time.Millisecond), n, n/batch)
	}

	before := stored()
	out, _ := importOnce(0)
	m := regexp.MustCompile(`^imported (\d+), duplicates (\d+), rejected 0 in `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("summary %q", out)
	}
	imported, _ := strconv.Atoi(m[1])
	dups, _ := strconv.Atoi(m[2])
	if imported != len(lines)-before || dups != before {
		t.Errorf("re-run: %q, want imported %d, duplicates %d", strings.TrimSpace(out), len(lines)-before, before)
	}
	if n := stored(); n != len(lines) {
		t.Errorf("%d puzzles after the complete run, want %d", n, len(lines))
	}
	t.Logf("complete run after the kills: %s", strings.TrimSpace(out))
}

// runKilledAfter runs bin with args and kills it with SIGKILL after
// killAfter unless it ends first (never, when killAfter is 0); it fails t
// if the run ends in an error. It returns what the run printed on stdout
// and whether it was killed.
func runKilledAfter(t *testing.T, killAfter time.Duration, bin string, args ...string) (stdout string, killed bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timer <-chan time.Time
	if killAfter > 0 {
		timer = time.After(killAfter)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("import: %v\n%s%s", err, &out, &errOut)
		}
		return out.String(), false
	case <-timer:
		cmd.Process.Kill()
		<-done
		return out.String(), true
	}
}

// checkWholeBatches checks the database at dbPath, imported from lines in
// batches of batch, and returns how many puzzles it holds: exactly the
// first whole batches, each batch with one submission count.
func checkWholeBatches(t *testing.T, dbPath string, lines []string, batch int) int {
	t.Helper()
	got := inspect(t, dbPath)
	n := len(got)
	if n%batch != 0 && n != len(lines) {
		t.Errorf("%d puzzles stored: not a whole number of %d-puzzle batches", n, batch)
	}
	for i, p := range lines {
		if _, ok := got[p]; ok != (i < n) {
			t.Fatalf("line %d stored: %v, with %d puzzles stored: not the first whole batches", i+1, ok, n)
		}
		// A re-run counts archived puzzles again, a whole batch at a
		// time: within a batch every puzzle has the same count.
		if first := lines[i-i%batch]; i < n && got[p] != got[first] {
			t.Fatalf("line %d has %d submissions, line %d of the same batch %d: a batch committed in part",
				i+1, got[p], i-i%batch+1, got[first])
		}
	}
	return n
}

// TestKilledWhileCreating kills `sudoku import` on a new archive at 30
// moments spread over the time a whole import of two puzzles takes, to hit
// the moment it makes the file: after each kill the path holds no file or
// a database the next import opens and completes, never the empty file
// that every command refuses.
func TestKilledWhileCreating(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped with -short")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	input := filepath.Join(dir, "puzzles.txt")
	src := newPuzzleSource(t)
	if err := os.WriteFile(input, []byte(src.next()+"\n"+src.next()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	runKilledAfter(t, 0, bin, "import", "--db", filepath.Join(dir, "whole.db"), input)
	whole := time.Since(start)
	var made, absent int
	for i := range 30 {
		dbPath := filepath.Join(dir, "sudoku"+strconv.Itoa(i)+".db")
		wait := whole * time.Duration(i+1) / 31
		if _, killed := runKilledAfter(t, wait, bin, "import", "--db", dbPath, input); !killed {
			continue
		}
		if fi, err := os.Stat(dbPath); err != nil {
			absent++
			continue
		} else if fi.Size() == 0 {
			t.Fatalf("a kill after %s left an empty file at %s", wait, dbPath)
		}
		made++
		out, _ := runKilledAfter(t, 0, bin, "import", "--db", dbPath, input)
		if !strings.HasPrefix(out, "imported ") {
			t.Fatalf("the import after a kill at %s: %q", wait, out)
		}
	}
	t.Logf("a whole import %s; 30 kills: %d left no file, %d a database the next import completed", whole.Round(time.Millisecond), absent, made)
}
