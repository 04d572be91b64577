package templates

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// gradedSample is samplePuzzle graded 4.2 with XY-Wing its hardest
// technique, played enough for a typical time when secs is not 0.
func gradedSample(t *testing.T, secs int64) record.Puzzle {
	p := samplePuzzle(t)
	g := 4.2
	p.Grade, p.Technique, p.GradeVersion = &g, "XY-Wing", "test"
	p.SetGradeStatus()
	if secs > 0 {
		p.SetPlayerFigures(5, 4, secs, secs)
	}
	return p
}

// TestPuzzlePageHumanFirst: the puzzle page's first cards are the human
// measures (grade, hardest technique, typical player time); the engine's
// (backtracks, guesses, nodes, solve time) are all in one section, "What
// the search cost", and nowhere else.
func TestPuzzlePageHumanFirst(t *testing.T) {
	for _, secs := range []int64{0, 840} {
		p := gradedSample(t, secs)
		doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: p, Runs: 5, MinPlays: 3}))
		var order []string
		doc.Find(".measure").Each(func(_ int, s *goquery.Selection) { order = append(order, s.AttrOr("data-testid", "")) })
		if len(order) < 3 || order[0] != "measure-grade" || order[1] != "measure-technique" || order[2] != "measure-player-time" {
			t.Errorf("cards in the order %v, want grade, technique, player time first", order)
		}
		if got := byID(doc, "measure-technique").Find(".measure-value").Text(); got != "XY-Wing" {
			t.Errorf("hardest technique card %q", got)
		}
		want, explain := "14 min", "from 5 plays"
		if secs == 0 {
			want, explain = "–", "places it by its grade, at about 11 min"
		}
		time := byID(doc, "measure-player-time")
		if got := time.Find(".measure-value").Text(); got != want {
			t.Errorf("typical time card %q, want %q", got, want)
		}
		if got := time.Find(".measure-explain").Text(); !strings.Contains(got, explain) {
			t.Errorf("typical time explained as %q, want it to say %q", got, explain)
		}
		cost := byID(doc, "search-cost")
		if !strings.Contains(cost.Find("h2").Text(), "What the search cost") {
			t.Errorf("search section titled %q", cost.Find("h2").Text())
		}
		for _, id := range []string{"backtracks", "guesses", "nodes", "solve-time"} {
			if cost.Find(`[data-testid="measure-`+id+`"]`).Length() != 1 || byID(doc, "measure-"+id).Length() != 1 {
				t.Errorf("measure %s is not (only) in the search-cost section", id)
			}
		}
		if byID(doc, "measures").Find(`[data-testid="measure-backtracks"]`).Length() != 0 {
			t.Error("backtracks among the first cards")
		}
	}
}

// TestHistoryHumanFirst: the history's sort control offers the human
// order first as "Difficulty" and labels sort=difficulty "Search cost";
// every row shows its hardest technique.
func TestHistoryHumanFirst(t *testing.T) {
	rows := []record.Puzzle{gradedSample(t, 0), samplePuzzle(t)}
	rows[1].ID = 43
	doc, _ := render(t, HistoryPage(HistoryView{Sort: record.SortHuman, Desc: true, Page: record.Page{Puzzles: rows, Total: 2}}))
	opts := doc.Find("#sort option")
	if v, _ := opts.First().Attr("value"); v != string(record.SortHuman) || opts.First().Text() != "Difficulty" {
		t.Errorf("first sort option %q %q, want human, Difficulty", v, opts.First().Text())
	}
	if _, sel := opts.First().Attr("selected"); !sel {
		t.Error("the human order is not selected")
	}
	if got := doc.Find(`#sort option[value="difficulty"]`).Text(); got != "Search cost" {
		t.Errorf("sort=difficulty labelled %q, want Search cost", got)
	}
	if byID(doc, "th-technique").Length() != 1 {
		t.Error("no hardest-technique column")
	}
	var got []string
	doc.Find(`[data-testid="col-technique"]`).Each(func(_ int, s *goquery.Selection) { got = append(got, s.Text()) })
	if strings.Join(got, ",") != "XY-Wing,–" {
		t.Errorf("technique column %v", got)
	}
	if s := byID(doc, "total").Text(); !strings.Contains(s, "hardest first (the players' time, else the grade)") {
		t.Errorf("summary %q", s)
	}
}

// TestHomeHumanLists: the home page's lists say how hard a puzzle is for a
// person (grade, technique, typical time), not what the search cost.
func TestHomeHumanLists(t *testing.T) {
	ps := []record.Puzzle{gradedSample(t, 840), gradedSample(t, 0)}
	doc, html := render(t, HomePage(HomeView{Recent: ps, Hardest: ps}))
	var got []string
	byID(doc, "hardest").Find(`[data-testid="mini-human"]`).Each(func(_ int, s *goquery.Selection) { got = append(got, s.Text()) })
	want := []string{"grade 4.2 · XY-Wing · typical player 14 min", "grade 4.2 · XY-Wing"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("hardest list reads %q, want %q", got, want)
	}
	for _, bad := range []string{"backtrack", "µs", " ms"} {
		if strings.Contains(byID(doc, "hardest").Text()+byID(doc, "recent").Text(), bad) {
			t.Errorf("a home list shows %q", bad)
		}
	}
	if !strings.Contains(html, `href="/puzzles?sort=human&amp;order=desc"`) {
		t.Error("the hardest list's link is not to the human order")
	}
}
