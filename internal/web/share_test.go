package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

const shareEasy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

// archived submits puzzle text to f as the submit form would.
func archived(t *testing.T, f *fakeArchive, text string) record.Puzzle {
	t.Helper()
	p, _, err := f.Submit(context.Background(), measured(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// There is one example per band, easiest first, each named by the band
// and the grade the archive gives it: its grade is in the band's range.
func TestExampleLabelsAreGraded(t *testing.T) {
	if len(examples) != len(sudoku.Bands) {
		t.Fatalf("%d examples for %d bands", len(examples), len(sudoku.Bands))
	}
	for i, ex := range examples {
		p := measured(t, ex.Puzzle)
		logic.GradeDeep(context.Background(), &p) // the archive's graders' grade
		b := sudoku.Bands[i]
		if p.Band != b.Band || p.GradeTenths() < b.Min || p.GradeTenths() > b.Max {
			t.Errorf("example %d %q: grade %v, band %q; want band %s (%s)", i+1, ex.Label, p.Grade, p.Band, b.Band, b.Range())
		}
		grade := strconv.FormatFloat(*p.Grade, 'f', 1, 64)
		if p.GradeFloor {
			grade += "+"
		}
		if want := b.Name + " · grade " + grade; ex.Label != want {
			t.Errorf("example %d is labelled %q, want %q", i+1, ex.Label, want)
		}
	}
}

// The puzzle page opens on the givens: the playing board holds no solved
// digit, and the analysis is a closed <details> unless asked for.
func TestPuzzlePageOpensOnGivens(t *testing.T) {
	s, f := newTestServer(t, Config{})
	p := archived(t, f, shareEasy)
	doc := page(t, get(t, s, "/puzzles/1"), http.StatusOK)
	var shown strings.Builder
	tid(doc, "play-board").Find("td").Each(func(_ int, td *goquery.Selection) {
		if v := strings.TrimSpace(td.Text()); v != "" {
			shown.WriteString(v)
		} else {
			shown.WriteString(".")
		}
	})
	if shown.String() != p.Givens.String() {
		t.Errorf("play board shows\n%s\nwant the givens\n%s", shown.String(), p.Givens.String())
	}
	if _, open := tid(doc, "analysis").Attr("open"); open {
		t.Error("the analysis is open on a plain visit")
	}
	if got := tid(doc, "share-link").AttrOr("value", ""); got != "http://example.com/p/"+shareEasy {
		t.Errorf("share link %q", got)
	}
	if tid(doc, "board").AttrOr("data-solution", "") != p.Solution.String() {
		t.Error("the solution is not behind Show solution")
	}
	doc = page(t, get(t, s, "/puzzles/1?solution=1"), http.StatusOK)
	if _, open := tid(doc, "analysis").Attr("open"); !open {
		t.Error("?solution=1: the analysis is closed")
	}
	// Submitting does not spoil (issue 34): the page a submission lands on
	// keeps the solution folded.
	for _, path := range []string{"/puzzles/1?new=1", "/puzzles/1?dup=1"} {
		doc := page(t, get(t, s, path), http.StatusOK)
		if _, open := tid(doc, "analysis").Attr("open"); open {
			t.Errorf("%s: the solution is shown unasked", path)
		}
	}
	// Still no inline script or style: the CSP allows neither.
	doc.Find("script").Each(func(_ int, sc *goquery.Selection) {
		if src, _ := sc.Attr("src"); src == "" || strings.TrimSpace(sc.Text()) != "" {
			t.Errorf("inline script: %s", goquery.NodeName(sc))
		}
		if typ, _ := sc.Attr("type"); typ != "module" {
			t.Errorf("script %s is not a module", sc.AttrOr("src", ""))
		}
	})
	if n := doc.Find("[style], style").Length(); n != 0 {
		t.Errorf("%d inline styles", n)
	}
}

func TestShareLink(t *testing.T) {
	t.Run("archived: the puzzle's page", func(t *testing.T) {
		f := &fakeArchive{}
		s := New(partsOf(f), Config{Logger: quiet})
		archived(t, f, shareEasy)
		rec := get(t, s, "/p/"+shareEasy)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/puzzles/1" {
			t.Errorf("status %d, Location %q", rec.Code, rec.Header().Get("Location"))
		}
		// Any way of writing the same givens opens it too.
		rec = get(t, s, "/p/"+strings.ReplaceAll(shareEasy, ".", "0"))
		if rec.Header().Get("Location") != "/puzzles/1" {
			t.Errorf("zeros for blanks: status %d, Location %q", rec.Code, rec.Header().Get("Location"))
		}
	})
	t.Run("not archived: play it, archive it", func(t *testing.T) {
		s, _ := newTestServer(t, Config{})
		doc := page(t, get(t, s, "/p/"+shareEasy), http.StatusOK)
		form := tid(doc, "archive-form")
		if form.AttrOr("action", "") != "/puzzles" || form.AttrOr("method", "") != "post" {
			t.Errorf("archive form %q %q", form.AttrOr("method", ""), form.AttrOr("action", ""))
		}
		if got := form.Find(`input[name="puzzle"]`).AttrOr("value", ""); got != shareEasy {
			t.Errorf("archive form sends %q", got)
		}
		if form.Find(`input[name="_csrf"]`).Length() != 1 {
			t.Error("no CSRF field")
		}
		if got := tid(doc, "play").AttrOr("data-givens", ""); got != shareEasy {
			t.Errorf("play board givens %q", got)
		}
		if tid(doc, "play").AttrOr("data-solution", "") == "" {
			t.Error("no solution for Check and Hint")
		}
	})
	t.Run("no puzzle: 400 with the reader's message", func(t *testing.T) {
		s, _ := newTestServer(t, Config{})
		bad := shareEasy[:11] + "x" + shareEasy[12:]
		doc := page(t, get(t, s, "/p/"+bad), http.StatusBadRequest)
		if msg := tid(doc, "error-message").Text(); !strings.Contains(msg, "'x' at position 12") {
			t.Errorf("message %q", msg)
		}
		doc = page(t, get(t, s, "/p/"+shareEasy[:80]), http.StatusBadRequest)
		if msg := tid(doc, "error-message").Text(); !strings.Contains(msg, "expected 81 cells, got 80") {
			t.Errorf("message %q", msg)
		}
	})
	t.Run("clashing givens: shown, not archivable", func(t *testing.T) {
		s, _ := newTestServer(t, Config{})
		clash := "11" + shareEasy[2:]
		doc := page(t, get(t, s, "/p/"+clash), http.StatusUnprocessableEntity)
		if msg := tid(doc, "share-error").Text(); !strings.Contains(msg, "two 1s") {
			t.Errorf("error %q", msg)
		}
		if tid(doc, "archive-form").Length() != 0 {
			t.Error("an archive button for a puzzle that cannot be archived")
		}
	})
}

func TestPrintSheet(t *testing.T) {
	s, f := newTestServer(t, Config{})
	archived(t, f, shareEasy)
	archived(t, f, examples[2].Puzzle)
	doc := page(t, get(t, s, "/puzzles/print?sort=clues&order=asc"), http.StatusOK)
	cards := tid(doc, "print-card")
	if cards.Length() != 2 {
		t.Fatalf("%d cards, want 2", cards.Length())
	}
	if got := cards.First().Find(".print-link").Text(); !strings.HasPrefix(got, "http://example.com/p/") {
		t.Errorf("card link %q", got)
	}
	hist := page(t, get(t, s, "/puzzles?sort=clues&order=asc"), http.StatusOK)
	if href := tid(hist, "print-link").AttrOr("href", ""); !strings.HasPrefix(href, "/puzzles/print?") || !strings.Contains(href, "sort=clues") {
		t.Errorf("history's print link %q", href)
	}
}

// A rejected character takes its own cell in the preview, so the cells
// after it stay where they were typed.
func TestPreviewKeepsCellsAfterABadCharacter(t *testing.T) {
	in := shareEasy[:4] + "x" + shareEasy[5:]
	got := previewCells(in)
	for i := 5; i < 81; i++ {
		want := uint8(0)
		if c := shareEasy[i]; c != '.' {
			want = c - '0'
		}
		if got[i] != want {
			t.Fatalf("cell %d shows %d, want %d", i, got[i], want)
		}
	}
}

// TestShareLinkFindsTheSamePuzzle: a share link of another way of writing
// an archived puzzle opens the archived one.
func TestShareLinkFindsTheSamePuzzle(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	if rec := post(t, s, "/api/puzzles", puzzleBody(shareEasy)); rec.Code != http.StatusCreated {
		t.Fatalf("submit: %d %s", rec.Code, rec.Body)
	}
	g, _ := sudoku.Parse(shareEasy)
	tr := sudoku.Identity
	tr.Transposed = true
	for d := 1; d <= 9; d++ {
		tr.Digits[d] = uint8(10 - d)
	}
	other := tr.Apply(g)
	rec := get(t, s, "/p/"+other.String())
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/puzzles/1" {
		t.Errorf("share link of the same puzzle written another way: %d, Location %q", rec.Code, rec.Header().Get("Location"))
	}
}
