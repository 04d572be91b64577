package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/templates"
)

// importPath is the upload form's route. Like batchPath it is exempt from
// BodyLimit: uploadLimit bounds it instead.
const importPath = "/puzzles/import"

// An upload is a multipart body: the file (at most MaxBatchBody bytes) plus
// the _csrf field, the part headers and the boundaries, which uploadSlack
// leaves room for.
const (
	uploadSlack   = 16 << 10
	maxUploadBody = MaxBatchBody + uploadSlack
)

// uploadDrain is how much of a too-large upload is read and thrown away
// before the 413 page is sent. A browser still sending its body when the
// server closes the connection shows a "connection reset" error instead of
// the page; past this the server closes it anyway.
const uploadDrain = 16 << 20

// maxRejectedShown bounds the rejected lines listed on the results page: a
// 1 MiB file of junk has half a million of them.
const maxRejectedShown = 500

// maxLineShown is how many characters of a rejected line the page shows.
const maxLineShown = 90

// msgTooLarge is what the 413 page says; the backticks mark a command.
var msgTooLarge = fmt.Sprintf("The file is larger than %d MiB: use `sudoku import` for large collections.", MaxBatchBody>>20)

// uploadLimit bounds an upload before anything reads it. It must run before
// the CSRF middleware: that one reads the token from the form, and parsing a
// multipart form stores file parts of any size (on disk past the memory
// bound). Here the form is parsed within maxUploadBody, in memory, so the
// CSRF check and importUpload find it parsed; past the bound the answer is
// the 413 page and nothing is stored.
func (s *Server) uploadLimit() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.Method != http.MethodPost || s.rowOf(c).class.body != uploadBody {
				return next(c)
			}
			body := req.Body
			if req.ContentLength > maxUploadBody {
				return s.uploadTooLarge(c, body)
			}
			req.Body = http.MaxBytesReader(c.Response(), body, maxUploadBody)
			// One byte more than the bound keeps every file part in memory.
			// Errors other than the size (not multipart, a broken body)
			// leave no file: the CSRF check or importUpload answers them.
			err := req.ParseMultipartForm(maxUploadBody + 1)
			var tooLarge *http.MaxBytesError
			switch {
			case errors.As(err, &tooLarge):
				return s.uploadTooLarge(c, body)
			case err != nil:
				// Not the CSRF check's "this form has expired": the body
				// is no form at all.
				return s.renderUploadError(c, http.StatusBadRequest,
					"The upload could not be read as a form with a file (multipart/form-data). Choose the file and submit the form again.")
			}
			return next(c)
		}
	}
}

// uploadTooLarge answers 413 with the upload form, after reading up to
// uploadDrain more of body so the browser gets to show the page.
// A client that asked "Expect: 100-continue" has sent no body: reading it
// would invite the client to send it.
func (s *Server) uploadTooLarge(c echo.Context, body io.Reader) error {
	if !strings.EqualFold(c.Request().Header.Get("Expect"), "100-continue") {
		io.Copy(io.Discard, io.LimitReader(body, uploadDrain)) //nolint:errcheck // best effort: the answer is 413 either way
	}
	return s.renderUploadError(c, http.StatusRequestEntityTooLarge, msgTooLarge)
}

