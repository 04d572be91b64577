package logic

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStepJSONLists: a step's lists are arrays in JSON even when empty;
// before, a hint that only placed a digit had "eliminations": null while
// the explain path had [].
func TestStepJSONLists(t *testing.T) {
	b, err := json.Marshal(Step{Technique: "Naked Single", Grade: 2.3, Placements: []Candidate{{1, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{`"cells":[]`, `"eliminations":[]`, `"placements":[{"cell":1,"digit":2}]`, `"links":[]`, `"digits":[]`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "null") {
		t.Errorf("%s has a null", got)
	}
	chain := Step{Technique: XChain, Chain: []Node{{Candidate{0, 5}, false}, {Candidate{8, 5}, true}, {Candidate{80, 5}, false}}}
	b, err = json.Marshal(chain)
	if err != nil {
		t.Fatal(err)
	}
	want := `"links":[{"from":{"cell":0,"digit":5},"to":{"cell":8,"digit":5},"strong":true},{"from":{"cell":8,"digit":5},"to":{"cell":80,"digit":5},"strong":false}]`
	if !strings.Contains(string(b), want) {
		t.Errorf("%s lacks %s", b, want)
	}
}

// TestStepJSONBranches: a forcing chain that compares branches carries
// each branch (its assumption, conclusion and links) under "branches"; a
// step that is no such chain has no "branches" at all.
func TestStepJSONBranches(t *testing.T) {
	on := func(c, d int) Node { return Node{Candidate{c, d}, true} }
	off := func(c, d int) Node { return Node{Candidate{c, d}, false} }
	st := Step{Technique: CellForcingChain, Branches: 2, paths: [][]Node{
		{on(0, 1), off(1, 1), on(1, 2)},
		{on(0, 2), off(2, 2), on(1, 2)},
	}}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	want := `"branches":[{"assumption":{"cell":0,"digit":1,"on":true},"conclusion":{"cell":1,"digit":2,"on":true},"links":[{"from":{"cell":0,"digit":1},"to":{"cell":1,"digit":1},"strong":false},{"from":{"cell":1,"digit":1},"to":{"cell":1,"digit":2},"strong":true}]},{"assumption":{"cell":0,"digit":2,"on":true}`
	if !strings.Contains(string(b), want) {
		t.Errorf("%s lacks %s", b, want)
	}
	b, err = json.Marshal(Step{Technique: XChain, Chain: []Node{off(0, 5), on(8, 5)}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "branches") {
		t.Errorf("%s has branches", b)
	}
}
