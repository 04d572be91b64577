package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// TestVariantPuzzlePage serves a variant puzzle the archive holds (put
// there as the store will put it: record.RateVariant's row): its page
// writes and draws the rules, carries them for the board, and the lists
// name its variants.
func TestVariantPuzzlePage(t *testing.T) {
	s, f := newTestServer(t, Config{})
	rec, err := record.RateVariant(varianttest.Puzzle(t, "killer-1"), sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err = f.Submit(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	doc := page(t, get(t, s, "/puzzles/1"), http.StatusOK)
	if got := tid(doc, "variant-words").Text(); !strings.Contains(got, "sum to the total in its top left corner (27 cages)") {
		t.Errorf("rules in words %q", got)
	}
	if tid(doc, "sudokupad-link").AttrOr("href", "") != rec.SudokuPad || tid(doc, "fpuzzles-link").AttrOr("href", "") != rec.FPuzzles {
		t.Error("no SudokuPad or f-puzzles link")
	}
	if got := doc.Find(`#play .v-cage-total text`).First().Text(); got != "17" {
		t.Errorf("cage total %q", got)
	}
	if got := tid(doc, "play").AttrOr("data-rules", ""); got != string(rec.Rules) {
		t.Errorf("board's rules %q", got)
	}
	list := page(t, get(t, s, "/puzzles"), http.StatusOK)
	if got := tid(list, "variant-tag").Length(); got != 1 {
		t.Errorf("/puzzles row: %d variant tags, want 1 (killer)", got)
	}
}
