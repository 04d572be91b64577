package userinput

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseGrade(t *testing.T) {
	for _, ok := range []struct {
		in   string
		want float64
	}{{"1", 1}, {"7.2", 7.2}, {"12", 12}, {" 8.5 ", 8.5}, {"01.5", 1.5}} {
		if got, err := ParseGrade("g", ok.in); err != nil || got != ok.want {
			t.Errorf("ParseGrade(%q) = %v, %v", ok.in, got, err)
		}
	}
	for _, bad := range []string{"", "NaN", "nan", "Inf", "+Inf", "-inf", "infinity", "1e1", "0x8", "0x1p3", "+7", "-7", "7.", ".5", "0.9", "12.01", "1_0", "7,2"} {
		_, err := ParseGrade("g", bad)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), GradeScale) {
			t.Errorf("ParseGrade(%q): %v", bad, err)
		}
	}
}

func TestParseGradeRange(t *testing.T) {
	if r, err := ParseGradeRange("--grade", "7-8.5"); err != nil || r != (GradeRange{7, 8.5}) {
		t.Errorf("7-8.5: %+v %v", r, err)
	}
	if r, err := ParseGradeRange("--grade", "7.2"); err != nil || r != (GradeRange{7.2, 7.2}) {
		t.Errorf("7.2: %+v %v", r, err)
	}
	for _, bad := range []string{"nan-8", "NaN", "2-inf", "8-7", "-", "1-2-3", "0-2", "3-13"} {
		if r, err := ParseGradeRange("--grade", bad); err == nil {
			t.Errorf("%q: %+v, want an error", bad, r)
		}
	}
}

func TestParseID(t *testing.T) {
	if n, err := ParseID("id", "12"); err != nil || n != 12 {
		t.Errorf("12: %d %v", n, err)
	}
	for _, bad := range []string{"", "0", "+1", "01", "-1", " 1", "1 ", "1.0", "0x1", "99999999999999999999", "١"} {
		if n, err := ParseID("id", bad); err == nil {
			t.Errorf("%q: %d, want an error", bad, n)
		}
	}
	if n, err := ParseWhole("limit", "0", 0, 5); err != nil || n != 0 {
		t.Errorf("ParseWhole 0: %d %v", n, err)
	}
}

func TestEchoCuts(t *testing.T) {
	if got := Echo(strings.Repeat("é", 100)); len([]rune(got)) != MaxEcho+3 || !strings.HasSuffix(got, "…\"") {
		t.Errorf("Echo of 100 runes: %q", got)
	}
	if got := Echo("ab\xff"); got != `"ab\ufffd"` && got != `"ab�"` {
		t.Errorf("Echo of invalid UTF-8: %q", got)
	}
}

// FuzzParseGrade: whatever the text, a grade read is a finite number on
// the scale, and a refusal says so in words.
func FuzzParseGrade(f *testing.F) {
	for _, s := range []string{"7.2", "NaN", "Inf", "1e1", "0x8", "12", "1-2", "+7", "7."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseGrade("g", s)
		if err == nil && (math.IsNaN(x) || math.IsInf(x, 0) || x < LowestGrade || x > HighestGrade) {
			t.Fatalf("ParseGrade(%q) = %v", s, x)
		}
		if err != nil && !strings.Contains(err.Error(), "invalid g") {
			t.Fatalf("ParseGrade(%q): %v", s, err)
		}
		r, err := ParseGradeRange("g", s)
		if err == nil && (CheckGrade(r.Min) != "" || CheckGrade(r.Max) != "" || r.Min > r.Max) {
			t.Fatalf("ParseGradeRange(%q) = %+v", s, r)
		}
	})
}
