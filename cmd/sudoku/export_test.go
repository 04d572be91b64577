package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

func TestExportCommand(t *testing.T) { eachDatabase(t, testExportCommand) }

func testExportCommand(t *testing.T, db string) {
	hard := "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	if _, _, err := runCmd(t, easy+"\n"+hard+"\n", "import", "--db", db, "-"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		want    string // whole stdout, or its first line for csv
		wantErr error
	}{
		{"default: hardest first", nil, hard + "\n" + easy + "\n", nil},
		{"asc", []string{"--order", "asc"}, easy + "\n" + hard + "\n", nil},
		{"submitted asc", []string{"--sort", "submitted", "--order", "asc"}, easy + "\n" + hard + "\n", nil},
		{"clues desc", []string{"--sort", "clues"}, easy + "\n" + hard + "\n", nil},
		{"csv header", []string{"--format", "csv"}, "id,puzzle,solution,clues,solutions,unique,band,backtracks,guesses,nodes,solve_ns,engine_version,submitted_at,submissions", nil},
		{"json", []string{"--format", "json", "--sort", "submitted", "--order", "asc"}, `{"id":1,"puzzle":"` + easy + `"`, nil},
		{"bad format", []string{"--format", "xml"}, "", errUsage{}},
		{"bad sort", []string{"--sort", "name"}, "", errUsage{}},
		{"bad order", []string{"--order", "up"}, "", errUsage{}},
		{"extra argument", []string{"out.txt"}, "", errUsage{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runCmd(t, "", append([]string{"export", "--db", db}, tc.args...)...)
			if tc.wantErr != nil {
				var u errUsage
				if !errors.As(err, &u) {
					t.Fatalf("err = %v, want a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out, tc.want) {
				t.Errorf("stdout %q, want it to start with %q", out, tc.want)
			}
		})
	}
}

// TestExportHelpSorts: `sudoku export --help` offers every sort the export
// takes (its list had drifted: grade was missing).
func TestExportHelpSorts(t *testing.T) {
	_, errOut, err := runCmd(t, "", "export", "--help")
	if err != nil {
		t.Fatalf("--help: %v", err)
	}
	for _, s := range sudoku.Sorts {
		if !strings.Contains(errOut, string(s)) {
			t.Errorf("export --help does not offer --sort %s:\n%s", s, errOut)
		}
	}
}
