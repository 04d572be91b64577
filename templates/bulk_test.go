package templates

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

func TestImportPage(t *testing.T) {
	doc, html := render(t, ImportPage(ImportView{
		Form:     UploadForm{CSRF: "tok"},
		FileName: "set <1>.txt",
		Imported: 1200, Duplicates: 3, Rejected: 4,
		Lines: []RejectedLine{
			{Line: 7, Reason: "Expected 81 cells, got 80", Text: "53..7...."},
			{Line: 9, Reason: "'<' at position 1 is not a cell", Text: `<img src=x onerror="alert(1)">`},
		},
	}))
	if got := strings.Join(strings.Fields(byID(doc, "import-summary").Text()), " "); got != "Imported 1200, duplicates 3, rejected 4" {
		t.Errorf("summary %q", got)
	}
	if got := byID(doc, "import-file").Text(); got != "From set <1>.txt" {
		t.Errorf("file %q", got)
	}
	var rows [][3]string
	byID(doc, "reject-row").Each(func(_ int, s *goquery.Selection) {
		rows = append(rows, [3]string{
			s.Find(`[data-testid="reject-line"]`).Text(),
			s.Find(`[data-testid="reject-reason"]`).Text(),
			s.Find(`[data-testid="reject-text"]`).Text(),
		})
	})
	want := [][3]string{
		{"7", "Expected 81 cells, got 80", "53..7...."},
		{"9", "'<' at position 1 is not a cell", `<img src=x onerror="alert(1)">`},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rejected rows (-want +got):\n%s", diff)
	}
	if doc.Find("img").Length() != 0 || strings.Contains(html, "<img") {
		t.Error("a rejected line's text became markup")
	}
	// Two lines listed of four rejected: the page says the list is cut.
	if got := byID(doc, "rejects-truncated").Text(); !strings.Contains(got, "The first 2 of 4") {
		t.Errorf("truncation note %q", got)
	}
	if byID(doc, "upload-error").Length() != 0 {
		t.Error("an error on a successful import")
	}
	if byID(doc, "import-history").AttrOr("href", "") != "/puzzles?sort=submitted&order=desc" {
		t.Error("no link to the newest puzzles")
	}
	if byID(doc, "upload-form").Find(`input[name="_csrf"]`).AttrOr("value", "") != "tok" {
		t.Error("the form to import another file has no token")
	}
}

func TestImportPageAllGood(t *testing.T) {
	doc, _ := render(t, ImportPage(ImportView{FileName: "a.txt", Imported: 5}))
	if byID(doc, "rejects").Length() != 0 || byID(doc, "rejects-truncated").Length() != 0 {
		t.Error("a rejected-lines table with nothing rejected")
	}
}

func TestImportPageRefused(t *testing.T) {
	doc, _ := render(t, ImportPage(ImportView{Form: UploadForm{CSRF: "tok", Error: "The file is larger than 1 MiB: use `sudoku import` for <large> ones."}}))
	if byID(doc, "import-result").Length() != 0 || byID(doc, "import-summary").Length() != 0 {
		t.Error("a summary for a refused file")
	}
	msg := byID(doc, "upload-error-message")
	if got := strings.Join(strings.Fields(msg.Text()), " "); got != "The file is larger than 1 MiB: use sudoku import for <large> ones." {
		t.Errorf("message %q", got)
	}
	if got := msg.Find("code").Text(); got != "sudoku import" {
		t.Errorf("the command is shown as %q, want it in <code>", got)
	}
	if got := byID(doc, "upload-form").Find("h2").Text(); strings.TrimSpace(got) != "Import another file" {
		t.Errorf("form heading %q under the page's own", got)
	}
	if byID(doc, "upload-file").AttrOr("aria-invalid", "") != "true" {
		t.Error("the file input is not marked invalid")
	}
}

func TestDownloadLinks(t *testing.T) {
	tests := []struct {
		name string
		v    HistoryView
		href string // of the CSV link
		note string
	}{
		{"default", HistoryView{Sort: record.SortHuman, Desc: true},
			"/api/export?format=csv&order=desc&sort=human", "every page of this list, hardest first (the players' time, else the grade)"},
		{"search cost", HistoryView{Sort: record.SortDifficulty, Desc: true},
			"/api/export?format=csv&order=desc&sort=difficulty", "every page of this list, highest search cost first (backtracks, then solve time)"},
		{"solve time ascending", HistoryView{Sort: record.SortSolveTime},
			"/api/export?format=csv&order=asc&sort=solve_time", "every page of this list, fastest first"},
		{"filters carried, paging not", HistoryView{Sort: record.SortSubmitted, Desc: true, UniqueOnly: true, Band: sudoku.BandHard, Cursor: "abc", Limit: 50},
			"/api/export?band=hard&format=csv&order=desc&sort=submitted&unique=1", "every hard puzzle, newest first, unique solutions only"},
		{"every filter the page shows", HistoryView{Sort: record.SortGrade, Desc: false, UniqueOnly: true, Distinct: true, GradeMin: 21, GradeMax: 34,
			Band: sudoku.BandMedium, Played: record.PlayedUnplayed, Techniques: record.JoinTechniques([]string{"Hidden Single", "Pointing"}), Cursor: "abc", Limit: 50},
			"/api/export?band=medium&distinct=1&format=csv&grade_max=3.4&grade_min=2.1&order=asc&played=unplayed&sort=grade&technique=hidden-single&technique=pointing&unique=1",
			"every medium puzzle, lowest grade first, unique solutions only, only those you haven't played"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, _ := render(t, DownloadLinks(tc.v))
			if got := byID(doc, "download-csv").AttrOr("href", ""); got != tc.href {
				t.Errorf("href %q, want %q", got, tc.href)
			}
			if got := byID(doc, "download-txt").AttrOr("href", ""); got != strings.Replace(tc.href, "csv", "txt", 1) {
				t.Errorf("txt href %q", got)
			}
			if got := byID(doc, "download-json").AttrOr("href", ""); got != strings.Replace(tc.href, "csv", "json", 1) {
				t.Errorf("json href %q", got)
			}
			if got := byID(doc, "downloads-note").Text(); got != tc.note {
				t.Errorf("note %q, want %q", got, tc.note)
			}
		})
	}
}
