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
	for _, want := range []string{`"cells":[]`, `"eliminations":[]`, `"placements":[{"cell":1,"digit":2}]`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "null") {
		t.Errorf("%s has a null", got)
	}
}
