package record

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Puzzle is one archived puzzle: its givens, its solution and the measures
// the engine recorded for it. The JSON form is docs/api.md's puzzle object;
// the fields that need a database (id, submitted_at, submissions) are left out
// when zero, so `sudoku solve --json` prints the same object without them.
type Puzzle struct {
	ID         int64       `json:"id,omitzero"`
	Givens     sudoku.Grid `json:"puzzle"`
	Canonical  sudoku.Grid `json:"canonical"` // the same for every way of writing the puzzle; see Canonical
	Solution   sudoku.Grid `json:"solution"`
	Clues      int         `json:"clues"`
	Solutions  int         `json:"solutions"`
	Unique     bool        `json:"unique"`
	Backtracks int64       `json:"backtracks"`
	// Rules are a variant puzzle's rules (docs/variants.md) in their one
	// normal writing (variant.Normal), CanonicalRules those of its
	// canonical form (with Canonical, the puzzle's identity), Variant the
	// short names of its variants (variant.Families); all "" for a classic
	// puzzle, whose rules are null and variant [] in JSON (docs/api.md).
	// Title and Author are what the setter called the puzzle and themself
	// (f-puzzles' title and author), "" when not given. FPuzzles and
	// SudokuPad are links that open a variant in those programs, derived
	// from the rest by SetLinks ("" for a classic puzzle).
	Rules          Rules    `json:"rules"`
	CanonicalRules Rules    `json:"-"`
	Variant        Variants `json:"variant"`
	Title          string   `json:"title,omitempty"`
	Author         string   `json:"author,omitempty"`
	FPuzzles       string   `json:"fpuzzles,omitempty"`
	SudokuPad      string   `json:"sudokupad,omitempty"`
	// Band is BandOf(GradeTenths()): the grade's band, "" while the
	// puzzle has no grade (several solutions, or not graded yet) and while
	// the archive grades it again (GradeVersion ""). Whoever sets Grade
	// sets Band (SetGradeStatus, SetGradeTenths, SetGrade: package logic
	// and the archive's reads call them).
	Band          sudoku.Band `json:"band"`
	Guesses       int64       `json:"guesses"`
	Nodes         int64       `json:"nodes"`
	SolveNS       int64       `json:"solve_ns"`
	EngineVersion string      `json:"engine_version,omitempty"`
	SubmittedAt   time.Time   `json:"submitted_at,omitzero"`
	Submissions   int64       `json:"submissions,omitzero"`
	// SameAs is the id of the first archived puzzle of the same class
	// (another way of writing this puzzle), nil for the first one; always nil
	// outside the archive.
	SameAs *int64 `json:"same_as"`
	// Grade is the human-style grade on Sudoku Explainer's scale (see
	// package logic), nil for a puzzle with several solutions or one not
	// graded yet; GradeFloor says the solver stopped at its budget, so the
	// puzzle is at least that hard; Technique is the hardest technique on
	// the logical path.
	Grade      *float64 `json:"grade"`
	GradeFloor bool     `json:"grade_floor"`
	Technique  string   `json:"technique,omitempty"`
	// GradeEP is the hardest step up to and including the first placement,
	// GradeED the grade of the first step (Sudoku Explainer's other two
	// figures: GradeED <= GradeEP <= Grade), nil when Grade is; Techniques
	// names every technique the logical path used, each once, easiest
	// first (empty when there is no grade).
	GradeEP    *float64   `json:"grade_ep"`
	GradeED    *float64   `json:"grade_ed"`
	Techniques Techniques `json:"techniques"`
	// GradeVersion names the logical solver that graded the puzzle (or
	// found it has several solutions, so no grade); "" while not graded.
	GradeVersion string `json:"-"`
	// GradeStatus says where the grade is: done, pending (the puzzle is
	// archived and waits for the graders) or none (several solutions, or
	// no grade possible). SetGradeStatus derives it from the fields above.
	GradeStatus GradeStatus `json:"grade_status"`
	// Collections lists the ids of the collections that hold the puzzle,
	// in ascending order (empty outside the archive).
	Collections IDs `json:"collections"`
	// SubmittedBy is the name of the account whose submission archived
	// the puzzle: nil when it was anonymous or imported, or once that
	// account is deleted.
	SubmittedBy *string `json:"submitted_by"`
	// SubmitterID is the account a submission is made with (0 for none):
	// written with a new puzzle, never read back (SubmittedBy is).
	SubmitterID int64 `json:"-"`
	// The players' figures of the puzzle's class (every way of writing
	// it shows the same; see package ratings): Plays counts the attempts
	// the model counted (each player's first finished attempt at the
	// class, not in practice), Solves those solved; SolveRate is
	// Solves/Plays, nil without plays; MedianSeconds the median of the
	// counted solves' seconds, nil without one; PlayerSeconds the seconds
	// the model expects of a typical player, nil until the class has
	// ratings.MinPlays plays. The archive stores 0 for each nil.
	Plays         int64    `json:"plays"`
	Solves        int64    `json:"-"`
	SolveRate     *float64 `json:"solve_rate"`
	MedianSeconds *int64   `json:"median_seconds"`
	PlayerSeconds *int64   `json:"player_seconds"`
	// Hidden is true for a puzzle a moderator has hidden: only the
	// moderators' reads return such a puzzle (the server shows "hidden"
	// to them alone); every other read of the archive leaves it out.
	Hidden bool `json:"-"`
}

