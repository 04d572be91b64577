package templates

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

const (
	norvig         = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
	norvigSolution = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
)

// render renders c and parses the HTML.
func render(t *testing.T, c templ.Component) (*goquery.Document, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	html := buf.String()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatalf("parse rendered HTML: %v", err)
	}
	return doc, html
}

// byID selects elements by data-testid.
func byID(doc *goquery.Document, id string) *goquery.Selection {
	return doc.Find(`[data-testid="` + id + `"]`)
}

func mustGrid(t *testing.T, s string) sudoku.Grid {
	t.Helper()
	g, err := sudoku.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func samplePuzzle(t *testing.T) record.Puzzle {
	return record.Puzzle{
		ID: 42, Givens: mustGrid(t, norvig), Solution: mustGrid(t, norvigSolution),
		Clues: 32, Solutions: 1, Unique: true, Backtracks: 1234, Guesses: 56, Nodes: 7890,
		SolveNS: 1_234_567, SubmittedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Submissions: 3,
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		ns   int64
		want string
	}{
		{0, "0 ns"}, {999, "999 ns"}, {1_000, "1.00 µs"}, {57_912, "57.9 µs"}, {999_400, "999 µs"},
		{999_999, "1000 µs"}, {1_066_372, "1.07 ms"}, {19_702_823, "19.7 ms"}, {123_456_789, "123 ms"},
		{1_234_000_000, "1.23 s"}, {75_000_000_000, "75.0 s"},
	} {
		if got := Duration(tc.ns); got != tc.want {
			t.Errorf("Duration(%d) = %q, want %q", tc.ns, got, tc.want)
		}
	}
}

func TestCountAndPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"}, {-4500, "-4,500"}} {
		if got := Count(tc.n); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := Plural(1, "clue", "clues"); got != "1 clue" {
		t.Errorf("Plural(1) = %q", got)
	}
	if got := Plural(int64(2500), "clue", "clues"); got != "2,500 clues" {
		t.Errorf("Plural(2500) = %q", got)
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want string
	}{
		{-time.Minute, "just now"}, {10 * time.Second, "just now"}, {time.Minute, "a minute ago"},
		{5 * time.Minute, "5 minutes ago"}, {time.Hour, "an hour ago"}, {5 * time.Hour, "5 hours ago"},
		{30 * time.Hour, "yesterday"}, {12 * 24 * time.Hour, "12 days ago"}, {60 * 24 * time.Hour, "22 Sep 2026"},
	} {
		if got := Ago(now.Add(-tc.ago), now); got != tc.want {
			t.Errorf("Ago(-%v) = %q, want %q", tc.ago, got, tc.want)
		}
	}
}

func TestLayoutMarksCurrentNav(t *testing.T) {
	for _, tc := range []struct {
		nav, want string
	}{{NavSubmit, "Submit"}, {NavHistory, "Puzzles"}, {NavStats, "Stats"}, {NavGenerate, "New puzzle"}, {NavTechniques, "Techniques"}, {NavMe, "My games"}} {
		t.Run(tc.nav, func(t *testing.T) {
			doc, _ := render(t, Layout(Meta{Title: "x", Nav: tc.nav}))
			cur := doc.Find(`nav a[aria-current="page"]`)
			if cur.Length() != 1 || cur.Text() != tc.want {
				t.Errorf("current nav = %d links %q, want one %q", cur.Length(), cur.Text(), tc.want)
			}
			if doc.Find("nav a").Length() != 6 {
				t.Errorf("nav has %d links, want 6", doc.Find("nav a").Length())
			}
		})
	}
}

