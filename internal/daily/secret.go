package daily

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// dailySecret is the archive's DailySecret, read once and kept: it never
// changes. It is never logged.
func (k *Keeper) dailySecret(ctx context.Context) ([]byte, error) {
	k.secretMu.Lock()
	defer k.secretMu.Unlock()
	if k.secret != nil {
		return k.secret, nil
	}
	s, err := k.Archive.DailySecret(ctx)
	if err != nil {
		return nil, fmt.Errorf("puzzle of the day: read the archive's secret: %w", err)
	}
	if len(s) < SecretBytes {
		return nil, fmt.Errorf("puzzle of the day: the archive's secret is %d bytes, want %d", len(s), SecretBytes)
	}
	k.secret = s
	return s, nil
}

// candidate makes date's puzzle of attempt (in a turn of slot) and says
// whether it is fresh: no puzzle of its class is archived.
func (k *Keeper) candidate(ctx context.Context, secret []byte, date time.Time, attempt int,
	slot func(context.Context, func() error) error) (p record.Puzzle, fresh bool, err error) {
	err = slot(ctx, func() error {
		var err error
		p, err = Puzzle(ctx, secret, date, attempt)
		return err
	})
	if err != nil {
		return p, false, err
	}
	switch _, err := k.Archive.ByCanonical(ctx, p.Canonical); {
	case errors.Is(err, record.ErrNotFound):
		return p, true, nil
	case err != nil:
		return p, false, err
	}
	return p, false, nil
}

// Preview is the puzzle Choose would choose for date now, made but not
// archived: the first attempt not archived already. It is a moderator's
// look at a day to come (web's preview of tomorrow); the caller holds a
// turn of its search gate, so Preview takes none.
func (k *Keeper) Preview(ctx context.Context, date time.Time) (record.Puzzle, error) {
	secret, err := k.dailySecret(ctx)
	if err != nil {
		return record.Puzzle{}, err
	}
	now := func(_ context.Context, fn func() error) error { return fn() }
	for attempt := range MaxAttempts {
		p, fresh, err := k.candidate(ctx, secret, date, attempt, now)
		if err != nil || fresh {
			return p, err
		}
	}
	return record.Puzzle{}, fmt.Errorf("puzzle of the day %s: %d puzzles in a row were archived already", Key(date), MaxAttempts)
}
