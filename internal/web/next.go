package web

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// Leveller is what GET /api/next needs of the archive (*store.DB provides
// it): archive.Leveller.
type Leveller = archive.Leveller

// How GET /api/next aims (archive's constants, docs/api.md "The next puzzle").
const (
	UsualWindow      = archive.UsualWindow
	NewPlayerSeconds = archive.NewPlayerSeconds
	NextStep         = archive.NextStep
	LevelSolves      = archive.LevelSolves
)

// nextResponse is the answer to GET /api/next: the puzzle object, the
// time the model expects of this player at it and the time aimed at.
type nextResponse struct {
	record.Puzzle
	ExpectedSeconds int64 `json:"expected_seconds"`
	TargetSeconds   int64 `json:"target_seconds"`
}

// Aim is where GET /api/next aims for a player (archive.Aim).
type Aim = archive.Aim

// aimFor is archive.AimFor.
func aimFor(skill, usual float64, move int) Aim { return archive.AimFor(skill, usual, move) }

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
		if from, err = userinput.ParseID(`"from"`, f); err != nil {
			return err
		}
	}
	ask := archive.NextAsk{Skill: 1, From: from, Move: move}
	if p, ok := playerOf(c); ok {
		ask.Player, ask.Skill = p.ID, p.Skill
	}
	pick, err := s.arch.Next(c.Request().Context(), ask)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, templates.PuzzleURL(pick.Puzzle.ID))
	return c.JSON(http.StatusOK, nextResponse{
		Puzzle:          pick.Puzzle,
		ExpectedSeconds: pick.ExpectedSeconds,
		TargetSeconds:   pick.TargetSeconds,
	})
}
