package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// batchPath is the batch import's route (MaxBatchBody, BulkTimeout).
const batchPath = "/api/puzzles/batch"

// MaxBatchBody is the largest body POST /api/puzzles/batch reads: about
// 12,000 puzzle lines. Larger collections go through `sudoku import`.
const MaxBatchBody = 1 << 20

// rateChunk is how many lines of a batch are rated in one turn of the
// search gate: a few hundred milliseconds of the hardest puzzles, so a
// batch shares the gate fairly with single submissions and other batches.
const rateChunk = 256

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

// splitLines splits body into lines at "\n", "\r\n" or "\r" (bulk.ScanLines).
func splitLines(body []byte) []string {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), len(body)+1)
	sc.Split(bulk.ScanLines)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines // body is in memory: no read error
}

// skipLine reports whether import skips a line: blank, or a # comment.
func skipLine(l string) bool {
	l = strings.TrimLeft(l, " \t\v\f")
	return l == "" || l[0] == '#'
}

// collector is a bulk.Sink that keeps what Import rates instead of
// storing it: importText stores the whole body in one transaction.
type collector struct{ ps []sudoku.Puzzle }

func (k *collector) SubmitMany(_ context.Context, ps []sudoku.Puzzle) ([]bool, error) {
	k.ps = append(k.ps, ps...)
	return make([]bool, len(ps)), nil
}

// importText archives body, one puzzle per line, with the rules of
// `sudoku import` (bulk.Import rates each line), all in one transaction: on
// success every counted puzzle is committed, on error none is. It returns
// the summary and every rejected line, in order. Lines may end in "\n",
// "\r\n" or "\r".
//
// Rating is the expensive part, so it is bounded: lines that repeat an
// earlier line's puzzle are not rated again (they count as duplicates, or
// share the earlier line's rejection), and the rest are rated rateChunk
// lines at a time, each chunk in a turn of the search gate, on one core.
func (s *Server) importText(ctx context.Context, name string, body []byte) (bulk.Summary, []bulk.Rejection, error) {
	start := time.Now()
	lines := splitLines(body)
	if len(lines) > 0 {
		lines[0] = strings.TrimPrefix(lines[0], "\uFEFF")
	}
	// A CSV export's header row names the puzzle column: it goes in front
	// of every chunk, so that Import reads each chunk as CSV.
	header := ""
	first := slices.IndexFunc(lines, func(l string) bool { return !skipLine(l) })
	if first >= 0 && isCSVHeader(lines[first]) {
		header = lines[first]
		lines[first] = ""
	}

	// Repeats: a line whose puzzle (or, unread, its text) came before.
	firstOf := make(map[string]int)
	dupOf := make(map[int]int) // line index -> index of the first line
	for i, l := range lines {
		if skipLine(l) {
			continue
		}
		key := "t:" + strings.TrimSpace(l)
		if header == "" && !strings.HasPrefix(strings.TrimSpace(l), "{") {
			if g, err := sudoku.ParseLine(l); err == nil {
				key = "g:" + g.String()
			}
		}
		if j, ok := firstOf[key]; ok {
			dupOf[i] = j
		} else {
			firstOf[key] = i
		}
	}

	rated := make(map[int]sudoku.Puzzle)
	rejectedAt := make(map[int]error)
	for from := 0; from < len(lines); from += rateChunk {
		to := min(from+rateChunk, len(lines))
		var text strings.Builder
		offset := from // chunk line k (1-based) is lines[offset+k-1]
		if header != "" {
			text.WriteString(header + "\n")
			offset--
		}
		var want []int // indexes of the lines Import rates, in order
		for i := from; i < to; i++ {
			if _, dup := dupOf[i]; !dup && !skipLine(lines[i]) {
				text.WriteString(lines[i])
				want = append(want, i)
			}
			text.WriteByte('\n')
		}
		if len(want) == 0 {
			continue
		}
		var k collector
		var rej []bulk.Rejection
		err := s.searching(ctx, func() error {
			_, err := bulk.Import(ctx, &k, []bulk.Input{{Name: name, Reader: strings.NewReader(text.String())}}, bulk.Options{
				Workers:   1,
				BatchSize: rateChunk + 1,
				MaxNodes:  s.cfg.MaxNodes,
				Reject:    func(r bulk.Rejection) { rej = append(rej, r) },
			})
			return err
		})
		if err != nil {
			return bulk.Summary{}, nil, err
		}
		for _, r := range rej {
			rejectedAt[offset+int(r.Line)-1] = r.Err
		}
		n := 0
		for _, i := range want {
			if _, bad := rejectedAt[i]; bad {
				continue
			}
			if n == len(k.ps) {
				return bulk.Summary{}, nil, fmt.Errorf("import of lines %d-%d: %d puzzles rated, more lines accepted", from+1, to, len(k.ps))
			}
			rated[i] = k.ps[n]
			n++
		}
	}

	var (
		ps       []sudoku.Puzzle
		rejected []bulk.Rejection
	)
	for i := range lines {
		j, dup := dupOf[i]
		if !dup {
			j = i
		}
		if p, ok := rated[j]; ok {
			ps = append(ps, p)
		} else if err, ok := rejectedAt[j]; ok {
			rejected = append(rejected, bulk.Rejection{Input: name, Line: int64(i + 1), Err: err})
		}
	}
	sum := bulk.Summary{Rejected: int64(len(rejected))}
	if len(ps) > 0 {
		dups, err := s.archive.SubmitMany(ctx, ps)
		s.graded()
		if err != nil {
			return bulk.Summary{}, nil, err
		}
		for i, d := range dups {
			switch {
			case d:
				sum.Duplicates++
			case ps[i].SameAs != nil:
				sum.Equivalents++
				sum.Imported++
			default:
				sum.Imported++
			}
		}
	}
	sum.Elapsed = time.Since(start)
	return sum, rejected, nil
}

