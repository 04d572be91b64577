package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestGenerateSeed: the same --seed prints the same puzzles, each in the
// asked band, and --json prints what `sudoku solve --json` prints for it.
func TestGenerateSeed(t *testing.T) {
	args := []string{"generate", "--band", "hard", "--count", "4", "--seed", "42"}
	a, _, err := runCmd(t, "", args...)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runCmd(t, "", args...)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("the same seed gave two runs:\n%s\n%s", a, b)
	}
	lines := strings.Fields(a)
	if len(lines) != 4 {
		t.Fatalf("want 4 puzzles, got %q", a)
	}
	js, _, err := runCmd(t, "", append(args, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(js), "\n") {
		var p record.Puzzle
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		if p.Givens.String() != lines[i] || p.Band != sudoku.BandHard || !p.Unique || p.Grade == nil {
			t.Errorf("puzzle %d: %s band %s unique %v grade %v; plain output %s", i, p.Givens, p.Band, p.Unique, p.Grade, lines[i])
		}
		solved, _, err := runCmd(t, "", "solve", "--json", lines[i])
		if err != nil {
			t.Fatal(err)
		}
		var q record.Puzzle
		if err := json.Unmarshal([]byte(solved), &q); err != nil {
			t.Fatal(err)
		}
		p.SolveNS, q.SolveNS = 0, 0 // a timing, different on every run
		if !cmp.Equal(p, q) {
			t.Errorf("puzzle %d: generate --json and solve --json differ:\n%s\n%s", i, line, solved)
		}
	}
	c, stderr, err := runCmd(t, "", "generate", "--band", "hard", "--count", "4")
	if err != nil || c == a || !strings.Contains(stderr, "seed ") {
		t.Errorf("without --seed: err %v, stderr %q, same output as seed 42: %v", err, stderr, c == a)
	}
}

func TestGenerateArchive(t *testing.T) {
	db := sqliteArchive(t)
	out, stderr, err := runCmd(t, "", "generate", "--grade", "2-4", "--symmetric", "--count", "3", "--seed", "5", "--archive", "--db", db)
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if !strings.Contains(stderr, "archived 3 puzzles") {
		t.Errorf("stderr %q", stderr)
	}
	exported, _, err := runCmd(t, "", "export", "--db", db, "--format", "txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(out) {
		if !strings.Contains(exported, p) {
			t.Errorf("%s not archived; export:\n%s", p, exported)
		}
	}
}

func TestGenerateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--band", "brutal"},
		{"--band", "hard", "--grade", "2-3"},
		{"--grade", "5-3"},
		{"--grade", "x"},
		{"--count", "0"},
		{"--seed", "-1"},
	} {
		_, _, err := runCmd(t, "", append([]string{"generate"}, args...)...)
		if exitCode(err) != 2 {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
}

// TestGenerateMiss: a target not met within the budget fails with the
// budget named.
func TestGenerateMiss(t *testing.T) {
	// A grade above any the generator reaches (an extreme puzzle, since
	// bands follow the grade, can come up within 50 ms on a fast machine).
	_, _, err := runCmd(t, "", "generate", "--grade", "11.5-12", "--symmetric", "--budget", "50ms", "--seed", "1")
	if err == nil || !strings.Contains(err.Error(), "puzzle found within the budget") {
		t.Errorf("err %v", err)
	}
}
