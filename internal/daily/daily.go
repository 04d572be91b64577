// Package daily is the policy of the puzzle of the day: which puzzle is a
// date's, when it is chosen, and what a reader gets before it is.
//
// Every date from First on has its own puzzle, generated from a seed
// derived from the date (so the same for everyone, and for every server)
// with the band rotating easy, medium, hard, fiendish. A Keeper chooses
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
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/sudoku-archive/sudoku/internal/generate"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
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

// seedBase keys the daily seeds: changing it changes every date's puzzle,
// so it never changes.
var seedBase = func() uint64 {
	h := fnv.New64a()
	h.Write([]byte("sudoku-archive puzzle of the day"))
	return h.Sum64()
}()

// Today is the current date in UTC: the puzzle of the day changes at
// midnight UTC for everyone.
func Today(now time.Time) time.Time { return now.UTC().Truncate(24 * time.Hour) }

// Key is how the archive names date: YYYY-MM-DD.
func Key(date time.Time) string { return date.Format(time.DateOnly) }

// day is the day number of date since First.
func day(date time.Time) int { return int(date.Sub(First).Hours() / 24) }

// Band is the band of date's puzzle.
func Band(date time.Time) sudoku.Band { return bands[day(date)%len(bands)] }

// Puzzle makes date's puzzle: a pure function of the date and attempt (and
// sudoku.GeneratorVersion, and the engine's measures). Attempt 0 is the
// date's puzzle; a later attempt is used only when an earlier one was the
// puzzle of another day already. When the band's candidate budget runs out
// (never seen), the next easier band is tried from the same seed, which is
// deterministic too.
func Puzzle(ctx context.Context, date time.Time, attempt int) (sudoku.Puzzle, error) {
	d := day(date)
	seed := generate.SeedFor(seedBase+uint64(attempt)*0x9e3779b97f4a7c15, d)
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
	return fmt.Sprintf("the puzzle of the day for %s opens at 00:00 UTC, in %d h %02d min: every day's puzzle starts at midnight UTC, wherever you are", e.Date, h, m)
}

// Kind is sudoku.KindNotFound: there is nothing to show yet.
func (e *NotYetError) Kind() sudoku.Kind { return sudoku.KindNotFound }

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

// ParseDate reads a requested date, YYYY-MM-DD ("" is today's): a date
// before First or after tomorrow has no puzzle of the day. Both are
// *sudoku.InputError. Tomorrow is read (a reader ahead of UTC may ask for
// it), and Read answers it with a NotYetError.
func ParseDate(name, v string, now time.Time) (time.Time, error) {
	if v == "" {
		return Today(now), nil
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return d, &sudoku.InputError{Name: name, Value: v, Reason: "use YYYY-MM-DD"}
	}
	if d.Before(First) || d.After(Today(now).AddDate(0, 0, 1)) {
		return d, &sudoku.InputError{Name: name, Value: v,
			Reason: fmt.Sprintf("there is no puzzle of the day for that date: they run from %s to tomorrow", Key(First))}
	}
	return d, nil
}
