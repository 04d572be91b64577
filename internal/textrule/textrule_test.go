package textrule

import (
	"errors"
	"strings"
	"testing"
)

// TestCheck walks the rule's cases: what is text passes, what is not is
// refused with the field's name and the character.
func TestCheck(t *testing.T) {
	line := Rule{MaxRunes: 10}
	lines := Rule{MaxRunes: 10, Lines: true}
	for _, tc := range []struct {
		s    string
		r    Rule
		want string // "" passes; else a part of the message
	}{
		{"Émile", line, ""},
		{"two\nlines", lines, ""},
		{"two\nlines", line, "line break"},
		{"a\x00b", lines, "NUL"},
		{"a\x07b", lines, "control character"},
		{"a\u0085b", lines, "C1 control"},
		{"a\u009fb", line, "C1 control"},
		{"a\u202eb", line, "bidirectional"},
		{"a\u2067b", line, "bidirectional"},
		{"a\u200bb", line, "zero-width character"},
		{"\ufeffab", line, "zero-width character"},
		{"می\u200cخواهم", line, ""}, // Persian's ZWNJ inside a word
		{"a\u200d", line, "zero-width joiner"},
		{"\u200ca", line, "zero-width joiner"},
		{"a \u200d b", line, "zero-width joiner"},
		{"\xff", line, "UTF-8"},
		{strings.Repeat("a", 11), line, "11 characters"},
		{strings.Repeat("é", 10), Rule{MaxRunes: 10, MaxBytes: 12}, "20 bytes"},
	} {
		err := Check("name", tc.s, tc.r)
		var e *Error
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%q) = %v, want nil", tc.s, err)
		case tc.want != "" && (!errors.As(err, &e) || e.Field != "name" || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Check(%q) = %v, want an error about %q", tc.s, err, tc.want)
		}
	}
}
