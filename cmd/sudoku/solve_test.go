package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

const (
	easy    = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	easySol = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

// runCmd runs the binary's run with the given stdin and returns its output.
func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), args, func(string) string { return "" }, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

// drawnGrid is easy as a 9-line grid with zeros.
func drawnGrid() string {
	var b strings.Builder
	for r := range 9 {
		b.WriteString(strings.Join(strings.Split(strings.ReplaceAll(easy[r*9:r*9+9], ".", "0"), ""), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestSolvePlain(t *testing.T) {
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantOut    string
		wantErrOut string // substring of stderr
		wantErr    error
	}{
		{name: "stdin", stdin: easy + "\n", wantOut: easySol + "\n"},
		{name: "no final newline", stdin: easy, wantOut: easySol + "\n"},
		{name: "CRLF, comments, blanks and a rating", stdin: "# header\r\n\r\n" + easy + " 7.2 name\r\n", wantOut: easySol + "\n"},
		{name: "argument grid", args: []string{drawnGrid()}, wantOut: easySol + "\n"},
		{name: "two arguments", args: []string{easy, strings.ReplaceAll(easy, ".", "0")}, wantOut: easySol + "\n" + easySol + "\n"},
		{name: "several solutions", stdin: strings.Repeat(".", 81) + "\n", wantOut: "", wantErrOut: "line 1: puzzle has more than one solution; printed the first"},
		{name: "bad line then good", stdin: "# c\n12345\n" + easy + "\n", wantOut: "error: expected 81 cells, got 5\n" + easySol + "\n", wantErrOut: "line 2: expected 81 cells, got 5", wantErr: errQuiet},
		{name: "conflict", stdin: "55" + strings.Repeat(".", 79) + "\n", wantOut: "error: row 1 has two 5s\n", wantErrOut: "line 1: row 1 has two 5s", wantErr: errQuiet},
		{name: "no solution", stdin: "12345678.........9" + strings.Repeat(".", 63) + "\n", wantOut: "error: puzzle has no solution\n", wantErrOut: "line 1: puzzle has no solution", wantErr: errQuiet},
		{name: "empty input", stdin: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, err := runCmd(t, tc.stdin, append([]string{"solve"}, tc.args...)...)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			if tc.name == "several solutions" {
				if len(out) != 82 {
					t.Errorf("stdout %q, want one solution", out)
				}
			} else if out != tc.wantOut {
				t.Errorf("stdout = %q, want %q", out, tc.wantOut)
			}
			if !strings.Contains(errOut, tc.wantErrOut) || (tc.wantErrOut == "" && errOut != "") {
				t.Errorf("stderr = %q, want it to hold %q", errOut, tc.wantErrOut)
			}
		})
	}
}

func TestSolveJSON(t *testing.T) {
	stdin := "12345\n" + easy + "\n\n# comment\n" + strings.Repeat(".", 81) + "\n" + easy[:5] + "x" + easy[6:] + "\n"
	out, errOut, err := runCmd(t, stdin, "solve", "--json")
	if err != errQuiet || errOut != "" {
		t.Fatalf("err %v, stderr %q", err, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d lines: %q", len(lines), out)
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		delete(m, "solve_ns")
		delete(m, "canonical") // checked below
		got = append(got, m)
	}
	if m := got[2]; m["solutions"] != 2.0 || m["unique"] != false {
		t.Errorf("empty grid: %v", m)
	}
	got[2] = nil
	want := []map[string]any{
		{"line": 1.0, "error": "expected 81 cells, got 5"},
		{"puzzle": easy, "solution": easySol, "clues": 30.0, "solutions": 1.0, "unique": true,
			"backtracks": 0.0, "band": "easy", "guesses": 0.0, "nodes": 1.0, "engine_version": sudoku.EngineVersion,
			"same_as": nil, "grade": 1.2, "grade_floor": false, "technique": "Hidden Single",
			"grade_ep": 1.2, "grade_ed": 1.2, "techniques": []any{"Full House", "Hidden Single"}, "grade_status": "done",
			"plays": 0.0, "solve_rate": nil, "median_seconds": nil, "player_seconds": nil,
			"rules": nil, "variant": []any{}},
		nil,
		{"line": 6.0, "error": "'x' at position 6 is not a cell (cells are 1-9, with 0 or . for a blank)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	// The canonical form is the engine's.
	g, _ := sudoku.Parse(easy)
	if c, _, _ := sudoku.Canonical(g, sudoku.Options{}); !strings.Contains(lines[1], `"canonical":"`+c.String()+`"`) {
		t.Errorf("canonical form is not %s in %s", c, lines[1])
	}
	// solve_ns is there and positive.
	if !strings.Contains(lines[1], `"solve_ns":`) || strings.Contains(lines[1], `"solve_ns":0`) {
		t.Errorf("no solve_ns in %s", lines[1])
	}
}

// TestSolveOrder solves more puzzles than one batch per worker and checks
// the output keeps the input order and the line numbers.
func TestSolveOrder(t *testing.T) {
	puzzles := puzzletest.Lines(t, puzzletest.SeventeenClue, 700) // several batches per worker
	var in strings.Builder
	for i, p := range puzzles {
		if i%100 == 7 {
			fmt.Fprintf(&in, "bad %d\n", i)
		}
		in.WriteString(p + "\n")
	}
	out, _, err := runCmd(t, in.String(), "solve", "--json")
	if err != errQuiet {
		t.Fatalf("err %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	n, line := 0, 0
	for i, p := range puzzles {
		if i%100 == 7 {
			line++
			var e lineError
			if json.Unmarshal([]byte(lines[n]), &e) != nil || e.Line != line || e.Error == "" {
				t.Fatalf("output line %d = %s, want the error of input line %d", n+1, lines[n], line)
			}
			n++
		}
		line++
		var m struct{ Puzzle, Solution string }
		if err := json.Unmarshal([]byte(lines[n]), &m); err != nil || m.Puzzle != p || len(m.Solution) != 81 {
			t.Fatalf("output line %d = %s, want puzzle %s", n+1, lines[n], p)
		}
		n++
	}
	if n != len(lines) {
		t.Errorf("%d output lines, want %d", len(lines), n)
	}
}

func TestSolveLongLine(t *testing.T) {
	stdin := strings.Repeat("1", maxLine+10) + "\n" + easy + "\n"
	out, errOut, err := runCmd(t, stdin, "solve")
	if err != errQuiet || out != "error: line longer than 65536 bytes\n"+easySol+"\n" || !strings.Contains(errOut, "line 1: line longer than") {
		t.Errorf("err %v, stdout %q, stderr %q", err, out, errOut)
	}
}

func TestSolveUsage(t *testing.T) {
	_, _, err := runCmd(t, "", "solve", "--nope")
	if exitCode(err) != 2 {
		t.Errorf("unknown flag: %v (exit %d), want exit 2", err, exitCode(err))
	}
	_, errOut, err := runCmd(t, "", "solve", "--help")
	if err != nil || !strings.Contains(errOut, "usage: sudoku solve") {
		t.Errorf("--help: %v, %q", err, errOut)
	}
}

func TestSolveCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	err := run(ctx, []string{"solve"}, func(string) string { return "" }, strings.NewReader(strings.Repeat(easy+"\n", 5000)), &out, &errOut)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}
