package bulk

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// Source is what Export needs of the archive.
type Source interface {
	// Export calls fn for every archived puzzle in q's order (Sort, Desc;
	// Limit and Cursor are ignored), stopping at fn's first error.
	Export(ctx context.Context, q record.ListQuery, fn func(record.Puzzle) error) error
}

// GivensSource is a Source that can also stream only the givens of each
// puzzle, which is all a text export writes: Export uses it when src has it.
type GivensSource interface {
	Source
	// ExportGivens is Export handing fn only each puzzle's givens.
	ExportGivens(ctx context.Context, q record.ListQuery, fn func(sudoku.Grid) error) error
}

// Format is an export file format.
type Format string

// The export formats.
const (
	TXT  Format = "txt"  // one 81-char puzzle per line, '.' for blanks
	CSV  Format = "csv"  // a header row of CSVHeader, then one row per puzzle
	JSON Format = "json" // one puzzle object per line (JSON Lines)
)

// Formats lists every Format, default first.
var Formats = []Format{TXT, CSV, JSON}

// ParseFormat returns the Format named s.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %s (want txt, csv or json)", userinput.Echo(s))
}

// ContentType is the MIME type of f, for HTTP.
func (f Format) ContentType() string {
	switch f {
	case CSV:
		return "text/csv; charset=utf-8"
	case JSON:
		return "application/jsonl; charset=utf-8"
	default:
		return "text/plain; charset=utf-8"
	}
}

// Ext is the usual file name extension of f, with the dot.
func (f Format) Ext() string {
	if f == JSON {
		return ".jsonl"
	}
	return "." + string(f)
}

// Export writes every puzzle of src to w in format f, in q's order, and
// returns how many it wrote. It streams: one puzzle at a time passes from
// the database to a buffered writer.
func Export(ctx context.Context, src Source, w io.Writer, f Format, q record.ListQuery) (int64, error) {
	return ExportLicensed(ctx, src, w, f, q, "")
}

// ExportLicensed is Export with the archive's licence (serve --licence)
// written at the head of a TXT export, each of its lines after "# ", which
// an import skips; CSV and JSON Lines have no place for it ("" for none).
func ExportLicensed(ctx context.Context, src Source, w io.Writer, f Format, q record.ListQuery, licence string) (int64, error) {
	r, err := ExportReport(ctx, src, w, f, q, licence)
	return r.Written, err
}

// An ExportResult says what an export wrote: how many puzzles, and how
// many variant puzzles a TXT export left out (its last line says so too,
// VariantsLeftOut), for a command to repeat on its standard error.
type ExportResult struct {
	Written, VariantsLeftOut int64
}

// ExportReport is ExportLicensed returning what it wrote and left out.
func ExportReport(ctx context.Context, src Source, w io.Writer, f Format, q record.ListQuery, licence string) (ExportResult, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	write, err := puzzleWriter(bw, f)
	if err != nil {
		return ExportResult{}, err
	}
	if f == TXT && licence != "" {
		for line := range strings.Lines(licence) {
			fmt.Fprintf(bw, "# %s\n", strings.TrimRight(line, "\r\n"))
		}
	}
	var n, left int64
	switch gs, ok := src.(GivensSource); {
	case f == TXT && ok:
		n, left, err = exportClassicGivens(ctx, gs, bw, q)
	default:
		err = src.Export(ctx, q, func(p record.Puzzle) error {
			if f == TXT && p.Rules != "" {
				left++ // a TXT line holds a classic puzzle only
				return nil
			}
			if err := write(p); err != nil {
				return fmt.Errorf("write puzzle %d: %w", p.ID, err)
			}
			n++
			return nil
		})
	}
	r := ExportResult{Written: n, VariantsLeftOut: left}
	if err != nil {
		return r, fmt.Errorf("export: %w", err)
	}
	if left > 0 {
		fmt.Fprintf(bw, VariantsLeftOut+"\n", left)
	}
	if err := bw.Flush(); err != nil {
		return r, fmt.Errorf("export: %w", err)
	}
	return r, nil
}