// uploadToken is the CSRF token for the form on an upload's answer. The
// 413 and 400 from uploadLimit come before csrfCheck has set one: it is
// then the cookie's, if the server signed it, else a new one (the cookie
// that goes with it is set on the next page).
func (s *Server) uploadToken(c echo.Context) string {
	if t := csrfToken(c); t != "" {
		return t
	}
	if ck, err := c.Cookie(csrfCookie); err == nil && s.csrf.valid(ck.Value) {
		return ck.Value
	}
	t := s.csrf.token()
	c.SetCookie(&http.Cookie{Name: csrfCookie, Value: t, Path: "/", MaxAge: 86400, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	return t
}

// renderUploadError answers status with the import page: the form and why
// the file was refused.
func (s *Server) renderUploadError(c echo.Context, status int, msg string) error {
	return s.render(c, status, templates.ImportPage(templates.ImportView{
		Form: templates.UploadForm{CSRF: s.uploadToken(c), Error: msg},
	}))
}

// importUpload archives the puzzles of an uploaded file (field "file"),
// like POST /api/puzzles/batch: the same rules, one transaction, at most
// MaxBatchBody bytes (413 past it). It answers a page with the summary and
// the rejected lines. No file, an empty file or one that is not text
// gives 422 and the form again. uploadLimit has parsed the form already.
func (s *Server) importUpload(c echo.Context) error {
	extendWrite(c, s.cfg.BulkTimeout+10*time.Second)
	fh, err := c.FormFile("file")
	if err != nil {
		return s.renderUploadError(c, http.StatusUnprocessableEntity, "Choose a file to import: a text file with one puzzle per line.")
	}
	if fh.Size > MaxBatchBody {
		return s.renderUploadError(c, http.StatusRequestEntityTooLarge, msgTooLarge)
	}
	f, err := fh.Open()
	if err != nil {
		return fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, MaxBatchBody+1))
	if err != nil {
		return fmt.Errorf("read upload: %w", err)
	}
	name := displayName(fh.Filename)
	switch {
	case len(body) > MaxBatchBody: // Size said otherwise; trust what was read
		return s.renderUploadError(c, http.StatusRequestEntityTooLarge, msgTooLarge)
	case len(body) == 0:
		return s.renderUploadError(c, http.StatusUnprocessableEntity, fmt.Sprintf("%s is empty: choose a file with one puzzle per line.", quoteName(name)))
	case bytes.IndexByte(body, 0) >= 0:
		return s.renderUploadError(c, http.StatusUnprocessableEntity, fmt.Sprintf("%s is not a text file: choose a file with one puzzle per line.", quoteName(name)))
	}

	sum, rejected, err := s.importText(c.Request().Context(), name, body)
	if err != nil {
		return fmt.Errorf("import upload: %w", err)
	}
	if sum.Imported+sum.Duplicates+sum.Rejected == 0 {
		return s.renderUploadError(c, http.StatusUnprocessableEntity,
			fmt.Sprintf("%s has no puzzle lines, only blank lines and # comments.", quoteName(name)))
	}
	view := templates.ImportView{
		Form:        templates.UploadForm{CSRF: s.uploadToken(c)},
		FileName:    name,
		Imported:    sum.Imported,
		Duplicates:  sum.Duplicates,
		Rejected:    sum.Rejected,
		Equivalents: sum.Equivalents,
	}
	shown := rejected[:min(len(rejected), maxRejectedShown)]
	texts := lineTexts(body, shown)
	view.Lines = make([]templates.RejectedLine, len(shown))
	for i, r := range shown {
		view.Lines[i] = templates.RejectedLine{Line: r.Line, Reason: sentence(r.Err.Error()), Text: texts[i]}
	}
	return s.render(c, http.StatusOK, templates.ImportPage(view))
}

// lineTexts returns the text of each rejected line of body, in order (the
// rejections come in file order), shortened for the page.
func lineTexts(body []byte, rejected []bulk.Rejection) []string {
	out := make([]string, len(rejected))
	lines := bulk.Lines(body)
	for i, r := range rejected {
		if r.Line >= 1 && r.Line <= int64(len(lines)) {
			out[i] = shorten(lines[r.Line-1], maxLineShown)
		}
	}
	return out
}

// shorten makes s valid UTF-8 and cuts it to n characters, marking the cut.
func shorten(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// displayName is the uploaded file's name as the page shows it: the base
// name (some browsers send a path), valid UTF-8, not too long.
func displayName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		return "upload"
	}
	return shorten(name, 80)
}

// quoteName is how an error message names the file.
func quoteName(name string) string { return "“" + name + "”" }