// IDs is a list of ids in ascending order, held as their decimal
// numbers joined by commas ("" for none), as Techniques holds names, so
// that a Puzzle stays comparable. Its JSON is an array, [] when empty.
type IDs string

// IDsOf returns ids as IDs.
func IDsOf(ids ...int64) IDs {
	var b []byte
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return IDs(b)
}

// List returns the ids.
func (ids IDs) List() []int64 {
	if ids == "" {
		return nil
	}
	var l []int64
	for part := range strings.SplitSeq(string(ids), ",") {
		id, _ := strconv.ParseInt(part, 10, 64)
		l = append(l, id)
	}
	return l
}

// MarshalJSON writes ids as a JSON array, [] for none.
func (ids IDs) MarshalJSON() ([]byte, error) {
	return ids.AppendJSON(nil), nil
}

// UnmarshalJSON reads a JSON array of ids (null for none).
func (ids *IDs) UnmarshalJSON(b []byte) error {
	var l []int64
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*ids = IDsOf(l...)
	return nil
}

// AppendJSON appends ids as a JSON array to b.
func (ids IDs) AppendJSON(b []byte) []byte {
	return append(append(append(b, '['), ids...), ']')
}

// SetPlayerFigures sets the players' figures from the archive's values
// (0 for none): plays, solves, the median and the expected seconds.
func (p *Puzzle) SetPlayerFigures(plays, solves, median, expected int64) {
	p.Plays, p.Solves = plays, solves
	p.SolveRate, p.MedianSeconds, p.PlayerSeconds = nil, nil, nil
	if plays > 0 {
		r := math.Round(float64(solves)/float64(plays)*1e4) / 1e4
		p.SolveRate = &r
	}
	if median > 0 {
		p.MedianSeconds = &median
	}
	if expected > 0 {
		p.PlayerSeconds = &expected
	}
}

