package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

func TestStatsPageCharts(t *testing.T) {
	s, f := newTestServer(t, Config{})
	rec := get(t, s, "/stats")
	doc := page(t, rec, http.StatusOK)
	if tid(doc, "stats-empty").Length() != 1 || doc.Find("svg.chart-svg").Length() != 0 || tid(doc, "band-table").Length() != 0 {
		t.Error("empty archive: want the empty state and no charts")
	}
	if body := rec.Body.String(); strings.Contains(body, "NaN") || strings.Contains(body, "Inf") {
		t.Error("empty archive: NaN or Inf on the page")
	}
	if tid(doc, "collections-table").Find("tbody tr").Length() != 7 {
		t.Error("the band thresholds' table is missing on an empty archive")
	}

	seed(t, f, 40) // grades 1.0 + (i*7%40)/10: easy to fiendish
	rec = get(t, s, "/stats")
	doc = page(t, rec, http.StatusOK)
	if strings.Contains(rec.Body.String(), "NaN") {
		t.Error("NaN on the page")
	}
	if got := tid(doc, "stat-submissions").Text(); got != "40" {
		t.Errorf("submissions %q", got)
	}
	counts := map[string]string{}
	for _, b := range sudoku.Bands {
		row := tid(doc, "band-"+string(b.Band))
		counts[string(b.Band)] = row.Find(`[data-testid="band-count"]`).Text()
		if href := row.Find("a").AttrOr("href", ""); href != "/puzzles?sort=grade&order=desc&band="+string(b.Band) {
			t.Errorf("%s links to %q", b.Band, href)
		}
	}
	// Of the 30 with one solution, grades 1.0-2.0 eight times, 2.1-3.4
	// ten, 3.5-4.6 nine, 4.7-4.9 three; the 10 with several solutions
	// have no grade, so no band: a row of their own.
	for band, want := range map[string]string{"easy": "8", "medium": "10", "hard": "9", "fiendish": "3", "extreme": "0"} {
		if counts[band] != want {
			t.Errorf("band %s: %q puzzles, want %s", band, counts[band], want)
		}
	}
	if got := tid(doc, "band-none").Find(`[data-testid="band-count"]`).Text(); got != "10" {
		t.Errorf("no band: %q puzzles, want 10", got)
	}
	for _, id := range []string{"chart-backtracks", "chart-solve-time", "chart-clues"} {
		fig := tid(doc, id)
		svg := fig.Find("svg")
		if svg.AttrOr("role", "") != "img" || svg.Find("title").First().Text() == "" || svg.Find("desc").Text() == "" {
			t.Errorf("%s: the SVG lacks role, title or desc", id)
		}
		labelled := svg.AttrOr("aria-labelledby", "")
		for _, ref := range strings.Fields(labelled) {
			if doc.Find("#"+ref).Length() != 1 {
				t.Errorf("%s: aria-labelledby names %q, which is not on the page", id, ref)
			}
		}
		if svg.Find("text.axis-label").Length() != 2 {
			t.Errorf("%s: want two axis labels", id)
		}
		// The table says what the bars show: its counts sum to the archive.
		total := 0
		tid(doc, id+"-table").Find("tbody td").Each(func(_ int, td *goquery.Selection) {
			total += atoi(t, td.Text())
		})
		if total != 40 {
			t.Errorf("%s: the table's counts sum to %d, want 40", id, total)
		}
		if svg.Find("[style]").Length() != 0 {
			t.Errorf("%s: inline style, which the CSP forbids", id)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n = n*10 + int(r-'0')
		} else if r != ',' {
			t.Fatalf("not a count: %q", s)
		}
	}
	return n
}

func TestHistoryByBand(t *testing.T) {
	s, f := newTestServer(t, Config{})
	seed(t, f, 40)
	doc := page(t, get(t, s, "/puzzles?band=hard&limit=5"), http.StatusOK)
	// seed's puzzles with several solutions have no band: 9 of the 12
	// with hard's grades.
	if got := tid(doc, "total").Text(); got != "9 puzzles in band Hard, hardest first (the players' time, else the grade)." {
		t.Errorf("summary %q", got)
	}
	rows := tid(doc, "history-row")
	if rows.Length() != 5 {
		t.Fatalf("%d rows", rows.Length())
	}
	rows.Each(func(_ int, r *goquery.Selection) {
		if b := r.Find(`[data-testid="band-badge"]`).AttrOr("data-band", ""); b != "hard" {
			t.Errorf("row %s has band %q", r.AttrOr("data-id", "?"), b)
		}
	})
	if v := tid(doc, "band-filter").Find("option[selected]").AttrOr("value", ""); v != "hard" {
		t.Errorf("band select shows %q", v)
	}
	if next := tid(doc, "next").AttrOr("href", ""); !strings.Contains(next, "band=hard") {
		t.Errorf("next link drops the band: %q", next)
	}
	if href := tid(doc, "sort-clues").AttrOr("href", ""); !strings.Contains(href, "band=hard") {
		t.Errorf("sort link drops the band: %q", href)
	}
	doc = page(t, get(t, s, "/puzzles?band=extreme"), http.StatusOK)
	if tid(doc, "history-empty").Length() != 1 || doc.Find(`.empty-state a[href="/puzzles?order=desc&sort=human"]`).Length() != 1 {
		t.Error("an empty band: want the empty state with a link to every band")
	}
	doc = page(t, get(t, s, "/puzzles?band=Hard"), http.StatusBadRequest)
	if msg := tid(doc, "error-message").Text(); !strings.Contains(msg, "band") {
		t.Errorf("message %q does not name the band", msg)
	}
}

