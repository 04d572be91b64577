package web

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"
)

// upload is a multipart post of the upload form.
type upload struct {
	file    []byte // nil: no file part
	name    string // the file's name; "" means puzzles.txt
	token   string // the _csrf field; "" leaves it out
	cookie  *http.Cookie
	chunked bool // send no Content-Length, as a streaming client would
}

// request builds the POST /puzzles/import request for u.
func (u upload) request(t *testing.T) *http.Request {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if u.token != "" {
		if err := mw.WriteField("_csrf", u.token); err != nil {
			t.Fatal(err)
		}
	}
	if u.file != nil {
		name := u.name
		if name == "" {
			name = "puzzles.txt"
		}
		w, err := mw.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(u.file)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	var body io.Reader = bytes.NewReader(buf.Bytes())
	if u.chunked {
		body = io.MultiReader(body) // hides the length from httptest
	}
	req := httptest.NewRequest(http.MethodPost, "/puzzles/import", body)
	if u.chunked {
		req.ContentLength = -1
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if u.cookie != nil {
		req.AddCookie(u.cookie)
	}
	return req
}

// newBulkServer returns a server over an empty archive with the bulk
// methods, logging nowhere.
func newBulkServer(t *testing.T, cfg Config) (*Server, *bulkFake) {
	t.Helper()
	s, f := newTestServer(t, cfg)
	a := &bulkFake{fakeArchive: f}
	s.archive = a
	own := s.cfg
	own.Archive = nil
	s.arch = ownArchive(partsOf(a), own) // the bulk roads go through the archive, over a
	return s, a
}

// uploadFile is a file with every kind of line: line 1 a comment, 2 a good
// puzzle, 3 blank, 4 the same givens with 0 blanks and a rating (a
// duplicate), 5 not a puzzle, 6 markup, 7 clashing givens, 8 a second
// puzzle, 9 a puzzle archived before the upload (a duplicate), 10 too short.
var uploadFile = strings.Join([]string{
	"# my collection",
	batchEasy,
	"",
	strings.ReplaceAll(batchEasy, ".", "0") + " 7.2",
	"nope",
	"<script>alert(1)</script>",
	"55" + batchEasy[2:],
	relabel(batchEasy, 1) + "\r",
	easy,
	batchEasy[:80],
}, "\n") + "\n"

func TestImportUpload(t *testing.T) {
	s, a := newBulkServer(t, Config{})
	a.Submit(t.Context(), measured(t, easy))
	cookie, token := csrfPair(t, s)

	rec := serve(s, upload{file: []byte(uploadFile), name: `C:\fakepath\my <collection>.txt`, token: token, cookie: cookie}.request(t))
	html := rec.Body.String() // page reads the body
	doc := page(t, rec, http.StatusOK)

	if got := strings.Join(strings.Fields(tid(doc, "import-summary").Text()), " "); got != "Imported 2, duplicates 2, rejected 4" {
		t.Errorf("summary %q", got)
	}
	if got := tid(doc, "import-file").Text(); got != "From my <collection>.txt" {
		t.Errorf("file name %q", got)
	}
	type row struct{ Line, Reason, Text string }
	var got []row
	tid(doc, "reject-row").Each(func(_ int, r *goquery.Selection) {
		got = append(got, row{
			r.Find(`[data-testid="reject-line"]`).Text(),
			r.Find(`[data-testid="reject-reason"]`).Text(),
			r.Find(`[data-testid="reject-text"]`).Text(),
		})
	})
	want := []row{
		{"5", "'n' at position 1 is not a cell (cells are 1-9, with 0 or . for a blank)", "nope"},
		{"6", "'<' at position 1 is not a cell (cells are 1-9, with 0 or . for a blank)", "<script>alert(1)</script>"},
		{"7", "Row 1 has two 5s", "55" + batchEasy[2:]},
		{"10", "Expected 81 cells, got 80", batchEasy[:80]},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rejected lines (-want +got):\n%s", diff)
	}
	if strings.Contains(html, "<script>alert(1)") || !strings.Contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the markup line is not escaped on the page")
	}
	if href := tid(doc, "import-history").AttrOr("href", ""); href != "/puzzles?sort=submitted&order=desc" {
		t.Errorf("history link %q", href)
	}
	if tok := doc.Find(`form[data-testid="upload-form"] input[name="_csrf"]`).AttrOr("value", ""); tok != token {
		t.Errorf("the form to import another file carries token %q, want %q", tok, token)
	}
	if a.calls != 1 {
		t.Errorf("%d SubmitMany calls, want the whole file in one transaction", a.calls)
	}
	if len(a.puzzles) != 3 || a.puzzles[0].Submissions != 2 || a.puzzles[1].Submissions != 2 {
		t.Errorf("archive holds %d puzzles (submissions %d, %d), want 3 with the two duplicates counted",
			len(a.puzzles), a.puzzles[0].Submissions, a.puzzles[1].Submissions)
	}
}

func TestImportUploadRefuses(t *testing.T) {
	// Tokens are signed by the server's secret: servers that share it
	// share tokens, so one pair serves every case.
	secret := []byte("test secret")
	cookie, token := csrfPair(t, New(partsOf(&fakeArchive{}), Config{Logger: quiet, CSRFSecret: secret}))
	big := bytes.Repeat([]byte(batchEasy+"\n"), 2*MaxBatchBody/82)
	tests := []struct {
		name   string
		u      upload
		status int
		msg    string // in the upload form's error; "" for the error page
	}{
		{"no token", upload{file: []byte(batchEasy), cookie: cookie}, http.StatusForbidden, ""},
		{"wrong token", upload{file: []byte(batchEasy), token: token + "x", cookie: cookie}, http.StatusForbidden, ""},
		{"token without cookie", upload{file: []byte(batchEasy), token: token}, http.StatusForbidden, ""},
		{"one byte past 1 MiB", upload{file: append(bytes.Repeat([]byte("#\n"), MaxBatchBody/2-41), " "+batchEasy+"\n"...), token: token, cookie: cookie},
			http.StatusRequestEntityTooLarge, "The file is larger than 1 MiB: use sudoku import for large collections."},
		{"2 MiB", upload{file: big, token: token, cookie: cookie}, http.StatusRequestEntityTooLarge, "larger than 1 MiB"},
		{"2 MiB without Content-Length", upload{file: big, token: token, cookie: cookie, chunked: true}, http.StatusRequestEntityTooLarge, "larger than 1 MiB"},
		{"2 MiB without a token", upload{file: big, cookie: cookie}, http.StatusRequestEntityTooLarge, "larger than 1 MiB"},
		{"no file", upload{token: token, cookie: cookie}, http.StatusUnprocessableEntity, "Choose a file to import"},
		{"empty file", upload{file: []byte{}, name: "empty.txt", token: token, cookie: cookie}, http.StatusUnprocessableEntity, "“empty.txt” is empty"},
		{"only comments", upload{file: []byte("# nothing\n\n  # here\n"), token: token, cookie: cookie}, http.StatusUnprocessableEntity, "has no puzzle lines"},
		{"not text", upload{file: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), name: "grid.png", token: token, cookie: cookie}, http.StatusUnprocessableEntity, "“grid.png” is not a text file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, a := newBulkServer(t, Config{CSRFSecret: secret})
			rec := serve(s, tc.u.request(t))
			doc := page(t, rec, tc.status)
			if tc.msg == "" {
				if tid(doc, "error-page").Length() != 1 {
					t.Error("no error page")
				}
			} else {
				if got := tid(doc, "upload-error-message").Text(); !strings.Contains(got, tc.msg) {
					t.Errorf("message %q, want it to contain %q", got, tc.msg)
				}
				// The form comes back, ready for another file.
				if doc.Find(`form[data-testid="upload-form"] input[type="file"][name="file"]`).Length() != 1 {
					t.Error("no upload form on the page")
				}
				if tok := doc.Find(`form[data-testid="upload-form"] input[name="_csrf"]`).AttrOr("value", ""); tok != cookie.Value {
					t.Errorf("the form carries token %q, want the cookie's %q", tok, cookie.Value)
				}
			}
			if a.calls != 0 || len(a.puzzles) != 0 {
				t.Errorf("%d SubmitMany calls, %d puzzles stored; want none", a.calls, len(a.puzzles))
			}
		})
	}
}

