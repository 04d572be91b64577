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
			t.Errorf("%s has no description: add its sentence to descriptions (or its family's, %s, to families) in describe.go", tc.Name, tc.Family)
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
