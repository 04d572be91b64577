package templates

import (
	"fmt"
	"math"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// AccountForm is the state of the sign-up and login forms.
type AccountForm struct {
	CSRF   string
	Name   string // as the user typed it
	Error  string // why the post was refused; "" when it was not
	Player account.Player
	// LoggedOut says the visitor has just logged out (the login page
	// says so).
	LoggedOut bool
}

// MeView is the player's dashboard.
type MeView struct {
	CSRF    string
	Known   bool // a player is known (a session or token)
	Deleted bool // the player has just been deleted
	// DeleteUnconfirmed says a deletion was asked for without the
	// confirmation typed: nothing was deleted.
	DeleteUnconfirmed bool
	Player            account.Player
	Summary           account.Summary
	Attempts          []account.Attempt // one page, newest first
	NextURL           string            // the next page, "" on the last
	// Tokens are the player's API tokens (tokens.templ); Revoked is the
	// id of the one just revoked, "" for none.
	Tokens  []account.Token
	Revoked string
}

// Rating is the player's rating as the page writes it ("1,540"): the
// players' model's skill on the chess trainers' scale (ratings.Rating).
func (v MeView) Rating() string {
	return Count(ratings.Rating(v.Player.Skill))
}

// TimesChart is the SVG chart of a player's solve times by grade: for
// each grade, a line from the fastest to the slowest solve and a dot at the
// mean.
type TimesChart struct {
	Width, Height int
	Marks         []TimeMark
	YTicks        []Tick
	XTicks        []Tick
}

// TimeMark is one grade's mark on TimesChart.
type TimeMark struct {
	X, YMean, YLow, YHigh float64
	Label                 string // for the title tooltip
}

// Tick is an axis label at a position.
type Tick struct {
	Pos   float64
	Label string
}

// Chart geometry of TimesChart.
const (
	timesW, timesH           = 600, 262 // the x axis's title below its labels (issue 34)
	timesLeft, timesBottom   = 56, 50
	timesTop, timesRight     = 10, 10
	timesMaxGrade            = 12.0
	timesPlotW, timesPlotH   = timesW - timesLeft - timesRight, timesH - timesTop - timesBottom
	timesMinimumSecondsScale = 60.0
)

// Chart lays out the summary's times by grade.
func (v MeView) Chart() TimesChart {
	c := TimesChart{Width: timesW, Height: timesH}
	top := timesMinimumSecondsScale
	for _, g := range v.Summary.ByGrade {
		top = math.Max(top, g.Slowest)
	}
	y := func(s float64) float64 { return timesTop + timesPlotH*(1-s/top) }
	x := func(tenths int) float64 {
		return timesLeft + timesPlotW*math.Min(float64(tenths)/10, timesMaxGrade)/timesMaxGrade
	}
	for _, g := range v.Summary.ByGrade {
		grade := "ungraded"
		if g.Grade > 0 {
			grade = "grade " + strconv.FormatFloat(float64(g.Grade)/10, 'f', 1, 64)
		}
		c.Marks = append(c.Marks, TimeMark{
			X: x(g.Grade), YMean: y(g.Mean), YLow: y(g.Fastest), YHigh: y(g.Slowest),
			Label: fmt.Sprintf("%s: %s, mean %s, fastest %s, slowest %s", grade, Plural(g.Solves, "solve", "solves"),
				Seconds(int64(math.Round(g.Mean))), Seconds(int64(g.Fastest)), Seconds(int64(g.Slowest))),
		})
	}
	for i := 0; i <= 4; i++ {
		s := top * float64(i) / 4
		c.YTicks = append(c.YTicks, Tick{Pos: y(s), Label: Seconds(int64(math.Round(s)))})
	}
	for g := 0; g <= 12; g += 2 {
		c.XTicks = append(c.XTicks, Tick{Pos: x(g * 10), Label: strconv.Itoa(g)})
	}
	return c
}

// Seconds formats a duration in seconds as m:ss or h:mm:ss.
func Seconds(s int64) string {
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// GradeOf formats an attempt's puzzle grade (tenths; 0 ungraded).
func GradeOf(a account.Attempt) string {
	if a.Grade <= 0 {
		return "–"
	}
	return strconv.FormatFloat(float64(a.Grade)/10, 'f', 1, 64)
}

// OutcomeText says how an attempt ended.
func OutcomeText(o account.Outcome) string {
	switch o {
	case account.OutcomeSolved:
		return "solved"
	case account.OutcomeGaveUp:
		return "gave up"
	}
	return "playing"
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// TryAgainNote says how an attempt to try again went: "gave up" or
// "solved with 2 hints".
func TryAgainNote(a account.Attempt) string {
	if a.Outcome == account.OutcomeGaveUp {
		return "gave up"
	}
	return "solved with " + Plural(a.Hints, "hint", "hints")
}

// deleteWord is what /me asks a player to type to confirm deleting
// themselves: their name, quoted, or "delete" without one.
func deleteWord(p account.Player) string {
	if p.Name == "" {
		return "“delete”"
	}
	return "your name, “" + p.Name + "”"
}