// isCSVHeader reports whether l is the header row of a CSV export: it
// starts with a letter (no puzzle line does) and has a "puzzle" column.
func isCSVHeader(l string) bool {
	if l == "" || !('a' <= l[0] && l[0] <= 'z' || 'A' <= l[0] && l[0] <= 'Z') || !strings.Contains(l, ",") {
		return false
	}
	for _, f := range strings.Split(l, ",") {
		if strings.EqualFold(strings.Trim(strings.TrimSpace(f), `"`), "puzzle") {
			return true
		}
	}
	return false
}

// apiExport streams the archive as a download: format txt (default), csv
// or json (one object per line), with the listing's sort, order, band and
// unique parameters and defaults.
//
// An export has no deadline for the whole response: it goes on as long as
// it makes progress, each write to the client given ExportStall to finish.
// It either delivers every row or fails visibly: the error is logged and
// the connection is cut before the final chunk, so the client sees a
// broken download, not a short one. At most maxExports run at once.
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
	if err := s.exports.enter(req.Context()); err != nil {
		return err
	}
	defer s.exports.leave()

	c.Response().WriteHeader(http.StatusOK)
	w := &stallWriter{w: c.Response(), rc: http.NewResponseController(c.Response()), stall: s.cfg.ExportStall}
	n, err := bulk.Export(req.Context(), s.archive, w, format, q)
	if err != nil {
		s.log.Error("export failed: the download was cut short",
			slog.String("path", req.URL.Path), slog.String("query", req.URL.RawQuery),
			slog.Int64("rows_sent", n), slog.Any("err", err))
		// Ending the handler normally would send the final chunk and
		// the truncated body would look complete.
		panic(http.ErrAbortHandler)
	}
	return nil
}

// stallWriter gives each write its own deadline, stall from its start:
// a client that reads steadily, however slowly, gets the whole export; one
// that stops reading fails the write, and the export, after stall.
type stallWriter struct {
	w     io.Writer
	rc    *http.ResponseController
	stall time.Duration
}

func (s *stallWriter) Write(p []byte) (int, error) {
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.stall)) // not supported by test recorders
	return s.w.Write(p)
}

func exportOrder(desc bool) string {
	if desc {
		return "desc"
	}
	return "asc"
}
