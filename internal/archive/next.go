package archive

// next.go is where the next puzzle aims for a player (GET /api/next,
// docs/api.md "The next puzzle"): the player's usual time, moved harder
// or easier, turned into a difficulty by the players' model, and the
// unplayed class nearest it.

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// Leveller is what the next puzzle's aim needs of the store (*store.DB
// provides it): where a player stands, and the unplayed puzzle nearest a difficulty.
type Leveller interface {
	// UsualSeconds returns the median seconds of the player's last window
	// counted solves (first finished attempts at a puzzle, solved), and how
	// many there were (0: none, and seconds 0).
	UsualSeconds(ctx context.Context, player int64, window int) (seconds float64, solves int, err error)
	// NextPuzzle returns the first entry of the puzzle class whose
	// difficulty (the model's b, log seconds of a typical player; the
	// prior from its grade while it has no plays) is nearest target, among
	// the graded classes of one solution that the player (0: nobody) has no
	// attempt at, any way of writing it; with that difficulty. It returns
	// record.ErrNotFound when there is none.
	NextPuzzle(ctx context.Context, player int64, target float64) (record.Puzzle, float64, error)
	// PuzzleDifficulty returns the difficulty b of a puzzle's class (log
	// seconds of a typical player: the model's once it has a counted play,
	// the prior of its grade before); record.ErrNotFound for no puzzle.
	PuzzleDifficulty(ctx context.Context, id int64) (float64, error)
	// NextPuzzleFrom is NextPuzzle beside the puzzle from: never from's
	// class (no way of writing it), and with dir +1 only classes harder
	// than from's (difficulty above), -1 only easier ones. It returns
	// record.ErrNotFound when there is none, or when from is no puzzle.
	NextPuzzleFrom(ctx context.Context, player int64, target float64, from int64, dir int) (record.Puzzle, float64, error)
}

// How the next puzzle aims (GET /api/next; docs/api.md "The next puzzle").
const (
	// UsualWindow is how many of a player's latest counted solves their
	// usual time is the median of.
	UsualWindow = 20
	// NewPlayerSeconds is the usual time of a player with no counted solve
	// yet (or of a visitor with no player): five minutes, what a typical
	// player needs for an easy puzzle (grade 2 under the model's default
	// prior), so a newcomer starts gently.
	NewPlayerSeconds = 300
	// NextStep is how much ?harder=1 lengthens the time aimed at, and
	// ?easier=1 shortens it; with from=, the step from the time this
	// player is expected to need at the from puzzle.
	NextStep = 1.5
	// LevelSolves is how many counted solves of their own a player needs
	// before their usual time is their level: with fewer, and a from
	// puzzle (the one just solved), the level starts from the time the
	// model expects of them at that puzzle.
	LevelSolves = 3
)

// ErrNoLeveller is Next on an archive whose store keeps no players'
// figures (Options.Leveller nil).
var ErrNoLeveller = errors.New("this archive keeps no players' figures")

// NoNextError is a next puzzle there is none of, with the reason for the
// player (a 404 over HTTP).
type NoNextError struct{ msg string }

func (e *NoNextError) Error() string { return e.msg }

// Kind classifies it: not found.
func (e *NoNextError) Kind() record.Kind { return record.KindNotFound }

// ForUsers: its message is the answer.
func (e *NoNextError) ForUsers() bool { return true }

// NextAsk is who asks for a next puzzle, and how: Player 0 and Skill 1 for
// a visitor; From the puzzle just played (0: none); Move +1 harder, -1
// easier, 0 the player's level.
type NextAsk struct {
	Player int64
	Skill  float64
	From   int64
	Move   int
}

// NextPick is the next puzzle, the time the model expects of the player
// at it, and the time aimed at (whole seconds).
type NextPick struct {
	Puzzle          record.Puzzle
	ExpectedSeconds int64
	TargetSeconds   int64
}

// Next picks the puzzle at the asker's level that they have not played;
// with From, never that puzzle's class, and harder or easier than it. A
// *NoNextError says why there is none.
func (ar *Archive) Next(ctx context.Context, ask NextAsk) (NextPick, error) {
	if ar.leveller == nil {
		return NextPick{}, ErrNoLeveller
	}
	usual, solves := 0.0, 0
	if ask.Player != 0 {
		var err error
		if usual, solves, err = ar.leveller.UsualSeconds(ctx, ask.Player, UsualWindow); err != nil {
			return NextPick{}, fmt.Errorf("usual time of player %d: %w", ask.Player, err)
		}
		if solves > 0 { // as fast as the model believes a solve can be
			usual = max(usual, ratings.MinSeconds)
		}
	}
	aim := AimFor(ask.Skill, usual, ask.Move)
	if ask.From != 0 {
		var err error
		if aim, err = ar.aimFrom(ctx, ask.From, ask.Skill, usual, solves, ask.Move); err != nil {
			return NextPick{}, err
		}
	}
	p, b, err := ar.pickNext(ctx, ask.Player, aim, ask.From, ask.Move)
	if err != nil {
		return NextPick{}, err
	}
	return NextPick{Puzzle: p, ExpectedSeconds: int64(math.Round(math.Exp(b - aim.Ability))), TargetSeconds: int64(math.Round(aim.Seconds))}, nil
}

