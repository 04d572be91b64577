package account

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
	"unicode"
)

// An Imported is one line of `sudoku attempts import` (docs/ratings.md
// "Attempts import"): a finished attempt played elsewhere.
type Imported struct {
	Player  string    // the player's name (account.CheckName's rules)
	Puzzle  string    // the puzzle's 81 cells, as archived puzzles are read
	Seconds int64     // 0..MaxSeconds
	Outcome Outcome   // solved or gave_up
	Hints   int64     // 0..MaxCount
	At      time.Time // when it finished
}

// ErrBadImport: a line of an attempts import that cannot be recorded.
var ErrBadImport = errors.New("invalid attempt")

// MaxImportLine is the longest line ParseImported reads (a line of the
// format docs/ratings.md gives is under 300 bytes).
const MaxImportLine = 4096

// importLine is the JSON form of a line; pointers tell a missing field
// from a zero one.
type importLine struct {
	Player  *string  `json:"player"`
	Puzzle  *string  `json:"puzzle"`
	Seconds *float64 `json:"seconds"`
	Outcome *string  `json:"outcome"`
	Hints   *int64   `json:"hints"`
	At      *string  `json:"at"`
}

// ParseImported reads one line of an attempts import: one JSON object with
// player, puzzle, seconds, outcome, at (and hints, 0 when missing), no
// other field and none twice. seconds may have a fraction, rounded to the
// nearest second as the finish API rounds active_seconds. The puzzle's text is only checked to be 81 characters here;
// the caller parses it as a puzzle. Errors wrap ErrBadImport and say what
// is wrong.
func ParseImported(line []byte) (Imported, error) {
	var im Imported
	if len(line) > MaxImportLine {
		return im, fmt.Errorf("%w: the line is longer than %d bytes", ErrBadImport, MaxImportLine)
	}
	if err := repeatedKey(line); err != nil {
		return im, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var l importLine
	if err := dec.Decode(&l); err != nil {
		return im, fmt.Errorf("%w: not a JSON object of the attempt fields: %v", ErrBadImport, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return im, fmt.Errorf("%w: more than one JSON value on the line", ErrBadImport)
	}
	for _, f := range []struct {
		name    string
		missing bool
	}{{"player", l.Player == nil}, {"puzzle", l.Puzzle == nil}, {"seconds", l.Seconds == nil}, {"outcome", l.Outcome == nil}, {"at", l.At == nil}} {
		if f.missing {
			return im, fmt.Errorf("%w: %q is missing", ErrBadImport, f.name)
		}
	}
	if err := CheckName(*l.Player); err != nil {
		return im, fmt.Errorf("%w: player %q: %v", ErrBadImport, clip(*l.Player), err)
	}
	if n := len(*l.Puzzle); n != 81 {
		return im, fmt.Errorf("%w: puzzle has %d characters, want 81", ErrBadImport, n)
	}
	if secs := *l.Seconds; math.IsNaN(secs) || secs < 0 || secs > MaxSeconds {
		return im, fmt.Errorf("%w: seconds %v is outside 0..%d", ErrBadImport, secs, MaxSeconds)
	}
	o := Outcome(*l.Outcome)
	if o != OutcomeSolved && o != OutcomeGaveUp {
		return im, fmt.Errorf("%w: outcome %q: use \"solved\" or \"gave_up\"", ErrBadImport, clip(*l.Outcome))
	}
	var hints int64
	if l.Hints != nil {
		hints = *l.Hints
	}
	if hints < 0 || hints > MaxCount {
		return im, fmt.Errorf("%w: hints %d is outside 0..%d", ErrBadImport, hints, MaxCount)
	}
	at, err := time.Parse(time.RFC3339, *l.At)
	if err != nil {
		return im, fmt.Errorf("%w: at %q is not an RFC 3339 time (like 2026-11-26T01:02:03Z)", ErrBadImport, clip(*l.At))
	}
	return Imported{Player: *l.Player, Puzzle: *l.Puzzle, Seconds: int64(math.Round(*l.Seconds)), Outcome: o, Hints: hints, At: at.UTC()}, nil
}

// repeatedKey fails when the line's JSON object names a key twice, in any
// case: the decoder would keep the last, and it matches keys to fields
// case-insensitively (`"player"` twice, or `"player"` then `"Player"`,
// recorded the attempt for the second name). A line that is not an object
// is left to the decoder.
func repeatedKey(line []byte) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	seen := map[string]string{} // folded key -> the key as first written
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		switch first, ok := seen[foldKey(key)]; {
		case ok && first == key:
			return fmt.Errorf("%w: the key %q appears twice", ErrBadImport, clip(key))
		case ok:
			return fmt.Errorf("%w: the key %q repeats %q (keys are the same in any case)", ErrBadImport, clip(key), clip(first))
		}
		seen[foldKey(key)] = key
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}

// foldKey is key with each character replaced by the least of its
// Unicode simple case folding orbit: two keys encoding/json matches to
// one field (bytes.EqualFold: "player", "PLAYER", "ſ" for "s", "K" the
// Kelvin sign for "k") fold to one string.
func foldKey(key string) string {
	b := make([]rune, 0, len(key))
	for _, r := range key {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b = append(b, least)
	}
	return string(b)
}

// clip shortens s for a message: 32 characters, then "…".
func clip(s string) string {
	r := []rune(s)
	if len(r) > 32 {
		return string(r[:32]) + "…"
	}
	return s
}
