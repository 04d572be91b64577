package moderation

import (
	"errors"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

func TestParseReason(t *testing.T) {
	for _, r := range Reasons {
		if got, err := ParseReason(string(r)); err != nil || got != r {
			t.Errorf("ParseReason(%q) = %q, %v", r, got, err)
		}
	}
	for _, s := range []string{"", "Wrong", "spam", " wrong"} {
		if _, err := ParseReason(s); record.KindOf(err) != record.KindInvalid {
			t.Errorf("ParseReason(%q): %v, want KindInvalid", s, err)
		}
	}
}

func TestCheckText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" for accepted, else a part of the error
	}{
		{"", ""},
		{"r1\nr2\tr3", ""},
		{strings.Repeat("é", 10), ""},
		{strings.Repeat("é", 11), "has 11 characters: at most 10"},
		{"bell\a", "a control character (U+0007) at position 5"},
		{"\xff", "not valid UTF-8"},
	} {
		err := CheckText("text", tc.in, 10)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckText(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestCheckReason(t *testing.T) {
	if got, err := CheckReason("  spam \n"); err != nil || got != "spam" {
		t.Errorf("CheckReason trims: %q, %v", got, err)
	}
	if _, err := CheckReason(" \t"); err == nil || !strings.Contains(err.Error(), "required") {
		t.Errorf("CheckReason of blanks: %v", err)
	}
	if _, err := CheckReason(strings.Repeat("x", MaxReason+1)); err == nil {
		t.Error("CheckReason took a reason over MaxReason")
	}
}

// TestErrorKinds: the conflicts answer 409, their texts are for users.
func TestErrorKinds(t *testing.T) {
	for _, err := range []error{ErrFlagged, ErrAlreadyHidden, ErrNotHidden, ErrNoOpenFlags, &HiddenError{PuzzleID: 3, Reason: "x"}} {
		var fu record.ForUsers
		if record.KindOf(err) != record.KindConflict || !errors.As(err, &fu) {
			t.Errorf("%v: kind %v", err, record.KindOf(err))
		}
	}
	if !IsHidden(&HiddenError{}) || IsHidden(ErrFlagged) {
		t.Error("IsHidden")
	}
}

func TestHiddenSetOf(t *testing.T) {
	g, err := sudoku.Parse("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
	if err != nil {
		t.Fatal(err)
	}
	p, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &HiddenError{PuzzleID: 1, Reason: "x"}
	if (HiddenSet{string(p.Canonical.Key()): h}).Of(&p) != h || (HiddenSet{string(p.Givens.Key()): h}).Of(&p) != h {
		t.Error("Of misses a hidden class")
	}
	if (HiddenSet{"other": h}).Of(&p) != nil || HiddenSet(nil).Of(&p) != nil {
		t.Error("Of finds a class that is not hidden")
	}
}
