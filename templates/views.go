package templates

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The navigation entries of the header; Meta.Nav names the current one.
const (
	NavSubmit  = "submit"
	NavHistory = "history"
	NavStats   = "stats"
	NavMe      = "me"
)

// Meta describes a page to the layout.
type Meta struct {
	Title string // the page's own title; the layout appends the app's name
	Nav   string // NavSubmit, NavHistory, NavStats, or "" for none
}

// Example is a puzzle the submit page offers to load.
type Example struct {
	Label  string // "Easy", "Extreme", ...
	Note   string // where it comes from, one short phrase
	Puzzle string // 81 characters, '.' for blanks
}

// SubmitForm is the state of the submit form: empty on a fresh page, the
// user's input and what went wrong after a rejected post.
type SubmitForm struct {
	CSRF      string      // the token for the hidden _csrf field
	Input     string      // the paste box's text, exactly as the user sent it
	Cells     sudoku.Grid // what the grid editor shows
	Error     string      // why the input was rejected; "" when it was not
	ErrorPos  int         // 1-based character position in Input of a bad character; 0 for none
	Conflicts []int       // cells (0-80) to highlight: two givens that clash
	// Closed says why this visitor cannot submit (serve
	// --anonymous-writes=false without an account); "" when they can.
	Closed string
}

// conflict reports whether cell i is one of f.Conflicts.
func (f SubmitForm) conflict(i int) bool {
	for _, c := range f.Conflicts {
		if c == i {
			return true
		}
	}
	return false
}

// errorContext splits Input around the bad character at ErrorPos, keeping
// up to 24 characters either side, so the page can point at it.
func (f SubmitForm) errorContext() (before, bad, after string, ok bool) {
	r := []rune(f.Input)
	if f.ErrorPos < 1 || f.ErrorPos > len(r) {
		return "", "", "", false
	}
	i := f.ErrorPos - 1
	lo, hi := max(i-24, 0), min(i+25, len(r))
	before = string(r[lo:i])
	if lo > 0 {
		before = "…" + before
	}
	after = string(r[i+1 : hi])
	if hi < len(r) {
		after += "…"
	}
	return before, string(r[i]), after, true
}

// HomeView is the submit page.
type HomeView struct {
	Form     SubmitForm
	Examples []Example
	Recent   []record.Puzzle // newest first
	Hardest  []record.Puzzle // hardest first
	Now      time.Time       // for "5 minutes ago"
	Daily    DailyLinks      // the puzzle of the day

	// Variants are the newest variant puzzles, newest first; none: the
	// home page has no "Recent variants" list.
	Variants []record.Puzzle
}

// PuzzleView is one puzzle's page.
type PuzzleView struct {
	Puzzle     record.Puzzle
	Fresh      bool // just archived by this visitor
	Duplicate  bool // just submitted again: it was archived already
	Runs       int  // the fewest timed runs the solve time can be the median of
	MinPlays   int  // the plays a typical player's time needs (ratings.MinPlays)
	Now        time.Time
	HistoryURL string // the history sorted by difficulty, around this puzzle
	// ShowSolution opens the analysis (the solution, the replay of the
	// search, the explanation) at once, for ?solution=1 and for the visitor
	// who has just submitted the puzzle; otherwise the page opens on the
	// givens, ready to play.
	ShowSolution bool
	Origin       string // the site's origin for absolute share links ("http://host:port"); "" for relative ones
	SolutionURL  string // this page with the analysis open
	// Equivalents are the archived ways of writing this puzzle (this one
	// included, the first archived first); one entry when there are none.
	Equivalents []record.Puzzle
	// Daily is the date (YYYY-MM-DD) this puzzle is the puzzle of the day
	// of, when the visitor came by /daily; "" otherwise.
	Daily string
	// Hidden is set for a hidden puzzle, which only moderators see: the
	// banner that says so, with the restore form.
	Hidden *HiddenBanner
	// Flag is the "Report this puzzle" form; nil where the archive keeps
	// no flags.
	Flag *FlagForm
	// Practice is the technique practised (?practice=, from a technique's
	// page); its Name is "" outside practice mode.
	Practice logic.Technique
	// Collect lists the collections that hold the puzzle, with the "Add to
	// collection" form; nil where the archive keeps no collections.
	Collect *CollectBox
}