func TestImportUploadLargestFile(t *testing.T) {
	s, a := newBulkServer(t, Config{})
	cookie, token := csrfPair(t, s)
	// 1023 comment lines of 1 KiB, then 942 bytes: a comment and a puzzle.
	file := bytes.Repeat([]byte("#"+strings.Repeat(" ", 1022)+"\n"), 1023)
	file = append(file, "#"+strings.Repeat(" ", 1024-82-2)+"\n"+batchEasy+"\n"...)
	if len(file) != MaxBatchBody {
		t.Fatalf("file of %d bytes, want %d", len(file), MaxBatchBody)
	}
	doc := page(t, serve(s, upload{file: file, token: token, cookie: cookie}.request(t)), http.StatusOK)
	if got := strings.Join(strings.Fields(tid(doc, "import-summary").Text()), " "); got != "Imported 1, duplicates 0, rejected 0" {
		t.Errorf("summary %q", got)
	}
	if len(a.puzzles) != 1 {
		t.Errorf("%d puzzles stored, want 1", len(a.puzzles))
	}
}

func TestImportUploadManyRejects(t *testing.T) {
	s, _ := newBulkServer(t, Config{})
	cookie, token := csrfPair(t, s)
	long := strings.Repeat("x", 200)
	file := strings.Repeat(long+"\n", maxRejectedShown+7)
	doc := page(t, serve(s, upload{file: []byte(file), token: token, cookie: cookie}.request(t)), http.StatusOK)
	if n := tid(doc, "reject-row").Length(); n != maxRejectedShown {
		t.Errorf("%d rows, want the first %d", n, maxRejectedShown)
	}
	if got := tid(doc, "rejects-truncated").Text(); !strings.Contains(got, "The first 500 of 507") {
		t.Errorf("truncation note %q", got)
	}
	if got := tid(doc, "reject-text").First().Text(); got != strings.Repeat("x", maxLineShown-1)+"…" {
		t.Errorf("long line shown as %q", got)
	}
}

