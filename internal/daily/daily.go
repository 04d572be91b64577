// Package daily is the policy of the puzzle of the day: which puzzle is a
// date's, when it is chosen, and what a reader gets before it is.
//
// Every date from First on has its own puzzle, generated from a seed
// derived from the date and a secret the archive made at its first start
// (SecretBytes random bytes in its settings, never in source or logs: so
// the same for every server of one archive, and known to nobody before
// its day), with the band rotating easy, medium, hard, fiendish. The day's
// puzzle is never one already archived: a candidate that is (somebody
// submitted it) gives way to the next attempt. A Keeper chooses
// yesterday's and today's puzzles in the background, and the new day's at
// midnight UTC: it generates each one, archives it and records it for its
// date (the archive keeps the first record of a date, so several servers
// on one archive agree). A day's puzzle is never archived before its day
// begins in UTC, so it is in no list, search or export early; reading such
// a date is a *NotYetError (404 saying when it opens). Readers only read
// (Read): a request never writes. A date of the window not chosen yet is a
// *NotChosenError, which a server with a running keeper (Expecting) waits
// out, and answers 503 with Retry-After only past its wait; an earlier
// date no keeper chose (no server ran then) is ErrNoDaily (404): it is not
// chosen after the fact, on a reader's request.
package daily

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/sudoku-archive/sudoku/internal/generate"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// First is the first date with a puzzle of the day.
var First = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// bands rotate with the day number. Extreme is left out: the puzzle of the
// day is for everyone.
var bands = []sudoku.Band{sudoku.BandEasy, sudoku.BandMedium, sudoku.BandHard, sudoku.BandFiendish}

// maxCandidates bounds a daily search by work, not time, so the outcome
// never depends on the machine; every band needs fewer than 50 candidates
// on average (BenchmarkGenerate).
const maxCandidates = 20_000

// MaxAttempts bounds the puzzles tried for one date that were the puzzle
// of another day already (one in 10^20 or so each).
const MaxAttempts = 8

// SecretBytes is the length of an archive's daily secret.
const SecretBytes = 32

// seed is the generator's seed of date's attempt under the archive's
// secret: an HMAC, so that knowing every other day's puzzle, and this
// source, tells nothing of the next one (issue 45: with the seed in the
// source, `sudoku generate --seed` printed tomorrow's puzzle).
func seed(secret []byte, date time.Time, attempt int) uint64 {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("sudoku puzzle of the day\x00" + Key(date) + "\x00" + strconv.Itoa(attempt)))
	return binary.BigEndian.Uint64(m.Sum(nil))
}

// Today is the current date in UTC: the puzzle of the day changes at
// midnight UTC for everyone.
func Today(now time.Time) time.Time { return now.UTC().Truncate(24 * time.Hour) }

// Key is how the archive names date: YYYY-MM-DD.
func Key(date time.Time) string { return date.Format(time.DateOnly) }

// day is the day number of date since First.
func day(date time.Time) int { return int(date.Sub(First).Hours() / 24) }

// Band is the band of date's puzzle.
func Band(date time.Time) sudoku.Band { return bands[day(date)%len(bands)] }

// Puzzle makes date's puzzle under the archive's secret (SecretBytes
// long): a pure function of the secret, the date and attempt (and
// sudoku.GeneratorVersion, and the engine's measures). Attempt 0 is the
// date's puzzle; a later attempt is used only when an earlier one was
// archived already (as a submission or another day's puzzle). When the
// band's candidate budget runs out (never seen), the next easier band is
// tried from the same seed, which is deterministic too.
func Puzzle(ctx context.Context, secret []byte, date time.Time, attempt int) (record.Puzzle, error) {
	if len(secret) < SecretBytes {
		return record.Puzzle{}, fmt.Errorf("puzzle of the day: the archive's secret is %d bytes, want %d", len(secret), SecretBytes)
	}
	d := day(date)
	seed := seed(secret, date, attempt)
	i := d % len(bands)
	for {
		p, _, err := generate.Generate(ctx, generate.Request{
			Target: generate.Target{Band: bands[i]}, Seed: seed, MaxCandidates: maxCandidates,
		})
		var miss *generate.MissError
		if errors.As(err, &miss) && i > 0 && ctx.Err() == nil {
			i--
			continue
		}
		return p, err
	}
}

// Window is the dates a keeper chooses at now: yesterday (the home page
// links it) and today, oldest first. A day's puzzle is archived only once
// its date has begun in UTC, so it is in no list, search or export before
// (issue 34); generating one takes well under a second (about 50 ms for a
// fiendish one on a laptop core), so the keeper chooses the new day's at midnight, and readers of it wait
// that long (web's dailyWait).
func Window(now time.Time) []time.Time {
	t := Today(now)
	var ds []time.Time
	for i := -1; i <= 0; i++ {
		if d := t.AddDate(0, 0, i); !d.Before(First) {
			ds = append(ds, d)
		}
	}
	return ds
}

// Future reports whether date has not begun in UTC at now: its puzzle is
// for nobody but moderators yet.
func Future(date, now time.Time) bool { return date.After(Today(now)) }

// NotYetError is a date whose day has not begun in UTC: its puzzle opens at
// midnight UTC (readers in time zones ahead of UTC wait until then).
type NotYetError struct {
	Date  string
	Opens time.Duration // from now to midnight UTC
}

func (e *NotYetError) Error() string {
	h, m := int(e.Opens.Hours()), int(e.Opens.Minutes())%60
	return fmt.Sprintf("the puzzle of the day for %s opens at 00:00 UTC, in %d h %02d min: %s", e.Date, h, m, Rule)
}

// Kind is record.KindNotFound: there is nothing to show yet.
func (e *NotYetError) Kind() record.Kind { return record.KindNotFound }

// ForUsers says the text is meant for users.
func (e *NotYetError) ForUsers() bool { return true }

// NotYet is the error of reading date at now when its day has not begun,
// nil otherwise.
func NotYet(date, now time.Time) error {
	if !Future(date, now) {
		return nil
	}
	return &NotYetError{Date: Key(date), Opens: date.Sub(now.UTC()).Round(time.Minute)}
}

// Rule is the one statement of which dates have a puzzle of the day, said
// alike by the 400 (ParseDate), both 404s (NotYetError, ErrNoDaily) and
// the docs (docs/api.md, README): a date's puzzle is chosen on its day, so
// a past date has one only if a server ran then (the keeper chooses
// yesterday's and today's), and a date to come has none yet.
var Rule = "puzzles of the day run from " + Key(First) + " to today (UTC): each opens at 00:00 UTC on its day, " +
	"and a date has one only if a server of this archive ran on it or on the day after"

// ParseDate reads a requested date, YYYY-MM-DD ("" is today's): a date
// before First or after tomorrow has no puzzle of the day. Both are
// *userinput.InputError, whose reason states Rule. Tomorrow is read (a reader
// ahead of UTC may ask for it, and it opens within the day), and Read
// answers it with a NotYetError, which states Rule too.
func ParseDate(name, v string, now time.Time) (time.Time, error) {
	if v == "" {
		return Today(now), nil
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return d, &userinput.InputError{Name: name, Value: v, Reason: "use YYYY-MM-DD"}
	}
	if d.Before(First) || d.After(Today(now).AddDate(0, 0, 1)) {
		return d, &userinput.InputError{Name: name, Value: v,
			Reason: "there is no puzzle of the day for that date: " + Rule}
	}
	return d, nil
}
