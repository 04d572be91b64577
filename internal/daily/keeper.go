package daily

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Reader is what reading the puzzle of the day needs of the archive.
type Reader interface {
	// Daily returns the puzzle recorded for date (YYYY-MM-DD), or
	// record.ErrNotFound.
	Daily(ctx context.Context, date string) (record.Puzzle, error)
}

// Archive is what choosing the puzzle of the day needs of the archive.
type Archive interface {
	Reader
	// SetDaily records the archived p as date's puzzle unless the date has
	// one, and returns the date's puzzle; record.ErrDailyRepeat when p is
	// another date's puzzle.
	SetDaily(ctx context.Context, date string, p record.Puzzle) (record.Puzzle, error)
	// ByCanonical returns the first archived puzzle whose canonical form
	// is c (the same puzzle, however written), or record.ErrNotFound.
	ByCanonical(ctx context.Context, c sudoku.Grid) (record.Puzzle, error)
	// DailySecret returns the archive's secret for the puzzles of the day
	// (SecretBytes), made at the first call and the same ever after, on
	// every server of the archive.
	DailySecret(ctx context.Context) ([]byte, error)
	// Submit archives p.
	Submit(ctx context.Context, p record.Puzzle) (record.Puzzle, bool, error)
}

// ErrNoDaily is a date before the keeper's window that no keeper chose:
// no server ran then. It is not chosen on a reader's request.
var ErrNoDaily error = noDailyError{}

type noDailyError struct{}

func (noDailyError) Error() string {
	return "no puzzle of the day was chosen for that date: " + Rule
}

// Kind is record.KindNotFound; the text is for users.
func (noDailyError) Kind() record.Kind { return record.KindNotFound }

// ForUsers says the text is meant for users.
func (noDailyError) ForUsers() bool { return true }

// NotChosenError is a date of the keeper's window whose puzzle is not
// chosen yet: the keeper is at it (a server just started, or its searches
// wait their turn). It says when to ask again.
type NotChosenError struct{ Date string }

func (e *NotChosenError) Error() string {
	return fmt.Sprintf("the puzzle of the day for %s is being chosen; try again in a few seconds", e.Date)
}

// RetryAfter is how long a reader should wait before it asks again.
func (e *NotChosenError) RetryAfter() time.Duration { return RetryAfter }

// Kind is record.KindUnavailable: not now, later.
func (e *NotChosenError) Kind() record.Kind { return record.KindUnavailable }

// ForUsers says the text is meant for users.
func (e *NotChosenError) ForUsers() bool { return true }

// RetryAfter is what a reader of a date not chosen yet is told to wait.
const RetryAfter = 5 * time.Second

// Read returns date's puzzle as recorded. It never generates or writes:
// a date whose day has not begun in UTC is a *NotYetError (whatever an
// older server recorded for it), an unrecorded date in the keeper's window
// at now a *NotChosenError, an earlier one ErrNoDaily.
func Read(ctx context.Context, a Reader, date, now time.Time) (record.Puzzle, error) {
	if err := NotYet(date, now); err != nil {
		return record.Puzzle{}, err
	}
	key := Key(date)
	p, err := a.Daily(ctx, key)
	switch {
	case err == nil:
		return p, nil
	case !errors.Is(err, record.ErrNotFound):
		return p, fmt.Errorf("puzzle of the day %s: %w", key, err)
	case date.Before(Window(now)[0]):
		return p, fmt.Errorf("%s: %w", key, ErrNoDaily)
	}
	return p, &NotChosenError{Date: key}
}

// Keeper chooses the puzzles of the coming days ahead, in the background.
type Keeper struct {
	Archive Archive
	// Slot runs fn, a search, in a turn of the caller's search gate (the
	// server's, shared with requests); nil runs it at once.
	Slot func(ctx context.Context, fn func() error) error
	// Log receives what went wrong; nil means slog.Default().
	Log *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// OnDemand chooses only when woken (a reader asked for a date not
	// chosen yet), never ahead at midnight: a server that leaves the
	// choosing ahead to another (serve --daily=false) still chooses a
	// date its readers ask for rather than wait on that server. Two
	// servers choosing one date agree (Choose): the date's puzzle is
	// made from the date, and the archive records the first.
	OnDemand bool

	once    sync.Once
	wake    chan struct{} // Wake's knock: the first reader of a date not chosen
	running atomic.Bool   // Run is choosing (a reader may wait for it)
	alive   atomic.Bool   // Run runs (OnDemand: it chooses at a knock)
	started atomic.Bool   // Start ran: a Run answers Wake (a reader may wait for it)

	secretMu sync.Mutex
	secret   []byte // the archive's DailySecret, once read (secret.go)
}

// Start runs Run in a goroutine until ctx is done and returns a function
// that waits for it to end. From the moment Start returns, Expecting is
// true, so a request that comes before the goroutine is scheduled (a
// server's first) waits for the keeper rather than being told to come back.
func (k *Keeper) Start(ctx context.Context) (wait func()) {
	k.started.Store(true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer k.started.Store(false)
		k.Run(ctx)
	}()
	return func() { <-done }
}

// Expecting reports whether a keeper runs (Start) to choose what a Wake
// asks for, so that a reader of a date of the window not chosen yet can
// expect it within moments.
func (k *Keeper) Expecting() bool { return k.started.Load() || k.running.Load() }

// Wake tells a waiting Run that somebody asked for the puzzle of the day.
// It never blocks and never writes: the keeper chooses, in the background,
// at most the window's dates, each once for good.
func (k *Keeper) Wake() {
	select {
	case k.knock() <- struct{}{}:
	default:
	}
}