// Aim is where GET /api/next aims for a player: the time it looks for,
// the player's ability (a = log skill) and the difficulty (b, log seconds
// of a typical player) that gives that time to this player.
type Aim struct {
	Seconds    float64
	Ability    float64
	Difficulty float64
}

// AimFor returns where to aim for a player of skill (exp(a); 1 typical)
// whose usual time is usual seconds (0: none yet), moved by move (-1
// easier, 0, +1 harder): the model expects exp(b − a) of the player, so
// the time T is met by b = log T + a.
func AimFor(skill, usual float64, move int) Aim {
	if usual <= 0 {
		usual = NewPlayerSeconds
	}
	if skill <= 0 || math.IsNaN(skill) || math.IsInf(skill, 0) {
		skill = 1
	}
	t := usual * math.Pow(NextStep, float64(move))
	a := math.Log(skill)
	return Aim{Seconds: t, Ability: a, Difficulty: math.Log(t) + a}
}

// The 404s of GET /api/next: every puzzle that could be chosen was
// played, or there is none to choose.
const (
	msgNoNext       = "no puzzle left to play: you have played every graded puzzle with one solution in the archive (any way of writing it); submit or generate a new one"
	msgNoCandidates = "no puzzle to play yet: the archive has no graded puzzle with one solution; submit or generate one"
	// msgNoMove: nothing %s than puzzle #%d is left for this player.
	msgNoMove = "no %s puzzle than #%d left to play: you have played every one the archive holds (any way of writing it); try Next instead, or submit or generate one"
)

// aimFrom is where GET /api/next&from= aims: harder or easier, a NextStep
// from the time the model expects of this player at the from puzzle; no
// move, the player's level, which with fewer than LevelSolves counted
// solves of their own is that expected time too (not NewPlayerSeconds).
func (ar *Archive) aimFrom(ctx context.Context, from int64, skill, usual float64, solves, move int) (Aim, error) {
	b, err := ar.leveller.PuzzleDifficulty(ctx, from)
	if errors.Is(err, record.ErrNotFound) {
		return Aim{}, &NoNextError{fmt.Sprintf(`"from": no puzzle #%d in the archive`, from)}
	}
	if err != nil {
		return Aim{}, fmt.Errorf("difficulty of puzzle %d: %w", from, err)
	}
	aim := AimFor(skill, 0, 0)
	at := math.Exp(b - aim.Ability) // this player's expected seconds at from
	if move != 0 || solves < LevelSolves {
		usual = at
	}
	return AimFor(skill, usual, move), nil
}

// pickNext asks the archive for the puzzle aim points at (beside from,
// when not 0) and turns "none" into the NoNextError that says why.
func (ar *Archive) pickNext(ctx context.Context, player int64, aim Aim, from int64, move int) (record.Puzzle, float64, error) {
	var p record.Puzzle
	var b float64
	var err error
	if from != 0 {
		p, b, err = ar.leveller.NextPuzzleFrom(ctx, player, aim.Difficulty, from, move)
	} else {
		p, b, err = ar.leveller.NextPuzzle(ctx, player, aim.Difficulty)
	}
	switch {
	case errors.Is(err, record.ErrNotFound) && from != 0 && move != 0:
		return p, 0, &NoNextError{fmt.Sprintf(msgNoMove, moveWord(move), from)}
	case errors.Is(err, record.ErrNotFound):
		return p, 0, ar.noNext(ctx, player)
	case err != nil:
		return p, 0, fmt.Errorf("next puzzle for player %d: %w", player, err)
	}
	return p, b, nil
}

// moveWord names a move for a message: "harder" or "easier".
func moveWord(move int) string {
	if move > 0 {
		return "harder"
	}
	return "easier"
}

// noNext is the NoNextError when nothing is left for player: it says whether the
// player played everything or the archive has nothing to offer anyone.
func (ar *Archive) noNext(ctx context.Context, player int64) error {
	if player != 0 {
		_, _, err := ar.leveller.NextPuzzle(ctx, 0, 0)
		if err == nil {
			return &NoNextError{msgNoNext}
		}
		if !errors.Is(err, record.ErrNotFound) {
			return fmt.Errorf("next puzzle for anybody: %w", err)
		}
	}
	return &NoNextError{msgNoCandidates}
}
