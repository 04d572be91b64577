package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
)

// variantLine returns a written form of the variant engine's test set
// (internal/variant/testdata/puzzles.txt, CC0) by name.
func variantLine(t *testing.T, name string) string {
	t.Helper()
	return puzzletest.VariantText(t, name)
}

// xLink is the X-Sudoku of the test set as an f-puzzles link.
func xLink(t *testing.T) (string, variant.Puzzle) {
	t.Helper()
	x, err := variant.Parse([]byte(variantLine(t, "diagonal+-1")))
	if err != nil {
		t.Fatal(err)
	}
	link, err := fpuzzles.Link(fpuzzles.Puzzle{Puzzle: x, Title: "Cross", Author: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	return link, x
}

// TestSolveVariants: `sudoku solve` reads a variant in every form, from
// arguments and stdin lines, plain and --json; a bad line says its line
// and what is wrong, and the others are still solved.
func TestSolveVariants(t *testing.T) {
	link, x := xLink(t)
	killer := variantLine(t, "killer-nogivens-1")
	unsupported := fpuzzles.FPuzzlesPrefix + fpuzzles.CompressToBase64(`{"size":9,"grid":[],"chess":[1]}`)
	stdin := link + "\n" + killer + "\n" + unsupported + "\n" + easy + "\n"
	out, errOut, err := runCmd(t, stdin, "solve")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if err != errQuiet || len(lines) != 4 || len(lines[0]) != 81 || len(lines[1]) != 81 || lines[3] != easySol ||
		!strings.HasPrefix(lines[2], "error: ") || !strings.Contains(errOut, "line 3: ") || !strings.Contains(errOut, "chess") {
		t.Fatalf("solve: %v\n%s\nstderr %s", err, out, errOut)
	}
	if err := variant.Check(x, mustGrid(t, lines[0])); err != nil {
		t.Errorf("the X-Sudoku's solution breaks its rules: %v", err)
	}

	out, errOut, err = runCmd(t, stdin, "solve", "--json")
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if err != errQuiet || len(lines) != 4 {
		t.Fatalf("solve --json: %v\n%s\nstderr %s", err, out, errOut)
	}
	var first struct {
		Variant   []string        `json:"variant"`
		Rules     json.RawMessage `json:"rules"`
		Title     string          `json:"title"`
		Solutions int             `json:"solutions"`
		FPuzzles  string          `json:"fpuzzles"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || len(first.Variant) != 1 || first.Variant[0] != "x" ||
		first.Title != "Cross" || first.Solutions != 1 || first.FPuzzles == "" || string(first.Rules) == "null" {
		t.Errorf("solve --json line 1: %s (%v)", lines[0], err)
	}
	var bad struct {
		Line  int    `json:"line"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(lines[2]), &bad); err != nil || bad.Line != 3 || !strings.Contains(bad.Error, "chess") {
		t.Errorf("solve --json line 3: %s", lines[2])
	}

	out, _, err = runCmd(t, "", "solve", killer)
	if err != nil || len(out) != 82 {
		t.Errorf("solve argument: %v %q", err, out)
	}
}

// TestImportVariants: `sudoku import` reads a variant per line and
// reports a bad variant by its line.
func TestImportVariants(t *testing.T) {
	link, _ := xLink(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "in.txt")
	overlap := `{"givens":"` + strings.Repeat(".", 81) + `","rules":[{"type":"killer","cells":["r1c1","r1c2"]},{"type":"killer","cells":["r1c2","r1c3"]}]}`
	if err := os.WriteFile(file, []byte("# variants\n"+link+"\n"+overlap+"\n"+easy+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "", "import", "--db", sqliteArchive(t), file)
	if err != nil {
		t.Fatalf("import: %v (stderr %q)", err, errOut)
	}
	if got := summary(t, out); got != "2 0 1" {
		t.Errorf("imported, duplicates, rejected = %s, want 2 0 1", got)
	}
	if !strings.Contains(errOut, file+":3: rule 2 (killer) at r1c2") {
		t.Errorf("stderr %q, want line 3's overlapping cage", errOut)
	}
}

func mustGrid(t *testing.T, s string) sudoku.Grid {
	t.Helper()
	g, err := sudoku.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