func TestImportUploadRateLimited(t *testing.T) {
	s, _ := newBulkServer(t, Config{RateLimit: 1}) // a burst of 3
	cookie, token := csrfPair(t, s)
	var codes []int
	for range 4 {
		codes = append(codes, serve(s, upload{file: []byte(batchEasy), token: token, cookie: cookie}.request(t)).Code)
	}
	if diff := cmp.Diff([]int{200, 200, 200, http.StatusTooManyRequests}, codes); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

func TestHomePageUploadForm(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/"), http.StatusOK)
	form := tid(doc, "upload-form")
	if form.AttrOr("method", "") != "post" || form.AttrOr("action", "") != "/puzzles/import" || form.AttrOr("enctype", "") != "multipart/form-data" {
		t.Errorf("upload form attributes: %v", form.Nodes[0].Attr)
	}
	main := doc.Find(`form[data-testid="submit-form"] input[name="_csrf"]`).AttrOr("value", "")
	if tok := form.Find(`input[name="_csrf"]`).AttrOr("value", ""); tok == "" || tok != main {
		t.Errorf("upload form token %q, want the page's %q", tok, main)
	}
	in := form.Find(`input[type="file"]`)
	if in.AttrOr("name", "") != "file" || in.AttrOr("accept", "") != ".txt,.csv,.jsonl,text/plain" {
		t.Errorf("file input: %v", in.Nodes[0].Attr)
	}
	if form.Find(`label[for="`+in.AttrOr("id", "?")+`"]`).Length() != 1 {
		t.Error("the file input has no label")
	}
	if form.Find(`button[type="submit"]`).Length() != 1 {
		t.Error("no submit button")
	}
}

func TestHistoryDownloadLinks(t *testing.T) {
	s, f := newTestServer(t, Config{})
	seed(t, f, 5)
	doc := page(t, get(t, s, "/puzzles?sort=clues&order=asc&unique=1"), http.StatusOK)
	for format, want := range map[string]string{
		"txt":  "/api/export?format=txt&order=asc&sort=clues&unique=1",
		"csv":  "/api/export?format=csv&order=asc&sort=clues&unique=1",
		"json": "/api/export?format=json&order=asc&sort=clues&unique=1",
	} {
		if got := tid(doc, "download-"+format).AttrOr("href", ""); got != want {
			t.Errorf("%s link %q, want %q", format, got, want)
		}
	}
	if got := tid(doc, "downloads-note").Text(); got != "every page of this list, fewest clues first, unique solutions only" {
		t.Errorf("note %q", got)
	}

	// The links the history offers are served.
	a := &bulkFake{fakeArchive: f}
	s.archive = a
	rec := get(t, s, tid(doc, "download-csv").AttrOr("href", ""))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), "id,puzzle,") {
		t.Errorf("the CSV link answers %d %.40q", rec.Code, rec.Body.String())
	}

	empty, _ := newTestServer(t, Config{})
	if tid(page(t, get(t, empty, "/puzzles"), http.StatusOK), "downloads").Length() != 0 {
		t.Error("download links on an empty archive")
	}
}
