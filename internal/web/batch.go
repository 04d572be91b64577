package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// bulkArchive is what the batch import and the export need beyond Archive.
// *store.DB has both methods; an Archive without them answers 501 there.
type bulkArchive interface {
	SubmitMany(ctx context.Context, ps []sudoku.Puzzle) (duplicate []bool, err error)
	Export(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Puzzle) error) error
}

// batchPath is the batch import's route, exempt from BodyLimit.
const batchPath = "/api/puzzles/batch"

// MaxBatchBody is the largest body POST /api/puzzles/batch reads: about
// 12,000 puzzle lines. Larger collections go through `sudoku import`.
const MaxBatchBody = 1 << 20

// batchResult is the answer of POST /api/puzzles/batch: the import's
// summary and every rejected line.
type batchResult struct {
	Imported   int64        `json:"imported"`
	Duplicates int64        `json:"duplicates"`
	Rejected   int64        `json:"rejected"`
	Errors     []batchError `json:"errors"`
}

type batchError struct {
	Line  int64  `json:"line"`
	Error string `json:"error"`
}

// apiBatch archives a text/plain body of one puzzle per line, with the same
// rules as `sudoku import`. The whole body is read first (413 past
// MaxBatchBody, nothing stored), and its puzzles go in one transaction:
// a 200 means every counted puzzle is committed, an error that none is.
func (s *Server) apiBatch(c echo.Context) error {
	ba, ok := s.archive.(bulkArchive)
	if !ok {
		return echo.NewHTTPError(http.StatusNotImplemented, "batch import is not available")
	}
	req := c.Request()
	if mt, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType)); err != nil || mt != echo.MIMETextPlain {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send the puzzles as text/plain, one per line")
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), req.Body, MaxBatchBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
			fmt.Sprintf("body larger than %d bytes: split it, or use `sudoku import`", MaxBatchBody))
	case err != nil:
		return echo.NewHTTPError(http.StatusBadRequest, "unreadable body").SetInternal(err)
	}

	sum, rejected, err := s.importText(req.Context(), ba, "body", body)
	if err != nil {
		return fmt.Errorf("batch import: %w", err)
	}
	res := batchResult{Imported: sum.Imported, Duplicates: sum.Duplicates, Rejected: sum.Rejected, Errors: make([]batchError, len(rejected))}
	for i, r := range rejected {
		res.Errors[i] = batchError{Line: r.Line, Error: r.Err.Error()}
	}
	return c.JSON(http.StatusOK, res)
}

// importText archives body, one puzzle per line, with the rules of
// `sudoku import`, all in one transaction: on success every counted puzzle
// is committed, on error none is. It returns the summary and every rejected
// line, in order. body is at most MaxBatchBody bytes (the callers bound it).
func (s *Server) importText(ctx context.Context, ba bulkArchive, name string, body []byte) (bulk.Summary, []bulk.Rejection, error) {
	var rejected []bulk.Rejection
	sum, err := bulk.Import(ctx, ba, []bulk.Input{{Name: name, Reader: bytes.NewReader(body)}}, bulk.Options{
		// Every puzzle line is at least 82 bytes, so one batch holds the body.
		BatchSize: MaxBatchBody/82 + 1,
		MaxNodes:  s.cfg.MaxNodes,
		Reject:    func(r bulk.Rejection) { rejected = append(rejected, r) },
	})
	return sum, rejected, err
}

// apiExport streams the archive as a download: format txt (default), csv
// or json (one object per line), with the listing's sort, order, band and
// unique parameters and defaults.
func (s *Server) apiExport(c echo.Context) error {
	ba, ok := s.archive.(bulkArchive)
	if !ok {
		return echo.NewHTTPError(http.StatusNotImplemented, "export is not available")
	}
	format := bulk.TXT
	if v := c.QueryParam("format"); v != "" {
		f, err := bulk.ParseFormat(v)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		format = f
	}
	// The listing's parameters, so a download gives what the history
	// shows: its order and its filters (band, unique), every page of it.
	q, _, err := requestListQuery(c)
	if err != nil {
		return err
	}
	q.Limit, q.Cursor = 0, ""
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, format.ContentType())
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="sudoku-%s-%s%s"`, q.Sort, exportOrder(q.Desc), format.Ext()))
	c.Response().WriteHeader(http.StatusOK)
	if _, err := bulk.Export(c.Request().Context(), ba, c.Response(), format, q); err != nil {
		// The status is sent: all that is left is to cut the download
		// short (the client sees a truncated body) and log why.
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

func exportOrder(desc bool) string {
	if desc {
		return "desc"
	}
	return "asc"
}
