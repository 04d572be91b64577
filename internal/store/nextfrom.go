package store

// nextfrom.go holds the reads behind GET /api/next&from=: the difficulty
// of the puzzle just played, and the unplayed puzzle harder or easier than
// it (or, with no direction, any other near the target). The walks are
// next.go's, with the from puzzle's class left out in SQL so that its
// other ways of writing never fill an arm.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The walks of NextPuzzleFrom: next.go's, but never the class (the
// argument after the bound) of the from puzzle.
var (
	nextRatedFromWalk = nextWalk("player_seconds", "player_seconds >= ?", "player_seconds < ?", "player_seconds > 0 AND "+nextClass+" <> ?")
	nextPriorFromWalk = nextWalk("grade", "grade >= ?", "grade < ?", "player_seconds = 0 AND "+nextClass+" <> ?")
)

// nextFromArgs are the arguments of a from walk's statement: the bound,
// the from class and the player twice, for each arm.
func nextFromArgs(bound int64, class []byte, player int64) []any {
	var args []any
	for range 2 * len(sudoku.Bands) {
		args = append(args, bound, class, player, player)
	}
	return args
}

// fromClass is the puzzle a from= names: its class key and its class's
// placing difficulty (placing).
type fromClass struct {
	key []byte
	b   float64
}

// readFrom reads the from puzzle id in tx: record.ErrNotFound when there
// is none (or a moderator hid it).
func (db *DB) readFrom(ctx context.Context, tx *sql.Tx, id int64, prior ratings.Prior) (fromClass, error) {
	var f fromClass
	var grade int64
	err := tx.QueryRowContext(ctx, db.d.sql("SELECT "+nextClass+", grade FROM puzzles WHERE id = ? AND "+visible), id).Scan(&f.key, &grade)
	if errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("puzzle %d: %w", id, record.ErrNotFound)
	}
	if err != nil {
		return f, fmt.Errorf("puzzle %d: %w", id, err)
	}
	f.b = prior.Of(grade)
	var b float64
	err = tx.QueryRowContext(ctx, db.d.sql("SELECT difficulty FROM class_ratings WHERE class_key = ? AND plays >= ?"), f.key, ratings.MinPlays).Scan(&b)
	switch {
	case err == nil:
		f.b = b
	case !errors.Is(err, sql.ErrNoRows):
		return f, fmt.Errorf("puzzle %d: %w", id, err)
	}
	return f, nil
}

// PuzzleDifficulty returns the placing difficulty of puzzle id's class,
// the figure NextPuzzleFrom compares with: the model's difficulty b (log
// seconds of a typical player) once the class shows player_seconds
// (ratings.MinPlays counted plays), the prior of its grade before, as the
// human order places puzzles (a few plays say less than the grade; the
// one play of the player who just solved it least of all).
// record.ErrNotFound for no such puzzle.
func (db *DB) PuzzleDifficulty(ctx context.Context, id int64) (float64, error) {
	if db.isClosed() {
		return 0, ErrClosed
	}
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return 0, fmt.Errorf("puzzle difficulty: %w", err)
	}
	defer tx.Rollback()
	prior, err := priorIn(ctx, tx, db.d)
	if err != nil {
		return 0, err
	}
	f, err := db.readFrom(ctx, tx, id, prior)
	if err != nil {
		return 0, err
	}
	return f.b, tx.Commit()
}

// NextPuzzleFrom is NextPuzzle beside the puzzle from, just played: among
// the graded classes the player has no attempt at, never from's class (no
// way of writing it), the one whose placing difficulty (PuzzleDifficulty)
// is nearest target, and with dir +1 only those harder than from (placing
// difficulty above from's, so for this player a longer expected time; the
// grade's prior where a class does not show player_seconds yet), with dir
// -1 only those easier. record.ErrNotFound when none
// qualifies, or when from is no archived puzzle (the message says which).
//
// Besides the walks from target, a directed call walks from from's own
// difficulty on its side, so that a harder puzzle is found even when none
// is as hard as target.
func (db *DB) NextPuzzleFrom(ctx context.Context, player int64, target float64, from int64, dir int) (record.Puzzle, float64, error) {
	tx, prior, err := db.nextTx(ctx, target)
	if err != nil {
		return record.Puzzle{}, 0, err
	}
	defer tx.Rollback()
	f, err := db.readFrom(ctx, tx, from, prior)
	if err != nil {
		return record.Puzzle{}, 0, fmt.Errorf("from: %w", err)
	}
	cands, err := db.fromCandidates(ctx, tx, player, target, f, dir, prior)
	if err != nil {
		return record.Puzzle{}, 0, err
	}
	cands = slices.DeleteFunc(cands, func(c nextCandidate) bool {
		return dir > 0 && c.b <= f.b || dir < 0 && c.b >= f.b
	})
	return db.nearest(ctx, tx, cands, target)
}

// fromCandidates are the candidates of NextPuzzleFrom, f's class left
// out: the rated and the unrated classes nearest target, and for a
// direction those just beyond f on its side (bounds that keep f's ties
// out where the key allows; the caller drops the rest).
func (db *DB) fromCandidates(ctx context.Context, tx *sql.Tx, player int64, target float64, f fromClass, dir int, prior ratings.Prior) ([]nextCandidate, error) {
	secs := []int64{int64(math.Round(math.Exp(min(target, 30))))}
	tenths := []int64{min(max(int64(math.Round(walkTenths(prior, target))), 1), 1000)}
	x, s := walkTenths(prior, f.b), math.Round(math.Exp(min(f.b, 30)))
	switch {
	case dir > 0: // grade >= the first above f's; player_seconds >= f's
		secs = append(secs, int64(s))
		tenths = append(tenths, min(max(int64(math.Floor(x+1e-6))+1, 1), 1000))
	case dir < 0: // grade < f's; player_seconds < f's + 1
		secs = append(secs, int64(s)+1)
		tenths = append(tenths, min(max(int64(math.Ceil(x-1e-6)), 1), 1000))
	}
	var out []nextCandidate
	for i := range secs {
		rated, err := db.ratedWalk(ctx, tx, nextRatedFromWalk, nextFromArgs(secs[i], f.key, player))
		if err != nil {
			return nil, err
		}
		unrated, err := db.priorWalk(ctx, tx, nextPriorFromWalk, nextFromArgs(tenths[i], f.key, player), prior, false)
		if err != nil {
			return nil, err
		}
		out = append(append(out, rated...), unrated...)
	}
	return out, nil
}
