package templates

import (
	"fmt"
	"strconv"
	"time"
)

// Duration formats a solve time given in nanoseconds in the unit a person
// reads best, with three significant digits: "850 ns", "57.9 µs", "1.07 ms",
// "19.7 ms", "1.23 s".
func Duration(ns int64) string {
	f := float64(ns)
	switch {
	case ns < 1_000:
		return strconv.FormatInt(ns, 10) + " ns"
	case ns < 1_000_000:
		return sig3(f/1e3) + " µs"
	case ns < 1_000_000_000:
		return sig3(f/1e6) + " ms"
	default:
		return sig3(f/1e9) + " s"
	}
}

// sig3 formats f (1 <= f < 1000, or larger for seconds) with three
// significant digits.
func sig3(f float64) string {
	switch {
	case f >= 99.95:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case f >= 9.995:
		return strconv.FormatFloat(f, 'f', 1, 64)
	default:
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
}

// Count formats n with thousands separators: 1234567 is "1,234,567".
func Count[T ~int | ~int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Plural returns "1 puzzle" or "3 puzzles": the count, formatted, with the
// singular or plural noun.
func Plural[T ~int | ~int64](n T, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(n) + " " + many
}

// Ago says how long before now t was, the way a person says it: "just now",
// "5 minutes ago", "yesterday", "12 days ago". Past a month it gives the date.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 0:
		return "just now" // clock skew between writer and reader
	case d < 45*time.Second:
		return "just now"
	case d < 90*time.Second:
		return "a minute ago"
	case d < time.Hour:
		return fmt.Sprintf("%d minutes ago", int(d.Round(time.Minute)/time.Minute))
	case d < 90*time.Minute:
		return "an hour ago"
	case d < 24*time.Hour:
		return fmt.Sprintf("%d hours ago", int(d.Round(time.Hour)/time.Hour))
	case d < 48*time.Hour:
		return "yesterday"
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
	default:
		return t.Format("2 Jan 2006")
	}
}

// Timestamp is the machine-readable form for a <time datetime> attribute.
func Timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// LongTime is the full UTC date and time, for a tooltip.
func LongTime(t time.Time) string { return t.UTC().Format("2 January 2006, 15:04:05 UTC") }