func TestLayoutHasNoInlineScriptOrStyle(t *testing.T) {
	pages := map[string]templ.Component{
		"home":    HomePage(HomeView{Examples: []Example{{Label: "Easy", Puzzle: norvig}}, Recent: []record.Puzzle{samplePuzzle(t)}}),
		"puzzle":  PuzzlePage(PuzzleView{Puzzle: samplePuzzle(t), Runs: 3}),
		"history": HistoryPage(HistoryView{Sort: record.SortDifficulty, Desc: true, Page: record.Page{Puzzles: []record.Puzzle{samplePuzzle(t)}, Total: 1}}),
		"stats":   StatsPage(StatsView{Total: 3, Unique: 2}),
		"error":   ErrorPage(ErrorView{Status: 404, Title: "Not Found", Message: "gone"}),
	}
	for name, c := range pages {
		t.Run(name, func(t *testing.T) {
			doc, _ := render(t, c)
			doc.Find("script").Each(func(_ int, s *goquery.Selection) {
				if src, _ := s.Attr("src"); src == "" || strings.TrimSpace(s.Text()) != "" {
					t.Errorf("inline script: %q", s.Text())
				}
			})
			if n := doc.Find("[style], style").Length(); n != 0 {
				t.Errorf("%d inline styles; the CSP allows none", n)
			}
			doc.Find("*").Each(func(_ int, s *goquery.Selection) {
				for _, a := range s.Nodes[0].Attr {
					if strings.HasPrefix(a.Key, "on") {
						t.Errorf("inline event handler %s on <%s>", a.Key, s.Nodes[0].Data)
					}
				}
			})
			// Every form control has a label.
			doc.Find("input:not([type=hidden]), textarea, select").Each(func(_ int, s *goquery.Selection) {
				id, _ := s.Attr("id")
				_, aria := s.Attr("aria-label")
				if !aria && (id == "" || doc.Find(`label[for="`+id+`"]`).Length() == 0) {
					t.Errorf("unlabelled <%s id=%q>", s.Nodes[0].Data, id)
				}
			})
		})
	}
}

func TestHomePageEmptyForm(t *testing.T) {
	v := HomeView{
		Form:     SubmitForm{CSRF: "tok-123"},
		Examples: []Example{{Label: "Easy", Puzzle: norvig}, {Label: "Hard", Puzzle: norvig}},
	}
	doc, _ := render(t, HomePage(v))
	form := byID(doc, "submit-form")
	if m, _ := form.Attr("method"); m != "post" {
		t.Errorf("form method %q", m)
	}
	if a, _ := form.Attr("action"); a != "/puzzles" {
		t.Errorf("form action %q", a)
	}
	if tok, _ := form.Find(`input[type=hidden][name=_csrf]`).Attr("value"); tok != "tok-123" {
		t.Errorf("csrf field %q", tok)
	}
	if n := byID(doc, "paste-box").Filter(`textarea[name=puzzle]`).Length(); n != 1 {
		t.Errorf("%d paste boxes named puzzle", n)
	}
	cells := byID(doc, "grid-editor").Find("input")
	if cells.Length() != 81 {
		t.Fatalf("grid has %d inputs", cells.Length())
	}
	cells.Each(func(i int, s *goquery.Selection) {
		if _, named := s.Attr("name"); named {
			t.Errorf("cell %d has a name: the form must send only the paste box", i)
		}
		tab, hasTab := s.Attr("tabindex")
		if (i == 0) == hasTab {
			t.Errorf("cell %d tabindex %q: only the first cell is a tab stop", i, tab)
		}
	})
	if byID(doc, "form-error").Length() != 0 {
		t.Error("error shown on a fresh form")
	}
	if href, _ := byID(doc, "example-2").Attr("href"); href != "/?example=2" {
		t.Errorf("example link %q", href)
	}
	if ex, _ := byID(doc, "example-1").Attr("data-example"); ex != norvig {
		t.Errorf("example data %q", ex)
	}
	if got := byID(doc, "recent").Find(".empty").Text(); !strings.Contains(got, "Nothing archived yet") {
		t.Errorf("empty recent list says %q", got)
	}
}

func TestHomePageRejectedInput(t *testing.T) {
	input := "<b>55</b>" + strings.Repeat(".", 79)
	f := SubmitForm{Input: input, Error: "'<' at position 1 is not a cell", ErrorPos: 1}
	doc, html := render(t, HomePage(HomeView{Form: f}))
	if strings.Contains(html, "<b>55</b>") {
		t.Error("input rendered unescaped")
	}
	if !strings.Contains(html, "&lt;b&gt;55") {
		t.Error("escaped input missing")
	}
	if got := byID(doc, "paste-box").Text(); got != input {
		t.Errorf("paste box = %q, want the input %q", got, input)
	}
	if got := byID(doc, "form-error-message").Text(); got != "'<' at position 1 is not a cell." {
		t.Errorf("message %q", got)
	}
	if got := byID(doc, "error-context").Find("mark").Text(); got != "<" {
		t.Errorf("marked character %q, want <", got)
	}
	if v, _ := byID(doc, "paste-box").Attr("aria-invalid"); v != "true" {
		t.Error("paste box not marked invalid")
	}
}