// puzzleWriter returns the function that writes one puzzle to bw in format
// f, the CSV header row written already.
func puzzleWriter(bw *bufio.Writer, f Format) (write func(record.Puzzle) error, err error) {
	switch f {
	case TXT:
		buf := make([]byte, 82)
		buf[81] = '\n'
		return func(p record.Puzzle) error {
			p.Givens.Append(buf[:0])
			_, err := bw.Write(buf)
			return err
		}, nil
	case CSV:
		cw := csv.NewWriter(bw)
		if err := cw.Write(CSVHeader); err != nil {
			return nil, fmt.Errorf("write csv header: %w", err)
		}
		cw.Flush()
		return csvWriter(bw), cw.Error()
	case JSON:
		var buf []byte
		return func(p record.Puzzle) error {
			var err error
			buf, err = appendJSON(buf[:0], p)
			if err != nil {
				return err
			}
			buf = append(buf, '\n')
			_, err = bw.Write(buf)
			return err
		}, nil
	default:
		return nil, fmt.Errorf("unknown format %q", f)
	}
}

// csvWriter writes one CSV row per puzzle (appendCSV).
func csvWriter(bw *bufio.Writer) func(record.Puzzle) error {
	var buf []byte
	return func(p record.Puzzle) error {
		buf = appendCSV(buf[:0], p)
		_, err := bw.Write(buf)
		return err
	}
}

// VariantsLeftOut is the line a TXT export ends with when it left variant
// puzzles out (a line holds a classic puzzle's 81 characters only), with
// their count: a comment ("# "), which an import skips as it skips the
// licence's, so the file stays one puzzle a line. A GET /api/export of
// TXT ends with it too: the count is known only after the rows, which
// follow the headers.
const VariantsLeftOut = "# %d variant puzzles left out: a TXT line holds a classic puzzle only (export JSON or CSV for them)"

// VariantCounter is a GivensSource that counts the variant puzzles of a
// listing (store.DB), which a TXT export leaves out.
type VariantCounter interface {
	CountVariants(ctx context.Context, q record.ListQuery) (int64, error)
}

// exportClassicGivens is a TXT export from a GivensSource: the classic
// puzzles of q (a variant filter keeps none), and how many variants it
// left out, counted when gs is a VariantCounter. When q keeps no variant
// (a count through the variant rows' index), the export reads as it did
// before variants: the classic filter, a test of every row, is added only
// when there are variants to leave out.
func exportClassicGivens(ctx context.Context, gs GivensSource, bw *bufio.Writer, q record.ListQuery) (n, left int64, err error) {
	vc, counts := gs.(VariantCounter)
	if counts {
		if left, err = vc.CountVariants(ctx, q); err != nil {
			return 0, 0, err
		}
	}
	if q.Variant != "" && q.Variant != "classic" {
		return 0, left, nil // variants only: none has a TXT line
	}
	if left > 0 || !counts {
		q.Variant = "classic"
	}
	n, err = exportGivens(ctx, gs, bw, q)
	return n, left, err
}

// exportGivens is a text export from a GivensSource: only the givens of
// each puzzle leave the database. It returns how many puzzles it wrote.
func exportGivens(ctx context.Context, gs GivensSource, bw *bufio.Writer, q record.ListQuery) (int64, error) {
	var n int64
	buf := make([]byte, 82)
	buf[81] = '\n'
	err := gs.ExportGivens(ctx, q, func(g sudoku.Grid) error {
		g.Append(buf[:0])
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("write puzzle %d of the export: %w", n+1, err)
		}
		n++
		return nil
	})
	return n, err
}

// appendGrade appends a grade as JSON: the number, or null.
func appendGrade(b []byte, g *float64) []byte {
	if g == nil {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, *g, 'f', -1, 64)
}

// plainJSON reports whether s needs no escaping in a JSON string, by
// encoding/json's rules (which also escape <, > and &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
