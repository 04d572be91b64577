package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
)

func TestExportCommand(t *testing.T) { eachArchive(t, testExportCommand) }

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
	t.Run("filters", func(t *testing.T) { testExportFilters(t, db) })
}

// exportRow is what testExportFilters reads of a JSON export's row.
type exportRow struct {
	ID         int64    `json:"id"`
	Puzzle     string   `json:"puzzle"`
	Unique     bool     `json:"unique"`
	Band       string   `json:"band"`
	Grade      *float64 `json:"grade"`
	Techniques []string `json:"techniques"`
	SameAs     *int64   `json:"same_as"`
}

// testExportFilters: export's filters (GET /api/export's that need no
// player) keep exactly the rows whose own figures, as the unfiltered
// export writes them, pass; bad values exit 2 saying what and where.
// It runs on the archive testExportCommand filled, with more puzzles.
func testExportFilters(t *testing.T, db string) {
	more := []string{
		".................1....23.4.........5..2..6.3...71.........37.6..5...8...91.......", // 2.8, Direct Hidden Pair
		".................1..2..3..4.....256..14.7.....8...........8.......1...5...3..9.2.", // 3.0, Direct Hidden Pair
		".................1....23.4.........5..6.......74..28.......62..5..1.....91.....8.", // 2.8, no Direct Hidden Pair
		".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...", // 2.6
		"1" + strings.Repeat(".", 80), // several solutions
	}
	more = append(more, transpose(more[0])) // the same puzzle, another entry
	if _, _, err := runCmd(t, strings.Join(more, "\n")+"\n", "import", "--db", db, "-"); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "export", "--db", db, "--format", "json", "--sort", "submitted", "--order", "asc")
	if err != nil {
		t.Fatal(err)
	}
	var all []exportRow
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r exportRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v in %s", err, line)
		}
		all = append(all, r)
	}
	graded := func(r exportRow, lo, hi float64) bool { return r.Grade != nil && *r.Grade >= lo && *r.Grade <= hi }
	for _, tc := range []struct {
		args []string
		keep func(exportRow) bool
	}{
		{[]string{"--technique", "direct hidden PAIR"}, func(r exportRow) bool { return slices.Contains(r.Techniques, "Direct Hidden Pair") }},
		{[]string{"--technique", "direct-hidden-pair", "--technique", "Pointing", "--technique", "pointing"}, func(r exportRow) bool {
			return slices.Contains(r.Techniques, "Direct Hidden Pair") && slices.Contains(r.Techniques, "Pointing")
		}},
		{[]string{"--band", "medium"}, func(r exportRow) bool { return r.Band == "medium" }},
		{[]string{"--grade-min", "2.7", "--grade-max", "3.3"}, func(r exportRow) bool { return graded(r, 2.7, 3.3) }},
		{[]string{"--grade-min", "2.7"}, func(r exportRow) bool { return graded(r, 2.7, 99) }},
		{[]string{"--unique"}, func(r exportRow) bool { return r.Unique }},
		{[]string{"--distinct"}, func(r exportRow) bool { return r.SameAs == nil }},
		{[]string{"--band", "medium", "--grade-max", "2.9", "--technique", "direct-hidden-pair", "--unique", "--distinct"}, func(r exportRow) bool {
			return r.Band == "medium" && graded(r, 1, 2.9) && slices.Contains(r.Techniques, "Direct Hidden Pair") && r.Unique && r.SameAs == nil
		}},
	} {
		var want []string
		for _, r := range all {
			if tc.keep(r) {
				want = append(want, r.Puzzle)
			}
		}
		if len(want) == 0 || len(want) == len(all) {
			t.Fatalf("%v keeps %d of %d rows: a poor test", tc.args, len(want), len(all))
		}
		out, _, err := runCmd(t, "", append([]string{"export", "--db", db, "--sort", "submitted", "--order", "asc"}, tc.args...)...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := strings.Fields(out); !slices.Equal(got, want) {
			t.Errorf("%v exports\n%v\nwant\n%v", tc.args, got, want)
		}
	}
	testExportFilterErrors(t, db)
}

// testExportFilterErrors: a bad filter value exits 2 with a message that
// names the flag and what it takes, and writes nothing.
func testExportFilterErrors(t *testing.T, db string) {
	for _, tc := range []struct {
		args []string
		want []string // in the error
	}{
		{[]string{"--technique", "Skyscraper Tower"}, []string{"--technique", "Skyscraper Tower", "X-Wing", "Full House"}},
		{[]string{"--technique", "pointing", "--technique", ""}, nil}, // an empty one is no filter: not an error
		{[]string{"--grade-min", "NaN"}, []string{"--grade-min", "NaN is not a number"}},
		{[]string{"--grade-max", "Inf"}, []string{"--grade-max", "infinity"}},
		{[]string{"--grade-max", "1e1"}, []string{"--grade-max", "not a decimal number"}},
		{[]string{"--grade-min", "13"}, []string{"--grade-min", "out of range"}},
		{[]string{"--grade-min", "5", "--grade-max", "4.5"}, []string{"--grade-min 5.0 is above --grade-max 4.5"}},
		{[]string{"--band", "rock"}, []string{"--band", "rock", "fiendish"}},
	} {
		out, _, err := runCmd(t, "", append([]string{"export", "--db", db}, tc.args...)...)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%v: %v", tc.args, err)
			}
			continue
		}
		if code := exitCode(err); code != 2 || out != "" {
			t.Errorf("%v: exit %d (%v), %d bytes out; want exit 2 and nothing", tc.args, code, err, len(out))
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q does not say %q", tc.args, err, w)
			}
		}
	}
}

// transpose writes a puzzle the other way round: the same puzzle (the
// canonical form decides), another entry.
func transpose(p string) string {
	b := make([]byte, 81)
	for r := range 9 {
		for c := range 9 {
			b[r*9+c] = p[c*9+r]
		}
	}
	return string(b)
}

// TestExportHelpSorts: `sudoku export --help` offers every sort the export
// takes (its list had drifted: grade was missing).
func TestExportHelpSorts(t *testing.T) {
	_, errOut, err := runCmd(t, "", "export", "--help")
	if err != nil {
		t.Fatalf("--help: %v", err)
	}
	for _, s := range record.Sorts {
		if !strings.Contains(errOut, string(s)) {
			t.Errorf("export --help does not offer --sort %s:\n%s", s, errOut)
		}
	}
}
