package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/bulk"
)

// TestDataPage: /data lists every field of the export, from its own
// table, its licence and its downloads.
func TestDataPage(t *testing.T) {
	s, _, _ := collectionsServer(t)
	s.cfg.Licence = "CC BY 4.0, the Sudoku Archive's players"
	doc := page(t, get(t, s, "/data"), http.StatusOK)
	rows := tid(doc, "data-field")
	if rows.Length() != len(bulk.Fields) {
		t.Fatalf("/data lists %d fields, the export has %d", rows.Length(), len(bulk.Fields))
	}
	for i, f := range bulk.Fields {
		if got := strings.TrimSpace(rows.Eq(i).Find("code").Text()); got != f.Name {
			t.Errorf("field %d is %q, want %q", i, got, f.Name)
		}
	}
	if got := tid(doc, "data-licence").Text(); got != s.cfg.Licence {
		t.Errorf("licence %q", got)
	}
	for _, f := range bulk.Formats {
		if href := tid(doc, "download-"+string(f)).AttrOr("href", ""); !strings.HasPrefix(href, "/api/export?format="+string(f)) {
			t.Errorf("download %s links to %q", f, href)
		}
	}
	s.cfg.Licence = ""
	if doc := page(t, get(t, s, "/data"), http.StatusOK); tid(doc, "data-licence-none").Length() != 1 {
		t.Error("without a licence, /data does not say so")
	}
}

// TestExportGzipAndLicence: the export is gzip-compressed for a client
// that accepts it and is the same once decompressed; a TXT export opens
// with the licence as # lines.
func TestExportGzipAndLicence(t *testing.T) {
	s, _, _ := collectionsServer(t)
	s.cfg.Licence = "CC0\nno rights reserved"
	post(t, s, "/api/puzzles", puzzleBody(colEasy))
	post(t, s, "/api/puzzles", puzzleBody(colOther))
	for _, format := range []string{"txt", "csv", "json"} {
		path := "/api/export?format=" + format
		plain := get(t, s, path)
		if plain.Code != http.StatusOK || plain.Header().Get("Content-Encoding") != "" || plain.Header().Get("Link") != `</data>; rel="license"` {
			t.Fatalf("%s: %d %v", format, plain.Code, plain.Header())
		}
		zipped := do(t, s, request{method: "GET", path: path, header: http.Header{"Accept-Encoding": {"br;q=1, gzip;q=0.5"}}})
		if zipped.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: not compressed: %v", format, zipped.Header())
		}
		zr, err := gzip.NewReader(zipped.Body)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(body, plain.Body.Bytes()) {
			t.Fatalf("%s: decompressed export differs (%v):\n%s\nwant\n%s", format, err, body, plain.Body)
		}
		refused := do(t, s, request{method: "GET", path: path, header: http.Header{"Accept-Encoding": {"gzip;q=0"}}})
		if refused.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: compressed for gzip;q=0", format)
		}
		if format == "txt" {
			want := "# CC0\n# no rights reserved\n" + colOther + "\n" + colEasy + "\n"
			if plain.Body.String() != want && plain.Body.String() != "# CC0\n# no rights reserved\n"+colEasy+"\n"+colOther+"\n" {
				t.Errorf("txt export:\n%s", plain.Body)
			}
		}
	}
}

// TestPuzzlePageSudokuWiki: the puzzle page links out to SudokuWiki's
// solver with the puzzle filled in.
func TestPuzzlePageSudokuWiki(t *testing.T) {
	s, _, _ := collectionsServer(t)
	p := decode[submitResponse](t, post(t, s, "/api/puzzles", puzzleBody(colEasy)))
	doc := page(t, get(t, s, "/puzzles/1"), http.StatusOK)
	want := "https://www.sudokuwiki.org/sudoku.htm?bd=" + strings.ReplaceAll(p.Givens.String(), ".", "0")
	if href := tid(doc, "sudokuwiki-link").AttrOr("href", ""); href != want {
		t.Fatalf("SudokuWiki link %q, want %q", href, want)
	}
}
