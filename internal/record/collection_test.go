package record

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCollectionCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Collection
		want string // "" for accepted
	}{
		{"plain", Collection{Name: "Pearls", Description: "two\nlines", Licence: "CC0"}, ""},
		{"trimmed", Collection{Name: "  Pearls \t"}, ""},
		{"no name", Collection{Name: " \n "}, `"name": a collection needs a name`},
		{"long name", Collection{Name: strings.Repeat("é", 101)}, `"name" has 101 characters: at most 100`},
		{"long source", Collection{Name: "x", Source: strings.Repeat("s", 2001)}, `"source" has 2001 characters: at most 2000`},
		{"line break in name", Collection{Name: "a\nb"}, `"name" has a line break or tab (U+000A) at position 2`},
		{"control in author", Collection{Name: "a", Author: "x\x00"}, `"author" has a NUL character (U+0000) at position 2`},
		{"bad UTF-8", Collection{Name: "a", Licence: "\xff"}, `"licence" is not valid UTF-8`},
		{"C1 control in name", Collection{Name: "a\u0085b"}, `"name" has a C1 control character (U+0085) at position 2`},
		{"right-to-left override in name", Collection{Name: "ab\u202ecd"}, `"name" has a bidirectional formatting character (U+202E) at position 3`},
		{"zero-width space in description", Collection{Name: "a", Description: "x\u200by"}, `"description" has a zero-width character (U+200B) at position 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			err := c.Check()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("error %v, want %q", err, tc.want)
			case tc.want != "" && KindOf(err) != KindInvalid:
				t.Fatalf("kind %v, want invalid", KindOf(err))
			case tc.want == "" && c.Name != strings.TrimSpace(tc.c.Name):
				t.Fatalf("name %q not trimmed", c.Name)
			}
		})
	}
	for _, err := range []error{ErrNoCollection("7"), ErrCollectionTaken("x"), ErrNotOwner(Collection{ID: 3})} {
		if _, ok := err.(ForUsers); !ok || KindOf(err) == KindInternal {
			t.Errorf("%v: not a classified error for users", err)
		}
	}
	if KindOf(ErrCollectionTaken("x")) != KindConflict || KindOf(ErrNotOwner(Collection{})) != KindForbidden || KindOf(ErrNoCollection("1")) != KindNotFound {
		t.Error("collection errors of the wrong kind")
	}
}

// FuzzCollectionCheck: Check never panics; what it accepts is trimmed,
// valid, within the limits, and accepted again unchanged.
func FuzzCollectionCheck(f *testing.F) {
	f.Add("Pearls", "a\nb", "Tarek", "forum", "CC BY 4.0")
	f.Add(" ", "", "", "", "")
	f.Add("a\x00", "\xff", "é", "\t", strings.Repeat("x", 2001))
	f.Fuzz(func(t *testing.T, name, desc, author, source, licence string) {
		c := Collection{Name: name, Description: desc, Author: author, Source: source, Licence: licence}
		if err := c.Check(); err != nil {
			if KindOf(err) != KindInvalid {
				t.Fatalf("refusal of kind %v: %v", KindOf(err), err)
			}
			return
		}
		if c.Name == "" || utf8.RuneCountInString(c.Name) > MaxCollectionName || !utf8.ValidString(c.Description) {
			t.Fatalf("accepted %+v", c)
		}
		again := c
		if err := again.Check(); err != nil || again != c {
			t.Fatalf("accepted once, then %v / %+v", err, again)
		}
	})
}
