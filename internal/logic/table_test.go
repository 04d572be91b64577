package logic

import (
	"testing"
)

// TestTechniqueTable checks the exported table against the ladder: every
// technique once, findable by name in any case and by slug, with a
// family and a description.
func TestTechniqueTable(t *testing.T) {
	n := 0
	for _, r := range ladder {
		n += len(r.techniques)
	}
	ts := Techniques()
	if len(ts) != n {
		t.Fatalf("Techniques() has %d rows, the ladder %d", len(ts), n)
	}
	for i, tc := range ts {
		if tc.Rank != i || tc.Slug == "" || tc.Family == "" || tc.Grade <= 0 || tc.Top < tc.Grade {
			t.Errorf("row %d: %+v", i, tc)
		}
		if Describe(tc.Name) == "" {
			t.Errorf("%s has no description: add its sentence to descriptions in describe.go", tc.Name)
		}
		for _, key := range []string{tc.Name, tc.Slug, "  " + tc.Name + " ", upper(tc.Name)} {
			got, ok := TechniqueByName(key)
			if !ok || got.Name != tc.Name {
				t.Errorf("TechniqueByName(%q) = %q, %v; want %q", key, got.Name, ok, tc.Name)
			}
		}
	}
	if _, ok := TechniqueByName("Skyscrapers and more"); ok {
		t.Error("an unknown name was found")
	}
	for name, want := range map[string]string{
		"BUG+1": "bug-plus-1", "Dynamic Forcing Chains (+)": "dynamic-forcing-chains-plus",
		"X-Wing": "x-wing", "Unique Rectangle Type 1": "unique-rectangle-type-1", "XY-Wing": "xy-wing",
	} {
		if got := Slug(name); got != want {
			t.Errorf("Slug(%q) = %q, want %q", name, got, want)
		}
	}
	if got := Techniques()[0]; got.Name != FullHouse || got.Family != "singles" {
		t.Errorf("first technique %+v", got)
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// TestDescriptions checks that each technique has a description of its own:
// no two techniques share one (issue 46: the pages of 3 and 4 Strong Links,
// Unique Rectangle types 2 to 4 and BUG types 2 to 4 carried another
// technique's sentence), and no name outside the ladder has one.
func TestDescriptions(t *testing.T) {
	by := map[string]string{}
	for _, tc := range Techniques() {
		d := Describe(tc.Name)
		if other, dup := by[d]; dup {
			t.Errorf("%s and %s share the description %q", other, tc.Name, d)
		}
		by[d] = tc.Name
	}
	for name := range descriptions {
		if _, ok := TechniqueByName(name); !ok {
			t.Errorf("description of %q, which the ladder does not know", name)
		}
	}
}

// TestTechniquesByGrade checks the order of the lists of techniques: every
// technique once, easiest first by grade, the ladder's order among equals.
func TestTechniquesByGrade(t *testing.T) {
	ts := TechniquesByGrade()
	if len(ts) != len(Techniques()) {
		t.Fatalf("%d techniques by grade, %d in the ladder", len(ts), len(Techniques()))
	}
	seen := map[string]bool{}
	for i, tc := range ts {
		seen[tc.Name] = true
		if i == 0 {
			continue
		}
		if p := ts[i-1]; p.Grade > tc.Grade || p.Grade == tc.Grade && p.Rank > tc.Rank {
			t.Errorf("%s (%.1f, rung %d) before %s (%.1f, rung %d)", p.Name, p.Grade, p.Rank, tc.Name, tc.Grade, tc.Rank)
		}
	}
	if len(seen) != len(ts) {
		t.Errorf("%d distinct techniques of %d", len(seen), len(ts))
	}
}
