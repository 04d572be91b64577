package fpuzzles

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/variant"
)

var update = flag.Bool("update", false, "rewrite testdata/read/*.want from what Read makes of the .json")

// TestReadFiles reads the hand-written f-puzzles files of testdata/read,
// one or more for each constraint, and expects the archive's written form
// in the .want beside each (title and author on the first line when set),
// then writes each back and reads it again to the same puzzle.
func TestReadFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/read/*.json")
	if len(files) < 15 {
		t.Fatalf("%d files", len(files))
	}
	seen := map[variant.Type]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Read(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		got := variant.Normal(p.Puzzle).Text() + "\n"
		if p.Title != "" || p.Author != "" {
			got = p.Title + " / " + p.Author + " / " + p.Ruleset + "\n" + got
		}
		want := strings.TrimSuffix(f, ".json") + ".want"
		if *update {
			if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w, err := os.ReadFile(want)
		if err != nil || string(w) != got {
			t.Errorf("%s:\n got %s\nwant %s", f, got, w)
		}
		out, err := Write(p)
		if err != nil {
			t.Fatalf("%s: write: %v", f, err)
		}
		if q, err := Read(out); err != nil || !same(q.Puzzle, p.Puzzle) {
			t.Errorf("%s: written %s reads back %v", f, out, err)
		}
		for _, r := range p.Rules {
			seen[r.Type] = true
		}
	}
	for _, ty := range variant.Types {
		if !seen[ty] {
			t.Errorf("no file of testdata/read has %s", ty)
		}
	}
}

// emptyGrid is nine rows of nine empty cells.
const emptyGrid = `[[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],` +
	`[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],` +
	`[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}]]`

// doc is an f-puzzles document of an empty grid with more fields.
func doc(fields string) []byte {
	if fields != "" {
		fields = "," + fields
	}
	return []byte(`{"size":9,"grid":` + emptyGrid + fields + `}`)
}

// TestReadErrors: each bad input is an *Error naming the constraint, the
// entry and the cell, and unsupported constraints say so.
func TestReadErrors(t *testing.T) {
	rowOf := func(cell string) string {
		return strings.Replace(emptyGrid, "[{},{},{},{},{},{},{},{},{}]", "[{},"+cell+",{},{},{},{},{},{},{}]", 1)
	}
	for _, tc := range []struct {
		in          []byte
		constraint  string
		entry       int
		cell        string
		unsupported bool
	}{
		{doc(`"clone":[{"cells":["R1C1"],"cloneCells":["R2C2"]}]`), "clone", 0, "", true},
		{doc(`"quadruple":[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[1]}]`), "quadruple", 0, "", true},
		{doc(`"cage":[{"cells":["R1C1"],"value":"note"}]`), "cage", 0, "", true},
		{doc(`"betweenline":[{"lines":[["R1C1","R1C2","R1C3"]]}]`), "betweenline", 0, "", true},
		{[]byte(`{"size":6,"grid":[]}`), "size", 0, "", true},
		{[]byte(`{"grid":` + emptyGrid + `}`), "size", 0, "", true},
		{doc(`"killercage":[{"cells":["R1C1"],"value":"1"},{"cells":["R1C10","R1C9"]}]`), "killercage", 2, "R1C10", false},
		{doc(`"killercage":[{"cells":["R1C1","X9"]}]`), "killercage", 1, "X9", false},
		{doc(`"killercage":[{"cells":["R1C1","R1C2"],"value":"3"},{"cells":["R1C2","R1C3"],"value":"5"}]`), "killercage", 2, "R1C2", false},
		{doc(`"killercage":[{"cells":["R1C1","R1C2"],"value":"2"}]`), "killercage", 1, "R1C1", false},
		{doc(`"killercage":[{"cells":["R1C1"],"value":"ten"}]`), "killercage", 1, "R1C1", false},
		{doc(`"killercage":{"cells":[]}`), "killercage", 0, "", false},
		{doc(`"thermometer":[{"lines":[["R1C1","R1C2"]]},{"lines":[["R5C5","R5C7"]]}]`), "thermometer", 2, "R5C7", false},
		{doc(`"renban":[{"lines":[["R1C1","R1C2","R1C1"]]}]`), "renban", 1, "R1C1", false},
		{doc(`"difference":[{"cells":["R1C1","R1C2"],"value":"3"}]`), "difference", 1, "R1C1", true},
		{doc(`"ratio":[{"cells":["R1C1","R2C2"]}]`), "ratio", 1, "R1C1", false},
		{doc(`"xv":[{"cells":["R1C1","R1C2"],"value":"Y"}]`), "xv", 1, "R1C1", true},
		{doc(`"negative":["difference"]`), "negative", 0, "", true},
		{doc(`"negative":["sum"]`), "negative", 0, "", true},
		{doc(`"extraregion":[{"cells":["R1C1","R1C2","R1C3","R2C1","R2C2","R2C3","R3C1","R3C2"]}]`), "extraregion", 1, "", false},
		{doc(`"extraregion":[{"cells":["R2C2","R2C3","R2C4","R3C2","R3C3","R3C4","R4C2","R4C3","R2C2"]}]`), "extraregion", 1, "R2C2", false},
		{doc(`"extraregion":[{"cells":["R1C1","R1C2","R1C3","R1C4","R1C5","R1C6","R1C7","R1C8","R1C10"]}]`), "extraregion", 1, "R1C10", false},
		{doc(`"arrow":[{"cells":["R1C1","R1C2","R1C3"],"lines":[["R1C1","R2C1"]]}]`), "arrow", 1, "R1C1", true},
		{doc(`"arrow":[{"cells":["R1C1"],"lines":[["R2C1","R3C1"]]}]`), "arrow", 1, "R2C1", false},
		{doc(`"arrow":[{"cells":["R1C1"]}]`), "arrow", 1, "R1C1", false},
		{doc(`"littlekillersum":[{"cell":"R1C1","direction":"DR","value":"10"}]`), "littlekillersum", 1, "R1C1", false},
		{doc(`"littlekillersum":[{"cell":"R0C1","direction":"UP","value":"10"}]`), "littlekillersum", 1, "R0C1", false},
		{doc(`"littlekillersum":[{"cell":"R0C9","direction":"DR","value":"10"}]`), "littlekillersum", 1, "R0C9", false},
		{doc(`"littlekillersum":[{"cell":"R0C1","direction":"DR","value":"99"}]`), "littlekillersum", 1, "R1C2", false},
		{doc(`"sandwichsum":[{"cell":"R5C5","value":"10"}]`), "sandwichsum", 1, "R5C5", false},
		{doc(`"sandwichsum":[{"cell":"R0C5","value":"1"}]`), "sandwichsum", 1, "", false},
		{doc(`"odd":[{"cell":"R1C1"}],"even":[{"cell":"R1C1"}]`), "even", 0, "R1C1", false},
		{doc(`"odd":[{"cell":"R0C1"}]`), "odd", 1, "R0C1", false},
		{[]byte(`{"size":9,"grid":` + rowOf(`{"value":10}`) + `}`), "grid", 0, "R1C2", false},
		{[]byte(`{"size":9,"grid":` + rowOf(`{"region":null}`) + `}`), "grid", 0, "R1C2", true},
		{[]byte(`{"size":9,"grid":` + rowOf(`{"region":4}`) + `}`), "grid", 0, "", false},
		{[]byte(`{"size":9,"grid":` + rowOf(`{"givenPencilMarks":[1,2]}`) + `}`), "grid", 0, "R1C2", true},
		{[]byte(`{"size":9,"grid":` + rowOf(`{"value":4}`) + `,"odd":[{"cell":"R1C2"}]}`), "grid", 0, "R1C2", false},
		{[]byte(`{"size":9,"grid":[[]]}`), "grid", 0, "", false},
		{[]byte(`[1,2]`), "", 0, "", false},
	} {
		_, err := Read(tc.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v, want an *Error", tc.in, err)
			continue
		}
		if e.Constraint != tc.constraint || e.Entry != tc.entry || e.Unsupported != tc.unsupported || tc.cell != "" && e.Cell != tc.cell {
			t.Errorf("%.200s:\n got %q entry %d cell %q unsupported %v (%v)\nwant %q entry %d cell %q unsupported %v",
				tc.in, e.Constraint, e.Entry, e.Cell, e.Unsupported, err, tc.constraint, tc.entry, tc.cell, tc.unsupported)
		}
		if !strings.Contains(err.Error(), tc.constraint) {
			t.Errorf("%v does not name %q", err, tc.constraint)
		}
	}
}

// TestErrorText: a message names f-puzzles places, not the rule list's.
func TestErrorText(t *testing.T) {
	_, err := Read(doc(`"diagonal+":true,"killercage":[{"cells":["R1C1","R1C2"],"value":"3"},{"cells":["R1C2","R1C3"],"value":"5"}]`))
	want := `f-puzzles "killercage" entry 2 at R1C2: overlaps "killercage" entry 1`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
