package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/templates"
)

// Leveller is what GET /api/next needs of the archive (*store.DB provides
// it): where a player stands, and the unplayed puzzle nearest a difficulty.
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
	// sudoku.ErrNotFound when there is none.
	NextPuzzle(ctx context.Context, player int64, target float64) (sudoku.Puzzle, float64, error)
	// PuzzleDifficulty returns the difficulty b of a puzzle's class (log
	// seconds of a typical player: the model's once it has a counted play,
	// the prior of its grade before); sudoku.ErrNotFound for no puzzle.
	PuzzleDifficulty(ctx context.Context, id int64) (float64, error)
	// NextPuzzleFrom is NextPuzzle beside the puzzle from: never from's
	// class (no way of writing it), and with dir +1 only classes harder
	// than from's (difficulty above), -1 only easier ones. It returns
	// sudoku.ErrNotFound when there is none, or when from is no puzzle.
	NextPuzzleFrom(ctx context.Context, player int64, target float64, from int64, dir int) (sudoku.Puzzle, float64, error)
}

// How GET /api/next aims (docs/api.md "The next puzzle").
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

// nextResponse is the answer to GET /api/next: the puzzle object, the
// time the model expects of this player at it and the time aimed at.
type nextResponse struct {
	sudoku.Puzzle
	ExpectedSeconds int64 `json:"expected_seconds"`
	TargetSeconds   int64 `json:"target_seconds"`
}

// Aim is where GET /api/next aims for a player: the time it looks for,
// the player's ability (a = log skill) and the difficulty (b, log seconds
// of a typical player) that gives that time to this player.
type Aim struct {
	Seconds    float64
	Ability    float64
	Difficulty float64
}

// aimFor returns where to aim for a player of skill (exp(a); 1 typical)
// whose usual time is usual seconds (0: none yet), moved by move (-1
// easier, 0, +1 harder): the model expects exp(b − a) of the player, so
// the time T is met by b = log T + a.
func aimFor(skill, usual float64, move int) Aim {
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

// nextMove reads ?harder= and ?easier=: +1, -1 or 0; both is a 400.
func nextMove(v url.Values) (int, error) {
	harder, err := boolParam(v, "harder", "use 1 for a harder puzzle, or leave it out")
	if err != nil {
		return 0, err
	}
	easier, err := boolParam(v, "easier", "use 1 for an easier puzzle, or leave it out")
	if err != nil {
		return 0, err
	}
	switch {
	case harder && easier:
		return 0, badRequest(`"harder" and "easier" together: ask for one of them`)
	case harder:
		return 1, nil
	case easier:
		return -1, nil
	}
	return 0, nil
}

// The 404s of GET /api/next: every puzzle that could be chosen was
// played, or there is none to choose.
const (
	msgNoNext       = "no puzzle left to play: you have played every graded puzzle with one solution in the archive (any way of writing it); submit or generate a new one"
	msgNoCandidates = "no puzzle to play yet: the archive has no graded puzzle with one solution; submit or generate one"
	// msgNoMove: nothing %s than puzzle #%d is left for this player.
	msgNoMove = "no %s puzzle than #%d left to play: you have played every one the archive holds (any way of writing it); try Next instead, or submit or generate one"
)

// apiNext is GET /api/next: the puzzle at the request's player's level
// (or a newcomer's, without a player) that the player has not played;
// with from=, never that puzzle's class, and harder or easier than it.
// It only reads: a visitor without a player gets no cookie.
func (s *Server) apiNext(c echo.Context) error {
	v, err := url.ParseQuery(c.Request().URL.RawQuery)
	if err != nil {
		return badRequest("invalid query string: %v", err)
	}
	move, err := nextMove(v)
	if err != nil {
		return err
	}
	var from int64
	if f := v.Get("from"); f != "" {
		if from, err = sudoku.ParseID(`"from"`, f); err != nil {
			return err
		}
	}
	ctx := c.Request().Context()
	var id int64
	skill, usual, solves := 1.0, 0.0, 0
	if p, ok := playerOf(c); ok {
		id, skill = p.ID, p.Skill
		if usual, solves, err = s.leveller.UsualSeconds(ctx, p.ID, UsualWindow); err != nil {
			return fmt.Errorf("usual time of player %d: %w", p.ID, err)
		}
		if solves > 0 { // as fast as the model believes a solve can be
			usual = max(usual, ratings.MinSeconds)
		}
	}
	aim := aimFor(skill, usual, move)
	if from != 0 {
		if aim, err = s.aimFrom(ctx, from, skill, usual, solves, move); err != nil {
			return err
		}
	}
	p, b, err := s.pickNext(ctx, id, aim, from, move)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, templates.PuzzleURL(p.ID))
	return c.JSON(http.StatusOK, nextResponse{
		Puzzle:          p,
		ExpectedSeconds: int64(math.Round(math.Exp(b - aim.Ability))),
		TargetSeconds:   int64(math.Round(aim.Seconds)),
	})
}

// aimFrom is where GET /api/next&from= aims: harder or easier, a NextStep
// from the time the model expects of this player at the from puzzle; no
// move, the player's level, which with fewer than LevelSolves counted
// solves of their own is that expected time too (not NewPlayerSeconds).
func (s *Server) aimFrom(ctx context.Context, from int64, skill, usual float64, solves, move int) (Aim, error) {
	b, err := s.leveller.PuzzleDifficulty(ctx, from)
	if errors.Is(err, sudoku.ErrNotFound) {
		return Aim{}, echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf(`"from": no puzzle #%d in the archive`, from))
	}
	if err != nil {
		return Aim{}, fmt.Errorf("difficulty of puzzle %d: %w", from, err)
	}
	aim := aimFor(skill, 0, 0)
	at := math.Exp(b - aim.Ability) // this player's expected seconds at from
	if move != 0 || solves < LevelSolves {
		usual = at
	}
	return aimFor(skill, usual, move), nil
}

// pickNext asks the archive for the puzzle aim points at (beside from,
// when not 0) and turns "none" into the 404 that says why.
func (s *Server) pickNext(ctx context.Context, player int64, aim Aim, from int64, move int) (sudoku.Puzzle, float64, error) {
	var p sudoku.Puzzle
	var b float64
	var err error
	if from != 0 {
		p, b, err = s.leveller.NextPuzzleFrom(ctx, player, aim.Difficulty, from, move)
	} else {
		p, b, err = s.leveller.NextPuzzle(ctx, player, aim.Difficulty)
	}
	switch {
	case errors.Is(err, sudoku.ErrNotFound) && from != 0 && move != 0:
		return p, 0, echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf(msgNoMove, moveWord(move), from))
	case errors.Is(err, sudoku.ErrNotFound):
		return p, 0, s.noNext(ctx, player)
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

// noNext is the 404 when nothing is left for player: it says whether the
// player played everything or the archive has nothing to offer anyone.
func (s *Server) noNext(ctx context.Context, player int64) error {
	if player != 0 {
		_, _, err := s.leveller.NextPuzzle(ctx, 0, 0)
		if err == nil {
			return echo.NewHTTPError(http.StatusNotFound, msgNoNext)
		}
		if !errors.Is(err, sudoku.ErrNotFound) {
			return fmt.Errorf("next puzzle for anybody: %w", err)
		}
	}
	return echo.NewHTTPError(http.StatusNotFound, msgNoCandidates)
}
