package userinput

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is the one reader of numbers typed by users: query parameters,
// form fields and command-line flags all go through it, so every one of
// them refuses NaN, infinities, signs, leading zeros and values out of
// range the same way, with the same words (the web answers an *InputError
// 400, the command exits 2).

// The grade scale accepted wherever a user gives a grade (a listing's
// filter, a generator's target): Sudoku Explainer's scale runs from 1.0 (a
// full house) past the logical solver's floor (9.5) to about 12 for the
// hardest known puzzles.
const (
	LowestGrade  = 1.0
	HighestGrade = 12.0
)

// GradeScale says what grades are accepted, in every message about one.
var GradeScale = fmt.Sprintf("grades run from %.1f to %.1f, like 7.2", LowestGrade, HighestGrade)

// MaxEcho is how many characters of a refused value a message repeats;
// longer values are cut, with an ellipsis.
const MaxEcho = 32

// Echo quotes v for an error message, cut to MaxEcho characters.
func Echo(v string) string {
	v = strings.ToValidUTF8(v, "\uFFFD")
	if utf8.RuneCountInString(v) > MaxEcho {
		v = string([]rune(v)[:MaxEcho]) + "…"
	}
	return strconv.Quote(v)
}

// InputError is a value from a user that is not what it must be: which
// value (Name, as the user wrote it: "grade_min", "--grade"), what it was,
// and what to give instead.
type InputError struct {
	Name   string
	Value  string
	Reason string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("invalid %s %s: %s", e.Name, Echo(e.Value), e.Reason)
}

// ParseID reads the id of an archived puzzle: a canonical decimal number
// from 1 (digits only: no sign, no leading zero, no spaces).
func ParseID(name, v string) (int64, error) {
	n, ok := canonicalUint(v)
	if !ok || n < 1 {
		return 0, &InputError{name, v, "use the id of an archived puzzle (a whole number from 1, digits only)"}
	}
	return n, nil
}

// ParseWhole reads a whole number from lo to hi, in canonical decimal.
func ParseWhole(name, v string, lo, hi int64) (int64, error) {
	n, ok := canonicalUint(v)
	if !ok || n < lo || n > hi {
		return 0, &InputError{name, v, fmt.Sprintf("use a whole number from %d to %d", lo, hi)}
	}
	return n, nil
}

// canonicalUint reads v as a decimal number written the one way: digits
// only, no leading zero (but "0" itself), within int64.
func canonicalUint(v string) (int64, bool) {
	if v == "" || len(v) > 19 || len(v) > 1 && v[0] == '0' {
		return 0, false
	}
	for i := range len(v) {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// ParseGrade reads one grade: a decimal number ("7", "7.2") on the scale
// LowestGrade to HighestGrade. NaN, infinities, exponents, hexadecimal and
// signs are refused, each with its reason.
func ParseGrade(name, v string) (float64, error) {
	x, reason := grade(strings.TrimSpace(v))
	if reason != "" {
		return 0, &InputError{name, v, reason}
	}
	return x, nil
}

// grade parses one grade, or says why it is none.
func grade(v string) (float64, string) {
	x, err := strconv.ParseFloat(v, 64)
	switch {
	case err == nil && math.IsNaN(x):
		return 0, "NaN is not a number: " + GradeScale
	case err == nil && math.IsInf(x, 0):
		return 0, "an infinity is no grade: " + GradeScale
	case err != nil || !plainDecimal(v):
		return 0, "not a decimal number: " + GradeScale
	}
	if err := CheckGrade(x); err != "" {
		return 0, err
	}
	return x, ""
}

// CheckGrade says what is wrong with a grade that came as a number (in
// JSON, say), or "" when it is on the scale.
func CheckGrade(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN is not a number: " + GradeScale
	case math.IsInf(x, 0):
		return "an infinity is no grade: " + GradeScale
	case x < LowestGrade || x > HighestGrade:
		return "out of range: " + GradeScale
	}
	return ""
}

// plainDecimal reports whether v is digits with at most one decimal point
// between digits: "7", "7.25", not "+7", "7.", "1e1" or "0x7".
func plainDecimal(v string) bool {
	intPart, frac, dot := strings.Cut(v, ".")
	digits := func(s string) bool {
		if s == "" {
			return false
		}
		for i := range len(s) {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	return digits(intPart) && (!dot || digits(frac))
}

// GradeRange is a range of grades, bounds included.
type GradeRange struct{ Min, Max float64 }

// ParseGradeRange reads "MIN-MAX" ("7-8.5"), or one grade "7.2" meaning
// exactly that grade; each bound as ParseGrade reads it, MIN not above MAX.
func ParseGradeRange(name, v string) (GradeRange, error) {
	lo, hi, found := strings.Cut(strings.TrimSpace(v), "-")
	if !found {
		hi = lo
	}
	var r GradeRange
	var reason string
	if r.Min, reason = grade(strings.TrimSpace(lo)); reason == "" {
		r.Max, reason = grade(strings.TrimSpace(hi))
	}
	switch {
	case reason != "":
		return GradeRange{}, &InputError{name, v, "use MIN-MAX, e.g. 7.0-8.5 (" + reason + ")"}
	case r.Min > r.Max:
		return GradeRange{}, &InputError{name, v, "the minimum is above the maximum"}
	}
	return r, nil
}

// Tenths returns a grade in tenths (72 for 7.2), as the archive keeps it.
func Tenths(grade float64) int64 { return int64(math.Round(grade * 10)) }

// ParseRate reads a rate or other quantity that may have a fraction: a
// finite decimal number from 0 ("10", "0.5"; no NaN, infinity, sign or
// exponent).
func ParseRate(name, v string) (float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	switch {
	case err == nil && math.IsNaN(x):
		return 0, &InputError{name, v, "NaN is not a number: use a decimal number from 0, like 10 or 0.5"}
	case err == nil && math.IsInf(x, 0):
		return 0, &InputError{name, v, "use a finite decimal number from 0, like 10 or 0.5"}
	case err != nil || !plainDecimal(v):
		return 0, &InputError{name, v, "use a decimal number from 0, like 10 or 0.5"}
	}
	return x, nil
}
