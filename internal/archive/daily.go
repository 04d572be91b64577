package archive

import (
	"context"
	"errors"
	"time"

	"github.com/sudoku-archive/sudoku/internal/daily"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// dailyWait bounds how long a reader of a date not chosen yet waits for
// the keeper before it is told to come back (503, Retry-After): choosing a
// date takes well under a second, so only a keeper that fails (a broken
// archive) makes a reader wait this long.
const dailyWait = 3 * time.Second

// Daily returns the puzzle of the day d (read at now). A date not chosen
// yet, while a keeper runs (Start), wakes it and waits for its choice, at
// most dailyWait, reading only; the errors are daily.Read's.
func (a *Archive) Daily(ctx context.Context, d, now time.Time) (record.Puzzle, error) {
	p, err := daily.Read(ctx, a.store, d, now)
	var notYet *daily.NotChosenError
	if !errors.As(err, &notYet) || !a.dailies.Expecting() {
		return p, err
	}
	// The keeper starts choosing at the first request for the daily (see
	// daily.Keeper.Run), and at midnight UTC; choosing a date takes well
	// under a second, so this reader waits for it.
	a.dailies.Wake()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for wait := time.Now().Add(dailyWait); a.dailies.Expecting() && time.Now().Before(wait); {
		select {
		case <-ctx.Done():
			return p, err
		case <-tick.C:
		}
		if p, again := daily.Read(ctx, a.store, d, now); again == nil {
			return p, nil
		}
	}
	return p, err
}

// DailyPreview is the puzzle the keeper will choose for d
// (daily.Keeper.Preview, made in a turn of the search gate), not
// archived: a moderator's preview of a day that has not begun.
func (a *Archive) DailyPreview(ctx context.Context, d time.Time) (record.Puzzle, error) {
	var p record.Puzzle
	err := a.Searching(ctx, func() error {
		var err error
		p, err = a.dailies.Preview(ctx, d)
		return err
	})
	return p, err
}