func TestHomePageConflictCells(t *testing.T) {
	g := mustGrid(t, "5...5"+strings.Repeat(".", 76))
	f := SubmitForm{Input: g.String(), Cells: g, Error: "row 1 has two 5s", Conflicts: []int{0, 4}}
	doc, _ := render(t, HomePage(HomeView{Form: f}))
	var marked []string
	byID(doc, "grid-editor").Find("td.conflict input").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-cell")
		marked = append(marked, id+"="+s.AttrOr("value", "")+"/"+s.AttrOr("aria-invalid", ""))
	})
	if diff := cmp.Diff([]string{"0=5/true", "4=5/true"}, marked); diff != "" {
		t.Errorf("conflict cells (-want +got):\n%s", diff)
	}
	if v := byID(doc, "cell-1").AttrOr("value", "x"); v != "" {
		t.Errorf("blank cell shows %q", v)
	}
}

func TestBoardTellsGivensFromSolvedDigits(t *testing.T) {
	p := samplePuzzle(t)
	doc, _ := render(t, Board(p))
	board := byID(doc, "board")
	if got := board.Find("td.given").Length(); got != p.Clues {
		t.Errorf("%d givens, want %d", got, p.Clues)
	}
	if got := board.Find("td.solved").Length(); got != 81-p.Clues {
		t.Errorf("%d solved cells, want %d", got, 81-p.Clues)
	}
	var digits strings.Builder
	board.Find("td").Each(func(_ int, s *goquery.Selection) { digits.WriteString(s.Text()) })
	if digits.String() != norvigSolution {
		t.Errorf("board reads %s, want the solution", digits.String())
	}
	if v, _ := board.Attr("data-solution"); v != norvigSolution {
		t.Errorf("data-solution %q", v)
	}
}

func TestPuzzlePage(t *testing.T) {
	p := samplePuzzle(t)
	t.Run("unique", func(t *testing.T) {
		doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: p, Runs: 5, HistoryURL: "/puzzles?around=42", Fresh: true}))
		if byID(doc, "not-unique-warning").Length() != 0 {
			t.Error("warning on a unique puzzle")
		}
		if byID(doc, "notice-new").Length() != 1 || byID(doc, "notice-dup").Length() != 0 {
			t.Error("want the new notice only")
		}
		for id, want := range map[string]string{
			"measure-backtracks": "1,234", "measure-guesses": "56", "measure-nodes": "7,890",
			"measure-solve-time": "1.23 ms", "measure-solutions": "exactly one", "measure-clues": "32",
		} {
			if got := byID(doc, id).Find(".measure-value").Text(); got != want {
				t.Errorf("%s = %q, want %q", id, got, want)
			}
			if byID(doc, id).Find(".measure-explain").Text() == "" {
				t.Errorf("%s is not explained", id)
			}
		}
		if got := byID(doc, "measure-solve-time").Find(".measure-explain").Text(); !strings.Contains(got, "Median wall time of at least 5 runs") {
			t.Errorf("solve time explained as %q", got)
		}
		if v, _ := byID(doc, "puzzle-string").Attr("value"); v != norvig {
			t.Errorf("puzzle string %q", v)
		}
		if _, ro := byID(doc, "puzzle-string").Attr("readonly"); !ro {
			t.Error("puzzle string field is editable")
		}
		if doc.Find(`button[data-copy="puzzle-string"]`).Length() != 1 {
			t.Error("no copy button")
		}
		if href, _ := byID(doc, "json-link").Attr("href"); href != "/api/puzzles/42" {
			t.Errorf("json link %q", href)
		}
		if href, _ := byID(doc, "history-link").Attr("href"); href != "/puzzles?around=42" {
			t.Errorf("history link %q", href)
		}
		if u, _ := byID(doc, "replay-slot").Attr("data-trace-url"); u != "/api/puzzles/42/trace" {
			t.Errorf("replay slot trace url %q", u)
		}
	})
	t.Run("not unique, duplicate", func(t *testing.T) {
		q := p
		q.Unique, q.Solutions = false, 2
		doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: q, Runs: 3, Duplicate: true}))
		if byID(doc, "not-unique-warning").Length() != 1 {
			t.Error("no warning on a puzzle with two solutions")
		}
		if got := byID(doc, "notice-dup").Text(); !strings.Contains(got, "submitted 3 times") {
			t.Errorf("duplicate notice %q", got)
		}
		if got := byID(doc, "unique-tag").Text(); got != "Not unique" {
			t.Errorf("tag %q", got)
		}
	})
}

func historyRows(n int) []record.Puzzle {
	ps := make([]record.Puzzle, n)
	for i := range ps {
		ps[i] = record.Puzzle{ID: int64(i + 1), Clues: 20 + i, Backtracks: int64(100 * i), Unique: i%2 == 0, SolveNS: int64(1000 * i), Submissions: 1}
	}
	return ps
}