// title is the page's title: the puzzle's number, after the day it is the
// puzzle of.
func (v PuzzleView) title() string {
	t := "Puzzle #" + strconv.FormatInt(v.Puzzle.ID, 10)
	if v.Daily != "" {
		t = "Puzzle of the day, " + DailyDate(v.Daily) + " · " + t
	}
	return t
}

// DailyDate writes a date of the puzzle of the day (YYYY-MM-DD) as people
// read it: "Wednesday, 25 November 2026". Text that is no date is returned
// as it is.
func DailyDate(date string) string {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return date
	}
	return d.Format("Monday, 2 January 2006")
}

// HistoryView is one page of the history table.
type HistoryView struct {
	Sort       record.Sort
	Desc       bool
	UniqueOnly bool
	Distinct   bool // one row per puzzle: its first archived entry
	// GradeMin and GradeMax bound the grade, in tenths; 0 for no bound.
	GradeMin, GradeMax int64
	Band               sudoku.Band // "" for every band
	// Played is the played filter ("" for none); HasPlayer says whether the
	// request has a player, for whom the filter is offered.
	Played    record.Played
	HasPlayer bool
	// Techniques keeps the puzzles whose path uses each of them ("" for
	// no such filter).
	Techniques record.Techniques
	Limit      int // 0 for the default
	Cursor     string
	Highlight  int64 // a puzzle to mark in the table (the "around" puzzle); 0 for none
	Page       record.Page
	Now        time.Time
	// Collection, when set, makes the page that collection's: its puzzles
	// under its credits, at /collections/{id}.
	Collection *record.Collection
	// AddPuzzle is a collection's "Add a puzzle" form, for those who may
	// add to it; nil for everyone else and on the history.
	AddPuzzle *AddPuzzleForm

	// Variant keeps the puzzles with every one of these variants, or the
	// classic ones ("classic"); "" for no such filter.
	Variant record.Variants
}

// path is where the view lives: the history, or a collection's page.
func (v HistoryView) path() string {
	if v.Collection != nil {
		return CollectionURL(v.Collection.ID)
	}
	return "/puzzles"
}