// Running reports whether Run is choosing the window's puzzles, so that a
// reader of a date not chosen yet can expect it soon.
func (k *Keeper) Running() bool {
	return k.running.Load() || k.OnDemand && k.alive.Load() // it chooses at the knock
}

func (k *Keeper) knock() chan struct{} {
	k.once.Do(func() { k.wake = make(chan struct{}, 1) })
	return k.wake
}

// inUse reports whether the archive has a puzzle of the day for a date of
// the window: a keeper chose them before, so the days ahead are wanted.
func (k *Keeper) inUse(ctx context.Context) bool {
	for _, d := range Window(k.now()) {
		if _, err := k.Archive.Daily(ctx, Key(d)); err == nil {
			return true
		}
	}
	return false
}

// RetryEvery is how long the keeper waits after a failure (a busy gate, a
// busy archive) before it tries the window again.
const RetryEvery = time.Minute

// Run chooses the window's puzzles and again after every midnight UTC,
// until ctx is done. It starts at once when the archive has a puzzle of the
// day for a date of the window already; otherwise it waits for the first
// Wake, so an archive whose puzzle of the day nobody asked for holds only
// what was submitted. A failure is logged and retried after RetryEvery.
func (k *Keeper) Run(ctx context.Context) {
	if k.OnDemand {
		k.runOnDemand(ctx)
		return
	}
	if !k.inUse(ctx) {
		select {
		case <-ctx.Done():
			return
		case <-k.knock():
		}
	}
	k.running.Store(true)
	defer k.running.Store(false)
	for {
		wait := k.untilMidnight()
		if err := k.ChooseWindow(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			k.log().Warn("puzzle of the day not chosen yet; trying again", slog.Duration("in", RetryEvery), slog.Any("err", err))
			wait = min(wait, RetryEvery)
		}
		// A reader's Wake also ends the wait: one who asks just after
		// midnight, before the timer fires, gets the new day's puzzle
		// chosen at once (choosing a date chosen already only reads).
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-k.knock():
			t.Stop()
		}
	}
}

// runOnDemand is Run for an OnDemand keeper: the window chosen at each
// Wake, until ctx is done.
func (k *Keeper) runOnDemand(ctx context.Context) {
	k.alive.Store(true)
	defer k.alive.Store(false)
	for {
		select {
		case <-ctx.Done():
			return
		case <-k.knock():
		}
		k.running.Store(true)
		if err := k.ChooseWindow(ctx); err != nil && ctx.Err() == nil {
			k.log().Warn("puzzle of the day not chosen yet; the next reader tries again", slog.Any("err", err))
		}
		k.running.Store(false)
	}
}

// ChooseWindow chooses every date of the window at this moment, today
// first, and returns the first failure after trying them all.
func (k *Keeper) ChooseWindow(ctx context.Context) error {
	w := Window(k.now())
	slices.Reverse(w) // today first, then yesterday
	order := w
	var first error
	for _, d := range order {
		if _, err := k.Choose(ctx, d); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Choose returns date's puzzle: the one the archive recorded for the date,
// or, the first time, a new one made from the date and the archive's
// secret (Puzzle), archived and recorded. A candidate already archived
// (its class, however written: somebody submitted it, or it is another
// date's) is never the day's: the next attempt is made instead (issue
// 45). The archive keeps the date's puzzle for good and never records one
// puzzle for two dates; several servers on one archive agree, the first to
// record a date wins.
func (k *Keeper) Choose(ctx context.Context, date time.Time) (record.Puzzle, error) {
	key := Key(date)
	switch p, err := k.Archive.Daily(ctx, key); {
	case err == nil:
		return p, nil
	case !errors.Is(err, record.ErrNotFound):
		return p, fmt.Errorf("puzzle of the day %s: %w", key, err)
	}
	secret, err := k.dailySecret(ctx)
	if err != nil {
		return record.Puzzle{}, err
	}
	for attempt := range MaxAttempts {
		p, fresh, err := k.candidate(ctx, secret, date, attempt, k.slot)
		if err != nil {
			return p, fmt.Errorf("puzzle of the day %s: %w", key, err)
		}
		if !fresh {
			// Archived already: perhaps by another server choosing this
			// date at this moment, which may have recorded it by now.
			if day, err := k.Archive.Daily(ctx, key); err == nil {
				return day, nil
			}
			continue
		}
		stored, _, err := k.Archive.Submit(ctx, p)
		if err != nil {
			return p, fmt.Errorf("archive puzzle of the day %s: %w", key, err)
		}
		day, err := k.Archive.SetDaily(ctx, key, stored)
		if errors.Is(err, record.ErrDailyRepeat) {
			continue
		}
		return day, err
	}
	return record.Puzzle{}, fmt.Errorf("puzzle of the day %s: %d puzzles in a row were archived already", key, MaxAttempts)
}

func (k *Keeper) slot(ctx context.Context, fn func() error) error {
	if k.Slot == nil {
		return fn()
	}
	return k.Slot(ctx, fn)
}

func (k *Keeper) now() time.Time {
	if k.Now == nil {
		return time.Now()
	}
	return k.Now()
}

func (k *Keeper) log() *slog.Logger {
	if k.Log == nil {
		return slog.Default()
	}
	return k.Log
}

// untilMidnight is the time from now to just after the next midnight UTC.
func (k *Keeper) untilMidnight() time.Duration {
	now := k.now()
	return Today(now).AddDate(0, 0, 1).Sub(now) + time.Second
}