func TestHistorySortHeaders(t *testing.T) {
	for _, tc := range []struct {
		name      string
		sort      record.Sort
		desc      bool
		unique    bool
		wantLinks map[string]string // data-testid -> href
		wantSort  string            // th data-testid with aria-sort
		wantAria  string
		wantArrow string
	}{
		{
			name: "backtracks desc", sort: record.SortBacktracks, desc: true,
			wantLinks: map[string]string{
				"sort-backtracks": "/puzzles?order=asc&sort=backtracks",
				"sort-clues":      "/puzzles?order=desc&sort=clues",
				"sort-solve_time": "/puzzles?order=desc&sort=solve_time",
				"sort-submitted":  "/puzzles?order=desc&sort=submitted",
			},
			wantSort: "th-backtracks", wantAria: "descending", wantArrow: "↓",
		},
		{
			name: "clues asc, unique only", sort: record.SortClues, desc: false, unique: true,
			wantLinks: map[string]string{
				"sort-clues":      "/puzzles?order=desc&sort=clues&unique=1",
				"sort-backtracks": "/puzzles?order=desc&sort=backtracks&unique=1",
			},
			wantSort: "th-clues", wantAria: "ascending", wantArrow: "↑",
		},
		{
			name: "difficulty: no column sorted", sort: record.SortDifficulty, desc: true,
			wantLinks: map[string]string{"sort-backtracks": "/puzzles?order=desc&sort=backtracks"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := HistoryView{Sort: tc.sort, Desc: tc.desc, UniqueOnly: tc.unique, Page: record.Page{Puzzles: historyRows(3), Total: 3}}
			doc, _ := render(t, HistoryPage(v))
			for id, want := range tc.wantLinks {
				if got, _ := byID(doc, id).Attr("href"); got != want {
					t.Errorf("%s href = %q, want %q", id, got, want)
				}
			}
			sorted := doc.Find("th[aria-sort]")
			if tc.wantSort == "" {
				if sorted.Length() != 0 {
					t.Errorf("%d columns claim aria-sort", sorted.Length())
				}
				return
			}
			if sorted.Length() != 1 || sorted.AttrOr("data-testid", "") != tc.wantSort {
				t.Fatalf("aria-sort on %d columns (%s), want %s", sorted.Length(), sorted.AttrOr("data-testid", ""), tc.wantSort)
			}
			if got := sorted.AttrOr("aria-sort", ""); got != tc.wantAria {
				t.Errorf("aria-sort %q, want %q", got, tc.wantAria)
			}
			if got := sorted.Find(".arrow").Text(); got != tc.wantArrow {
				t.Errorf("arrow %q, want %q", got, tc.wantArrow)
			}
			if checked := byID(doc, "unique-filter").Is("[checked]"); checked != tc.unique {
				t.Errorf("unique filter checked = %v", checked)
			}
		})
	}
}

func TestHistoryRowsAndPaging(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	rows := historyRows(3)
	rows[1].SubmittedAt = now.Add(-3 * time.Hour)
	v := HistoryView{
		Sort: record.SortSolveTime, Desc: false, Limit: 3, Highlight: 2, Now: now,
		Page: record.Page{Puzzles: rows, Total: 9, NextCursor: "c+/=", PrevCursor: "p1"},
	}
	doc, _ := render(t, HistoryPage(v))
	if got := byID(doc, "total").Text(); got != "9 puzzles, fastest first." {
		t.Errorf("summary %q", got)
	}
	trs := byID(doc, "history-row")
	if trs.Length() != 3 {
		t.Fatalf("%d rows", trs.Length())
	}
	second := trs.Eq(1)
	for id, want := range map[string]string{
		"col-clues": "21", "col-backtracks": "100", "col-solve-time": "1.00 µs", "col-unique": "2 or more",
		"col-submitted": "3 hours ago", "col-submissions": "1",
	} {
		if got := strings.TrimSpace(second.Find(`[data-testid="` + id + `"]`).Text()); got != want {
			t.Errorf("row 2 %s = %q, want %q", id, got, want)
		}
	}
	if dt, _ := second.Find("time").Attr("datetime"); dt != "2026-11-21T09:00:00Z" {
		t.Errorf("datetime %q", dt)
	}
	if !second.HasClass("highlight") || second.AttrOr("aria-current", "") != "true" {
		t.Error("around-puzzle row not highlighted")
	}
	if trs.Eq(0).HasClass("highlight") {
		t.Error("wrong row highlighted")
	}
	if href, _ := second.Find("a").Attr("href"); href != "/puzzles/2" {
		t.Errorf("row link %q", href)
	}
	if got, _ := byID(doc, "next").Attr("href"); got != "/puzzles?cursor=c%2B%2F%3D&limit=3&order=asc&sort=solve_time" {
		t.Errorf("next = %q", got)
	}
	if got, _ := byID(doc, "prev").Attr("href"); got != "/puzzles?cursor=p1&limit=3&order=asc&sort=solve_time" {
		t.Errorf("prev = %q", got)
	}

	v.Page.NextCursor, v.Page.PrevCursor = "", ""
	doc, _ = render(t, HistoryPage(v))
	if byID(doc, "next").Length()+byID(doc, "prev").Length() != 0 {
		t.Error("paging links on a single page")
	}
}