// query returns the URL query of the view with sort, order and cursor
// replaced.
func (v HistoryView) query(s record.Sort, desc bool, cursor string) string {
	q := v.filters()
	q.Set("sort", string(s))
	q.Set("order", pick(desc, "desc", "asc"))
	if v.Limit != 0 && v.Limit != record.DefaultLimit {
		q.Set("limit", strconv.Itoa(v.Limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	return v.path() + "?" + q.Encode()
}

// filters returns the query parameters of the view's filters: every one
// that narrows the listing, none that orders or pages it. The history's
// links and its download links (ExportURL) all start from it, so a filter
// the page shows cannot be dropped by one of them.
func (v HistoryView) filters() url.Values {
	q := url.Values{}
	if v.Distinct {
		q.Set("distinct", "1")
	}
	if v.GradeMin > 0 {
		q.Set("grade_min", Tenths(v.GradeMin))
	}
	if v.GradeMax > 0 {
		q.Set("grade_max", Tenths(v.GradeMax))
	}
	if v.UniqueOnly {
		q.Set("unique", "1")
	}
	if v.Band != "" {
		q.Set("band", string(v.Band))
	}
	if v.Played != "" {
		q.Set("played", string(v.Played))
	}
	for _, t := range v.Techniques.Names() {
		q.Add("technique", logic.Slug(t))
	}
	for _, n := range v.Variant.List() {
		q.Add("variant", n)
	}
	return q
}

// AllPlayedURL is the listing without its played filter.
func (v HistoryView) AllPlayedURL() string {
	v.Played = ""
	return v.query(v.Sort, v.Desc, "")
}

// SortURL is where a column header links: the same column in the other
// direction when it is the current sort, else that column from the top
// (descending, docs/api.md's default). Paging restarts either way.
func (v HistoryView) SortURL(s record.Sort) string {
	if s == v.Sort {
		return v.query(s, !v.Desc, "")
	}
	return v.query(s, true, "")
}

// NextURL links to the next page, "" on the last.
func (v HistoryView) NextURL() string {
	if v.Page.NextCursor == "" {
		return ""
	}
	return v.query(v.Sort, v.Desc, v.Page.NextCursor)
}

// PrevURL links to the previous page, "" on the first.
func (v HistoryView) PrevURL() string {
	if v.Page.PrevCursor == "" {
		return ""
	}
	return v.query(v.Sort, v.Desc, v.Page.PrevCursor)
}

// PrintURL links to this page of the history laid out to print, four
// puzzles to a sheet.
func (v HistoryView) PrintURL() string {
	return "/puzzles/print?" + strings.TrimPrefix(v.query(v.Sort, v.Desc, v.Cursor), "/puzzles?")
}

// FirstURL links to the first page of the same view.
func (v HistoryView) FirstURL() string { return v.query(v.Sort, v.Desc, "") }

// ariaSort is the aria-sort value of the current sort column.
func (v HistoryView) ariaSort() string {
	if v.Desc {
		return "descending"
	}
	return "ascending"
}

// arrow is the sort indicator of column s.
func (v HistoryView) arrow(s record.Sort) string {
	switch {
	case s != v.Sort:
		return "↕"
	case v.Desc:
		return "↓"
	default:
		return "↑"
	}
}

// SortLabels names each sort order for people: record.SortTable's labels.
var SortLabels = func() map[record.Sort]string {
	m := make(map[record.Sort]string, len(record.SortTable))
	for _, info := range record.SortTable {
		m[info.Sort] = info.Label
	}
	return m
}()

// StatsView is the archive at a glance (see stats.go for the charts).
type StatsView struct {
	Total  int64 // archived puzzles
	Unique int64 // of which have exactly one solution
	Stats  record.Stats
	// Variants counts the puzzles by variant, classic first; nil: the
	// archive does not count them, and the page has no such table.
	Variants []VariantCount
}

// VariantCount is one row of /stats' variant table: a variant's short
// name ("classic" for the puzzles without rules) and its puzzles.
type VariantCount struct {
	Name string
	N    int64
}

// ErrorView is a failed request's page.
type ErrorView struct {
	Status  int    // HTTP status code
	Title   string // the status text, "Not Found"
	Message string // what went wrong, safe to show
	// Retry is the address to ask again ("" for none): a GET that the
	// server could not answer now (503).
	Retry string
}

// ShareURL is the share link of a puzzle: the puzzle itself in the path,
// so it opens on any server, archived or not. base is the site's origin
// ("https://example.org"), or "" for a link relative to the site.
func ShareURL(base string, givens sudoku.Grid) string {
	return base + "/p/" + givens.String()
}

// ShareView is the page of a shared puzzle (/p/<81 cells>) that is not in
// the archive yet: playable, with a button that archives it.
type ShareView struct {
	Puzzle record.Puzzle // solved and measured, not archived (ID 0)
	CSRF   string
	Origin string // the site's origin, as in PuzzleView
	Error  string // why it cannot be archived (clashing givens, no solution); "" when it can
}

// PrintCard is one puzzle as it prints: its givens, large, with what names
// it and the link that opens it again.
type PrintCard struct {
	ID       int64 // 0 for a puzzle not in the archive
	Givens   sudoku.Grid
	Clues    int
	Band     sudoku.Band
	ShareURL string
	SheetEnd bool // the last card of a printed sheet of four
	// Drawing is a variant's rules, drawn on the card's board and written
	// under its head; nil for a classic puzzle.
	Drawing *VariantDrawing
}

// CardOf is the print card of an archived puzzle.
func CardOf(p record.Puzzle, base string) PrintCard {
	c := PrintCard{ID: p.ID, Givens: p.Givens, Clues: p.Clues, Band: p.Band, ShareURL: ShareURL(base, p.Givens), Drawing: VariantOf(p)}
	if c.Drawing != nil {
		// A variant's givens alone are another puzzle: its page is its link.
		c.ShareURL = base + PuzzleURL(p.ID)
	}
	return c
}

// PrintView is the "4 per page" sheet of one page of the history.
type PrintView struct {
	Cards   []PrintCard
	BackURL string // the history page the sheet was made from
}

// Tenths writes a grade kept in tenths as people read it: 72 is "7.2".
func Tenths(t int64) string {
	return strconv.FormatInt(t/10, 10) + "." + strconv.FormatInt(t%10, 10)
}
