package account

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const importPuzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

// TestParseImported: a good line in full, hints optional, and each kind of
// bad line refused with what is wrong.
func TestParseImported(t *testing.T) {
	good := `{"player": "ann", "puzzle": "` + importPuzzle + `", "seconds": 300, "outcome": "solved", "hints": 2, "at": "2026-01-02T10:00:00+01:00"}`
	im, err := ParseImported([]byte(good))
	want := Imported{Player: "ann", Puzzle: importPuzzle, Seconds: 300, Outcome: OutcomeSolved, Hints: 2, At: time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)}
	if err != nil || im != want {
		t.Fatalf("ParseImported = %+v, %v; want %+v", im, err, want)
	}
	if im, err := ParseImported([]byte(strings.Replace(good, `"hints": 2, `, "", 1))); err != nil || im.Hints != 0 {
		t.Errorf("without hints: %+v, %v", im, err)
	}
	// Fractional seconds, rounded as the finish API rounds active_seconds.
	for secs, want := range map[string]int64{"612.3": 612, "612.5": 613, "0.4": 0, "1e2": 100} {
		if im, err := ParseImported([]byte(strings.Replace(good, `300`, secs, 1))); err != nil || im.Seconds != want {
			t.Errorf("seconds %s: %+v, %v; want %d", secs, im, err, want)
		}
	}
	for _, tc := range []struct{ line, want string }{
		{`not json`, "not a JSON object"},
		{`[1, 2]`, "not a JSON object"},
		{good + ` {}`, "more than one JSON value"},
		{strings.Replace(good, `"hints"`, `"hint"`, 1), `unknown field "hint"`},
		{strings.Replace(good, `"player": "ann", `, "", 1), `"player" is missing`},
		{strings.Replace(good, `"at": "2026-01-02T10:00:00+01:00"`, `"at": "2026-01-02"`, 1), "not an RFC 3339 time"},
		{strings.Replace(good, `"ann"`, `"a b"`, 1), `player "a b"`},
		{strings.Replace(good, importPuzzle, importPuzzle[:80], 1), "80 characters, want 81"},
		{strings.Replace(good, `300`, `-1`, 1), "seconds -1 is outside"},
		{strings.Replace(good, `300`, `"NaN"`, 1), "not a JSON object"},
		{strings.Replace(good, `"ann"`, `"ann", "player": "admin"`, 1), `the key "player" appears twice`},
		{strings.Replace(good, `"hints": 2`, `"hints": 2, "hints": 3`, 1), `the key "hints" appears twice`},
		{strings.Replace(good, `"ann"`, `"ann", "Player": "admin"`, 1), `the key "Player" repeats "player"`},
		{strings.Replace(good, `"hints": 2`, `"hints": 2, "HINTS": 3`, 1), `the key "HINTS" repeats "hints"`},
		{strings.Replace(good, `"seconds": 300`, `"seconds": 300, "\u017Feconds": 3`, 1), `the key "ſeconds" repeats "seconds"`},
		{strings.Replace(good, `"solved"`, `"open"`, 1), `outcome "open"`},
		{strings.Replace(good, `"hints": 2`, `"hints": 100001`, 1), "hints 100001 is outside"},
		{strings.Repeat(" ", MaxImportLine+1), "longer than"},
	} {
		_, err := ParseImported([]byte(tc.line))
		if !errors.Is(err, ErrBadImport) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseImported(%.60q) = %v, want ErrBadImport saying %q", tc.line, err, tc.want)
		}
	}
}

// FuzzParseImported: any line parses or is refused with ErrBadImport, and
// what parses keeps the rules (a valid name, 81 characters, seconds and
// hints in range, a known outcome, a UTC time).
func FuzzParseImported(f *testing.F) {
	f.Add(`{"player": "ann", "puzzle": "` + importPuzzle + `", "seconds": 300, "outcome": "solved", "hints": 2, "at": "2026-01-02T10:00:00Z"}`)
	f.Add(`{"player": "bob", "puzzle": "` + importPuzzle + `", "seconds": 0, "outcome": "gave_up", "at": "2026-01-02T10:00:00.5-07:00"}`)
	f.Add(`{}`)
	f.Add(`{"player": null}`)
	f.Fuzz(func(t *testing.T, line string) {
		im, err := ParseImported([]byte(line))
		if err != nil {
			if !errors.Is(err, ErrBadImport) {
				t.Fatalf("error %v is not ErrBadImport", err)
			}
			return
		}
		if CheckName(im.Player) != nil || len(im.Puzzle) != 81 || im.Seconds < 0 || im.Seconds > MaxSeconds ||
			im.Hints < 0 || im.Hints > MaxCount || (im.Outcome != OutcomeSolved && im.Outcome != OutcomeGaveUp) || im.At.Location() != time.UTC {
			t.Fatalf("accepted %+v from %q", im, line)
		}
	})
}
