package fpuzzles

import (
	"os"
	"strings"
	"testing"
)

// TestWriteForms: the f-puzzles forms Write chooses, which f-puzzles and
// SudokuPad read: clues outside the grid, windows as extra regions, kropki
// negative as both kinds of dot, a pill's line from the cell it leaves.
func TestWriteForms(t *testing.T) {
	for file, wants := range map[string][]string{
		"littlekillersum": {`{"cell":"R0C3","direction":"DR","value":"20","cells":["R1C4","R2C5","R3C6","R4C7","R5C8","R6C9"]}`, `{"cell":"R10C1","direction":"UR","value":"45"`},
		"sandwichsum":     {`{"cell":"R5C0","value":"35"}`, `{"cell":"R0C9","value":"10"}`, `{"cell":"R0C1","value":"0"}`},
		"windoku":         {`"extraregion":[{"cells":["R2C2","R2C3","R2C4","R3C2"`},
		"kropki":          {`"negative":["ratio","difference"]`, `"difference":[{"cells":["R1C1","R1C2"]}`},
		"xv":              {`"negative":["xv"]`, `{"cells":["R1C1","R1C2"],"value":"X"}`},
		"arrow":           {`{"cells":["R5C4","R5C5"],"lines":[["R5C5","R6C6","R7C7","R8C8"]]}`, `{"cells":["R9C2","R9C1"],"lines":[["R9C1","R8C1","R7C1"]]}`},
		"jigsaw":          {`[{"region":0},{"region":0},{"region":0},{"region":0},{"region":1}`},
		"classic":         {`"title":"Classic","author":"Setter"`, `{"value":5,"given":true}`},
		"killercage":      {`{"cells":["R1C1","R1C2"],"value":"3"}`, `{"cells":["R2C1","R2C2","R3C1"]}`},
	} {
		b, err := os.ReadFile("testdata/read/" + file + ".json")
		if err != nil {
			t.Fatal(err)
		}
		p, err := Read(b)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Write(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: %s\nlacks %s", file, out, w)
			}
		}
	}
}

// TestLimits: Read refuses JSON over MaxJSON; Write refuses a puzzle that
// is not valid.
func TestLimits(t *testing.T) {
	big := doc(`"title":"` + strings.Repeat("x", MaxJSON) + `"`)
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("oversized JSON: %v", err)
	}
	p, err := Read(doc(`"killercage":[{"cells":["R1C1","R1C2"],"value":"3"}]`))
	if err != nil {
		t.Fatal(err)
	}
	p.Rules[0].Cells = append(p.Rules[0].Cells, 40) // 3 is impossible for three cells
	if _, err := Write(p); err == nil {
		t.Error("Write accepted a cage of three cells totalling 3")
	}
}