// OrZero is *v, or 0 for nil: how the archive stores a figure that may be
// missing.
func OrZero(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// GradeStatus is the state of a puzzle's grade (docs/api.md's
// grade_status).
type GradeStatus string

// The states of a grade.
const (
	GradeDone    GradeStatus = "done"
	GradePending GradeStatus = "pending"
	GradeNone    GradeStatus = "none"
)

// SetGradeStatus sets p.GradeStatus from the grade fields: none for a
// puzzle with several solutions or a graded one without a grade (a full
// grid), pending while no solver has graded it, done otherwise; and p.Band
// with it: the grade's band when done, none otherwise (as the archive's
// band column, migration 00011).
func (p *Puzzle) SetGradeStatus() {
	switch {
	case p.Solutions > 1 || p.GradeVersion != "" && p.Grade == nil:
		p.GradeStatus = GradeNone
	case p.GradeVersion == "":
		p.GradeStatus = GradePending
	default:
		p.GradeStatus = GradeDone
	}
	p.Band = ""
	if p.GradeStatus == GradeDone {
		p.Band = sudoku.BandOf(p.GradeTenths())
	}
}

// GradeTenths returns the grade in tenths (72 for 7.2), 0 for none: the
// archive stores and sorts grades this way, exactly.
func (p *Puzzle) GradeTenths() int64 {
	if p.Grade == nil {
		return 0
	}
	return int64(*p.Grade*10 + 0.5)
}

// TenthsOf returns g in tenths (72 for 7.2), 0 for nil.
func TenthsOf(g *float64) int64 {
	if g == nil {
		return 0
	}
	return int64(*g*10 + 0.5)
}

// FromTenths returns the grade of t tenths, nil for 0.
func FromTenths(t int64) *float64 {
	if t <= 0 {
		return nil
	}
	g := float64(t) / 10
	return &g
}

// SetGradeTenths sets Grade from tenths, nil for 0, and Band with it.
func (p *Puzzle) SetGradeTenths(t int64) {
	p.Band = sudoku.BandOf(t)
	if t <= 0 {
		p.Grade = nil
		return
	}
	g := float64(t) / 10
	p.Grade = &g
}

// SetGrade sets Grade to g (nil for none) and Band with it.
func (p *Puzzle) SetGrade(g *float64) {
	p.Grade = g
	p.Band = sudoku.BandOf(p.GradeTenths())
}

// ErrNoGivens refuses to archive a grid without a single given: every full
// grid solves it, so it is no puzzle. (Solving it is fine: `sudoku solve`
// and POST /api/solve report its two-or-more solutions.)
var ErrNoGivens = errors.New("puzzle has no givens: an empty grid cannot be archived")

// ErrDailyRepeat refuses to make a puzzle the puzzle of a day when it (the
// same canonical form) is the puzzle of another day already.
var ErrDailyRepeat = errors.New("this puzzle is the puzzle of another day already")

// ErrNotFound is returned when no archived puzzle has the requested id.
var ErrNotFound = errors.New("puzzle not found")

// ErrInvalidCursor is returned for a paging cursor that was not issued by the
// archive (or was issued for another sort order).
var ErrInvalidCursor = errors.New("invalid cursor")

// Sort names an order in which the archive can be listed. The values are the
// `sort` parameter of docs/api.md.
type Sort string

// The sort orders of docs/api.md. Every order is total: ties are broken by
// id, so paging by cursor never skips or repeats a row.
const (
	SortDifficulty Sort = "difficulty"  // backtracks, then solve_ns, then id
	SortBacktracks Sort = "backtracks"  // backtracks, then id
	SortSolveTime  Sort = "solve_time"  // solve_ns, then id
	SortSubmitted  Sort = "submitted"   // first submission time (id order)
	SortClues      Sort = "clues"       // clue count, then id
	SortGrade      Sort = "grade"       // human-style grade, then id (ungraded first in ascending order)
	SortPlayerTime Sort = "player_time" // the players' expected seconds, then id (those without last in either order)
	SortHuman      Sort = "human"       // player_seconds, else the grade's prior seconds (human.go), then id (those with neither last)
)

// ListQuery selects one page of the archive.
type ListQuery struct {
	Sort       Sort   // default SortDifficulty
	Desc       bool   // docs/api.md's default order is desc
	Limit      int    // 1..MaxLimit
	Cursor     string // opaque; "" for the first page
	UniqueOnly bool   // hide puzzles with more than one solution
	Distinct   bool   // one row per puzzle: hide the entries that are another way of writing an archived one
	// GradeMin and GradeMax, in tenths of a grade (72 for 7.2), keep the
	// puzzles graded in that range, bounds included; 0 means no bound. Any
	// bound leaves out the puzzles without a grade.
	GradeMin, GradeMax int64
	Band               sudoku.Band // only puzzles of this band; "" for every band
	// Around, when non-zero and Cursor is "", asks for the page that holds
	// the puzzle with this id, with up to Limit/2 puzzles before it in the
	// order, so a person sees its neighbours; NextCursor and PrevCursor page
	// on from there. An id not in the listing gives ErrNotFound.
	Around int64
	// Played keeps the puzzles Player solved, or those Player never
	// played (see Played); Player is required with it.
	Played Played
	Player int64
	// Techniques keeps the puzzles whose logical path used every one of
	// these techniques (names as the logic package writes them, each
	// once); "" for no such filter.
	Techniques Techniques
	// Collection keeps the puzzles of one collection (its id; 0 for
	// every puzzle).
	Collection int64
	// Variant keeps the puzzles that have every one of these variants
	// (short names of variant.FamilyNames, joined by commas as Variants
	// holds them); "classic" keeps the classic puzzles only; "" for no
	// such filter (docs/api.md's variant parameter).
	Variant Variants
}

// Page limits of docs/api.md.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// Page is one page of a listing.
type Page struct {
	Puzzles    []Puzzle
	NextCursor string // "" on the last page
	PrevCursor string // "" on the first page; lists the page before this one
	Total      int64  // puzzles matching the query's filter, all pages
}