func TestAPIListByBand(t *testing.T) {
	s, f := newTestServer(t, Config{})
	seed(t, f, 40)
	rec := get(t, s, "/api/puzzles?band=medium&limit=100")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var res struct {
		Puzzles []record.Puzzle `json:"puzzles"`
		Total   int64           `json:"total"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Total != 10 || len(res.Puzzles) != 10 { // puzzles with one solution only
		t.Errorf("total %d, %d puzzles; want 10", res.Total, len(res.Puzzles))
	}
	for _, p := range res.Puzzles {
		if p.Band != sudoku.BandMedium || p.Grade == nil || *p.Grade < 2.1 || *p.Grade > 3.4 {
			t.Errorf("puzzle %d: band %q with grade %v", p.ID, p.Band, p.Grade)
		}
	}
	rec = get(t, s, "/api/puzzles?band=impossible")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `invalid \"band\" \"impossible\": use one of easy, medium, hard, fiendish, extreme`) {
		t.Errorf("unknown band: %d %s", rec.Code, rec.Body)
	}
}

func TestPuzzlePageBandAndReplay(t *testing.T) {
	s, f := newTestServer(t, Config{})
	p := measured(t, "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3")
	logic.GradePuzzle(&p)
	if _, _, err := f.Submit(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	rec := get(t, s, "/api/puzzles/1")
	if !strings.Contains(rec.Body.String(), `"band":"extreme"`) {
		t.Errorf("puzzle object lacks its band: %s", rec.Body)
	}
	doc := page(t, get(t, s, "/puzzles/1"), http.StatusOK)
	if b := tid(doc, "band-badge").AttrOr("data-band", ""); b != "extreme" {
		t.Errorf("band badge %q", b)
	}
	r := tid(doc, "replay-slot")
	if _, hidden := r.Attr("hidden"); !hidden || r.AttrOr("data-trace-url", "") != "/api/puzzles/1/trace" {
		t.Errorf("replay section: hidden %v, trace url %q", hidden, r.AttrOr("data-trace-url", ""))
	}
	if doc.Find(`script[src="/static/js/replay.js"][type="module"]`).Length() != 1 {
		t.Error("replay.js not loaded")
	}
	// Without JavaScript the board still shows the solution.
	if got := tid(doc, "board").Find("td").Eq(0).Text(); got == "" {
		t.Error("the board's first cell is empty: the solution is not shown")
	}
}

// A puzzle without a grade has no band ("" in JSON): its page says it is
// being graded, or, with several solutions, that it has no band.
func TestPuzzleBandPendingAndNone(t *testing.T) {
	s, f := newTestServer(t, Config{})
	pending := measured(t, examples[2].Puzzle) // hundreds of backtracks, grade 4.0
	several := measured(t, "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5......")
	for _, p := range []record.Puzzle{pending, several} {
		if _, _, err := f.Submit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[int]string{1: "band-pending", 2: "band-none"} {
		rec := get(t, s, "/api/puzzles/"+strconv.Itoa(id))
		if !strings.Contains(rec.Body.String(), `"band":null`) {
			t.Errorf("puzzle %d: %s, want no band", id, rec.Body)
		}
		doc := page(t, get(t, s, "/puzzles/"+strconv.Itoa(id)), http.StatusOK)
		if tid(doc, want).Length() != 1 || tid(doc, "band-badge").Length() != 0 {
			t.Errorf("puzzle %d: want %s and no badge; tags %q", id, want, tid(doc, "puzzle-tags").Text())
		}
	}
	if got := strings.TrimSpace(tid(page(t, get(t, s, "/puzzles/1"), http.StatusOK), "band-pending").Text()); got != "grading…" {
		t.Errorf("pending band reads %q", got)
	}
}
