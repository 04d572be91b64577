package web

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/bulk"
)

// batchPath is the batch import's route (MaxBatchBody, BulkTimeout).
const batchPath = "/api/puzzles/batch"

// MaxBatchBody is the largest body POST /api/puzzles/batch reads: about
// 12,000 puzzle lines. Larger collections go through `sudoku import`.
const MaxBatchBody = 1 << 20

// batchResult is the answer of POST /api/puzzles/batch: the import's
// summary and every rejected line.
type batchResult struct {
	Imported   int64 `json:"imported"`
	Duplicates int64 `json:"duplicates"`
	// Equivalents counts the imported puzzles that are another way of
	// writing an archived one.
	Equivalents int64        `json:"equivalents"`
	Rejected    int64        `json:"rejected"`
	Errors      []batchError `json:"errors"`
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
	req := c.Request()
	if mt, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType)); err != nil || mt != echo.MIMETextPlain {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send the puzzles as text/plain, one per line")
	}
	extendWrite(c, s.cfg.BulkTimeout+10*time.Second)
	body, err := io.ReadAll(req.Body) // bounded by bodyLimit
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
			fmt.Sprintf("body larger than %d bytes: split it, or use `sudoku import`", MaxBatchBody))
	case err != nil:
		return echo.NewHTTPError(http.StatusBadRequest, "unreadable body").SetInternal(err)
	}

	sum, rejected, err := s.importText(req.Context(), "body", body)
	if err != nil {
		return fmt.Errorf("batch import: %w", err)
	}
	res := batchResult{Imported: sum.Imported, Duplicates: sum.Duplicates, Equivalents: sum.Equivalents, Rejected: sum.Rejected, Errors: make([]batchError, len(rejected))}
	for i, r := range rejected {
		res.Errors[i] = batchError{Line: r.Line, Error: r.Err.Error()}
	}
	return c.JSON(http.StatusOK, res)
}

// importText archives body, one puzzle per line, through the import's one
// pipeline (bulk.ImportText: the rules of `sudoku import`, one
// transaction), its ratings taking turns at the server's search gate.
func (s *Server) importText(ctx context.Context, name string, body []byte) (bulk.Summary, []bulk.Rejection, error) {
	return s.arch.ImportText(ctx, name, body)
}

// apiExport streams the archive as a download: format txt (default), csv
// or json (one object per line), with the listing's sort, order, band and
// unique parameters and defaults.
//
// An export has no deadline for the whole response: it goes on as long as
// it makes progress, each write to the client given ExportStall to finish.
// It either delivers every row or fails visibly: the error is logged and
// the connection is cut before the final chunk, so the client sees a
// broken download, not a short one. Turns are shared out by enterExport
// (exports.go).
func (s *Server) apiExport(c echo.Context) error {
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
	req := c.Request()
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, format.ContentType())
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="sudoku-%s-%s%s"`, q.Sort, exportOrder(q.Desc), format.Ext()))
	if req.Method == http.MethodHead {
		return c.NoContent(http.StatusOK)
	}
	leave, err := s.enterExport(c)
	if err != nil {
		return err
	}
	defer leave()

	h.Set("Link", `</data>; rel="license"`)
	boundSendBuffer(c)
	var w io.Writer = &stallWriter{w: c.Response(), rc: http.NewResponseController(c.Response()), stall: s.cfg.ExportStall, gate: s.gate()}
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	var gz *gzip.Writer
	if acceptsGzip(req) {
		// BestSpeed: the export is a stream, and a core compressing at a
		// higher level would hold back the rows.
		h.Set(echo.HeaderContentEncoding, "gzip")
		gz, _ = gzip.NewWriterLevel(w, gzip.BestSpeed)
		w = gz
	}
	c.Response().WriteHeader(http.StatusOK)
	// The status goes out now: compressed, the first rows may take a while
	// to fill a block, and a failure before them must still read as a
	// broken download, not a refused connection.
	_ = http.NewResponseController(c.Response()).Flush()
	n, err := bulk.ExportLicensed(req.Context(), s.archive, w, format, q, s.cfg.Licence)
	if err == nil && gz != nil {
		err = gz.Close()
	}
	if err != nil {
		s.exportCut(c, n, err) // exportcut.go: whose doing, at which level
		// Ending the handler normally would send the final chunk and
		// the truncated body would look complete.
		panic(http.ErrAbortHandler)
	}
	return nil
}

// stallWriter gives each write its own deadline, stall from its start:
// a client that reads steadily, however slowly, gets the whole export; one
// that stops reading fails the write, and the export, after stall. Its
// Write (exportconn.go) writes in small pieces, over a bounded send buffer
// (boundSendBuffer).
type stallWriter struct {
	w     io.Writer
	rc    *http.ResponseController
	stall time.Duration
	// gate, when set, is the graders' gate (the busy middleware entered
	// it): a write waiting for the client leaves its place to them.
	gate *bulk.Activity
}

func exportOrder(desc bool) string {
	if desc {
		return "desc"
	}
	return "asc"
}