func TestHistoryEmpty(t *testing.T) {
	doc, _ := render(t, HistoryPage(HistoryView{Sort: record.SortDifficulty, Desc: true}))
	if got := byID(doc, "history-empty").Text(); !strings.Contains(got, "The archive is empty") {
		t.Errorf("empty state %q", got)
	}
	if byID(doc, "history-table").Length() != 0 {
		t.Error("table shown for no puzzles")
	}
}

func TestStatsPage(t *testing.T) {
	doc, _ := render(t, StatsPage(StatsView{Total: 1200, Unique: 1194}))
	for id, want := range map[string]string{"stat-total": "1,200", "stat-unique": "1,194", "stat-not-unique": "6"} {
		if got := byID(doc, id).Text(); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	if !strings.Contains(doc.Find(".stat-note").Text(), "<1% of all") {
		t.Errorf("notes %q", doc.Find(".stat-note").Text())
	}
	doc, _ = render(t, StatsPage(StatsView{}))
	if byID(doc, "stats-empty").Length() != 1 {
		t.Error("no empty state for an empty archive")
	}
}

func TestErrorPage(t *testing.T) {
	doc, html := render(t, ErrorPage(ErrorView{Status: 404, Title: "Not Found", Message: "No <i>such</i> puzzle."}))
	if got := byID(doc, "error-status").Text(); got != "404" {
		t.Errorf("status %q", got)
	}
	if got := byID(doc, "error-message").Text(); got != "No <i>such</i> puzzle." {
		t.Errorf("message %q", got)
	}
	if strings.Contains(html, "<i>such") {
		t.Error("message rendered unescaped")
	}
	if doc.Find(`a[href="/"]`).Length() == 0 {
		t.Error("no link home")
	}
	if got := doc.Find("title").Text(); got != "Not Found · Sudoku Archive" {
		t.Errorf("title %q", got)
	}
}

// BenchmarkHistoryPage renders the largest history page (100 rows, each
// with its SVG thumbnail), the heaviest page the server renders.
func BenchmarkHistoryPage(b *testing.B) {
	t := &testing.T{}
	rows := make([]record.Puzzle, record.MaxLimit)
	for i := range rows {
		rows[i] = samplePuzzle(t)
		rows[i].ID = int64(i + 1)
	}
	c := HistoryPage(HistoryView{Sort: record.SortDifficulty, Desc: true, Page: record.Page{Puzzles: rows, Total: 1_000_000, NextCursor: "x"}})
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := c.Render(context.Background(), &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KiB/page")
}

// BenchmarkPuzzlePage renders one puzzle's page.
func BenchmarkPuzzlePage(b *testing.B) {
	c := PuzzlePage(PuzzleView{Puzzle: samplePuzzle(&testing.T{}), Runs: 3, HistoryURL: "/puzzles?around=42"})
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := c.Render(context.Background(), &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KiB/page")
}

func TestThumbPath(t *testing.T) {
	var g sudoku.Grid
	if got := thumbPath(g); got != "" {
		t.Errorf("empty grid: %q", got)
	}
	g[0], g[10], g[80] = 1, 2, 3 // (5,5), (15,15), (85,85)
	if got, want := thumbPath(g), "M5 5h0m10 10h0m70 70h0"; got != want {
		t.Errorf("thumbPath = %q, want %q", got, want)
	}
	g[8] = 4 // (85,5) comes before (15,15): a move back left
	if got, want := thumbPath(g), "M5 5h0m80 0h0m-70 10h0m70 70h0"; got != want {
		t.Errorf("thumbPath = %q, want %q", got, want)
	}
}
