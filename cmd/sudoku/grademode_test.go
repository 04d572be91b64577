package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// hardLine is a puzzle of the hardest class (forum_hardest_1905_11plus):
// its full grade takes the nested forcing chains, past the quick budget.
const hardLine = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"

// TestSolveGradeModes (issue 45): quick gives a grade within the default
// budget (a floor on the hardest), full (the default) the archive's grade.
// Its time is one goroutine's grades of the hardest puzzle, ten times
// slower under -race and racing nothing: make test runs it in its second
// pass (internal/racefree). The pipeline solve runs a puzzle through is
// under -race in TestSolvePlain and TestGradeModeNone.
func TestSolveGradeModes(t *testing.T) {
	racefree.Only(t)
	want := map[string]func(p record.Puzzle) bool{
		"quick": func(p record.Puzzle) bool { return p.GradeStatus == record.GradeDone && p.GradeFloor },
		"full":  func(p record.Puzzle) bool { return p.GradeStatus == record.GradeDone && !p.GradeFloor },
	}
	for mode, ok := range want {
		checkSolveGradeMode(t, mode, ok)
	}
}

// TestGradeModeNone: solve --grade none prints the measures with the
// grade pending, import --grade none leaves every grade pending and says
// so; --grade without --json, or an unknown mode, is a usage error.
func TestGradeModeNone(t *testing.T) {
	checkSolveGradeMode(t, "none", func(p record.Puzzle) bool { return p.GradeStatus == record.GradePending && p.Grade == nil })
	for _, args := range [][]string{{"solve", "--grade", "quick"}, {"solve", "--json", "--grade", "some"}} {
		if _, _, err := runCmd(t, hardLine+"\n", args...); exitCode(err) != 2 {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	checkImportGradeMode(t, gradeModeInput(t), "none", "grades pending: 2 puzzles", 2)
}

// checkSolveGradeMode solves the hardest puzzle with --json --grade mode
// and checks the puzzle it prints with ok.
func checkSolveGradeMode(t *testing.T, mode string, ok func(p record.Puzzle) bool) {
	t.Helper()
	out, _, err := runCmd(t, hardLine+"\n", "solve", "--json", "--grade", mode)
	var p record.Puzzle
	if err != nil || json.Unmarshal([]byte(out), &p) != nil || !ok(p) {
		t.Errorf("--grade %s: %v, %.300s", mode, err, out)
	}
}

// TestImportGradeModes: import --grade quick grades what the default
// budget grades and leaves the hardest pending, saying so; full (the
// default) grades them all. Like TestSolveGradeModes, its time is one
// goroutine's grades of the hardest puzzle: make test runs it without
// -race; the import's pipeline and graders are under -race in
// TestGradeModeNone and the import tests.
func TestImportGradeModes(t *testing.T) {
	racefree.Only(t)
	file := gradeModeInput(t)
	checkImportGradeMode(t, file, "quick", "grades pending: 1 puzzle;", 1)
	checkImportGradeMode(t, file, "full", "", 0)
}

// gradeModeInput writes an easy puzzle and the hardest one to a file.
func gradeModeInput(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "in.txt")
	easy := "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
	if err := os.WriteFile(file, []byte(easy+"\n"+hardLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// checkImportGradeMode imports file into a new archive with --grade mode:
// it must say pending (nothing about pending grades when "") and leave
// wantN puzzles to grade.
func checkImportGradeMode(t *testing.T, file, mode, pending string, wantN int64) {
	t.Helper()
	db := filepath.Join(t.TempDir(), mode+".db")
	_, errOut, err := runCmd(t, "", "import", "--db", db, "--grade", mode, file)
	if err != nil {
		t.Fatalf("--grade %s: %v\n%s", mode, err, errOut)
	}
	if pending != "" && !strings.Contains(errOut, pending) || pending == "" && strings.Contains(errOut, "pending") {
		t.Errorf("--grade %s said %q, want %q", mode, errOut, pending)
	}
	n, err := openStore(t, db).CountUngraded(t.Context())
	if err != nil || n != wantN {
		t.Errorf("--grade %s: %d pending (%v), want %d", mode, n, err, wantN)
	}
}

// TestSolveProgress: a run past solveProgressAfter shows the bar and
// ends with its line of totals; a shorter one prints nothing.
func TestSolveProgress(t *testing.T) {
	var quick, long strings.Builder
	p := &solveProgress{w: &quick, start: time.Now()}
	p.add(3, false)
	p.finish()
	if quick.Len() != 0 {
		t.Errorf("a quick run printed %q", quick.String())
	}
	p = &solveProgress{w: &long, start: time.Now().Add(-2 * solveProgressAfter)}
	p.add(5, false)
	p.add(2, true)
	p.finish()
	if !strings.Contains(long.String(), "solving: 7 puzzles in") {
		t.Errorf("a long run's progress: %q", long.String())
	}
}
