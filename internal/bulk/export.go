package bulk

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Source is what Export needs of the archive.
type Source interface {
	// Export calls fn for every archived puzzle in q's order (Sort, Desc;
	// Limit and Cursor are ignored), stopping at fn's first error.
	Export(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Puzzle) error) error
}

// GivensSource is a Source that can also stream only the givens of each
// puzzle, which is all a text export writes: Export uses it when src has it.
type GivensSource interface {
	Source
	// ExportGivens is Export handing fn only each puzzle's givens.
	ExportGivens(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Grid) error) error
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
	return "", fmt.Errorf("unknown format %s (want txt, csv or json)", sudoku.Echo(s))
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

// CSVHeader is the header row of a CSV export: the puzzle object's fields.
var CSVHeader = []string{
	"id", "puzzle", "solution", "clues", "solutions", "unique", "band",
	"backtracks", "guesses", "nodes", "solve_ns", "engine_version",
	"submitted_at", "submissions", "canonical", "same_as", "grade",
	"grade_floor", "technique", "grade_ep", "grade_ed", "techniques",
	"grade_status",
}

// Export writes every puzzle of src to w in format f, in q's order, and
// returns how many it wrote. It streams: one puzzle at a time passes from
// the database to a buffered writer.
func Export(ctx context.Context, src Source, w io.Writer, f Format, q sudoku.ListQuery) (int64, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	write, cw, err := puzzleWriter(bw, f)
	if err != nil {
		return 0, err
	}
	var n int64
	if gs, ok := src.(GivensSource); ok && f == TXT {
		n, err = exportGivens(ctx, gs, bw, q)
	} else {
		err = src.Export(ctx, q, func(p sudoku.Puzzle) error {
			if err := write(p); err != nil {
				return fmt.Errorf("write puzzle %d: %w", p.ID, err)
			}
			n++
			return nil
		})
	}
	if err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	if cw != nil {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return n, fmt.Errorf("export: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// puzzleWriter returns the function that writes one puzzle to bw in format
// f, and for CSV the csv.Writer it may use (to be flushed at the end), the
// header row written already.
func puzzleWriter(bw *bufio.Writer, f Format) (write func(sudoku.Puzzle) error, cw *csv.Writer, err error) {
	switch f {
	case TXT:
		buf := make([]byte, 82)
		buf[81] = '\n'
		return func(p sudoku.Puzzle) error {
			p.Givens.Append(buf[:0])
			_, err := bw.Write(buf)
			return err
		}, nil, nil
	case CSV:
		cw = csv.NewWriter(bw)
		if err := cw.Write(CSVHeader); err != nil {
			return nil, nil, fmt.Errorf("write csv header: %w", err)
		}
		cw.Flush()
		return csvWriter(bw, cw), cw, nil
	case JSON:
		var buf []byte
		return func(p sudoku.Puzzle) error {
			var err error
			buf, err = appendJSON(buf[:0], p)
			if err != nil {
				return err
			}
			buf = append(buf, '\n')
			_, err = bw.Write(buf)
			return err
		}, nil, nil
	default:
		return nil, nil, fmt.Errorf("unknown format %q", f)
	}
}

// csvWriter writes one CSV row per puzzle: straight into bw when no field
// needs quoting (appendCSV), through encoding/csv (cw) when one does.
func csvWriter(bw *bufio.Writer, cw *csv.Writer) func(sudoku.Puzzle) error {
	var (
		buf []byte
		row []string
	)
	return func(p sudoku.Puzzle) error {
		var ok bool
		if buf, ok = appendCSV(buf[:0], p); ok {
			_, err := bw.Write(buf)
			return err
		}
		// A field that needs quoting: encoding/csv writes the row.
		if row == nil {
			row = make([]string, len(CSVHeader))
		}
		if err := cw.Write(csvRow(row, p)); err != nil {
			return err
		}
		cw.Flush()
		return cw.Error()
	}
}

// exportGivens is a text export from a GivensSource: only the givens of
// each puzzle leave the database. It returns how many puzzles it wrote.
func exportGivens(ctx context.Context, gs GivensSource, bw *bufio.Writer, q sudoku.ListQuery) (int64, error) {
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

// csvRow fills row with p's fields in CSVHeader order.
func csvRow(row []string, p sudoku.Puzzle) []string {
	row[0] = strconv.FormatInt(p.ID, 10)
	row[1] = p.Givens.String()
	row[2] = p.Solution.String()
	row[3] = strconv.Itoa(p.Clues)
	row[4] = strconv.Itoa(p.Solutions)
	row[5] = strconv.FormatBool(p.Unique)
	row[6] = string(p.Band)
	row[7] = strconv.FormatInt(p.Backtracks, 10)
	row[8] = strconv.FormatInt(p.Guesses, 10)
	row[9] = strconv.FormatInt(p.Nodes, 10)
	row[10] = strconv.FormatInt(p.SolveNS, 10)
	row[11] = p.EngineVersion
	row[12] = ""
	if !p.SubmittedAt.IsZero() {
		row[12] = p.SubmittedAt.Format(time.RFC3339Nano)
	}
	row[13] = strconv.FormatInt(p.Submissions, 10)
	row[14] = p.Canonical.String()
	row[15], row[16] = "", ""
	if p.SameAs != nil {
		row[15] = strconv.FormatInt(*p.SameAs, 10)
	}
	if p.Grade != nil {
		row[16] = strconv.FormatFloat(*p.Grade, 'f', -1, 64)
	}
	row[17] = strconv.FormatBool(p.GradeFloor)
	row[18] = p.Technique
	row[19], row[20] = "", ""
	if p.GradeEP != nil {
		row[19] = strconv.FormatFloat(*p.GradeEP, 'f', -1, 64)
	}
	if p.GradeED != nil {
		row[20] = strconv.FormatFloat(*p.GradeED, 'f', -1, 64)
	}
	row[21] = string(p.Techniques) // names joined by sudoku.TechniqueSeparator
	row[22] = string(p.GradeStatus)
	return row
}

// appendCSV appends p's row, as encoding/csv writes csvRow(p), to b, byte
// for byte and several times faster: the CSV export's hot loop. It reports
// false, having appended garbage, when a text field would need quoting;
// the caller then writes the row with encoding/csv.
func appendCSV(b []byte, p sudoku.Puzzle) ([]byte, bool) {
	if !plainCSV(p.EngineVersion) || !plainCSV(string(p.Band)) || !plainCSV(p.Technique) || !plainCSV(string(p.Techniques)) {
		return b, false
	}
	b = strconv.AppendInt(b, p.ID, 10)
	b = append(b, ',')
	b = p.Givens.Append(b)
	b = append(b, ',')
	b = p.Solution.Append(b)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.Clues), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.Solutions), 10)
	b = append(b, ',')
	b = strconv.AppendBool(b, p.Unique)
	b = append(b, ',')
	b = append(b, p.Band...)
	b = append(b, ',')
	b = strconv.AppendInt(b, p.Backtracks, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, p.Guesses, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, p.Nodes, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, p.SolveNS, 10)
	b = append(b, ',')
	b = append(b, p.EngineVersion...)
	b = append(b, ',')
	if !p.SubmittedAt.IsZero() {
		b = p.SubmittedAt.AppendFormat(b, time.RFC3339Nano)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, p.Submissions, 10)
	b = append(b, ',')
	b = p.Canonical.Append(b)
	b = append(b, ',')
	if p.SameAs != nil {
		b = strconv.AppendInt(b, *p.SameAs, 10)
	}
	b = append(b, ',')
	if p.Grade != nil {
		b = strconv.AppendFloat(b, *p.Grade, 'f', -1, 64)
	}
	b = append(b, ',')
	b = strconv.AppendBool(b, p.GradeFloor)
	b = append(b, ',')
	b = append(b, p.Technique...)
	b = append(b, ',')
	if p.GradeEP != nil {
		b = strconv.AppendFloat(b, *p.GradeEP, 'f', -1, 64)
	}
	b = append(b, ',')
	if p.GradeED != nil {
		b = strconv.AppendFloat(b, *p.GradeED, 'f', -1, 64)
	}
	b = append(b, ',')
	b = append(b, p.Techniques...)
	b = append(b, ',')
	b = append(b, p.GradeStatus...)
	return append(b, '\n'), true
}

// plainCSV reports whether encoding/csv writes s as it is, unquoted: s
// holds no comma, quote or line break, is not `\.`, and does not begin with
// a space (an empty s is plain). Anything outside ASCII counts as not
// plain, which only sends rare rows the slow way.
func plainCSV(s string) bool {
	if s == `\.` || (s != "" && (s[0] == ' ' || s[0] == '\t' || s[0] == '\v' || s[0] == '\f')) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '"' || c == '\n' || c == '\r' || c >= 0x80 {
			return false
		}
	}
	return true
}

// appendJSON appends json.Marshal(p) to b, byte for byte, about ten times
// faster: the export's hot loop. Fields that would need JSON escaping or
// that encoding/json would refuse (a year past 9999) go the slow way.
func appendJSON(b []byte, p sudoku.Puzzle) ([]byte, error) {
	if !plainJSON(p.EngineVersion) || !plainJSON(string(p.Band)) || !plainJSON(p.Technique) ||
		!plainJSON(string(p.Techniques)) || !plainJSON(string(p.GradeStatus)) ||
		p.SubmittedAt.Year() < 0 || p.SubmittedAt.Year() > 9999 {
		j, err := json.Marshal(p)
		return append(b, j...), err
	}
	b = append(b, '{')
	if p.ID != 0 {
		b = append(b, `"id":`...)
		b = strconv.AppendInt(b, p.ID, 10)
		b = append(b, ',')
	}
	b = append(b, `"puzzle":"`...)
	b = p.Givens.Append(b)
	b = append(b, `","canonical":"`...)
	b = p.Canonical.Append(b)
	b = append(b, `","solution":"`...)
	b = p.Solution.Append(b)
	b = append(b, `","clues":`...)
	b = strconv.AppendInt(b, int64(p.Clues), 10)
	b = append(b, `,"solutions":`...)
	b = strconv.AppendInt(b, int64(p.Solutions), 10)
	b = append(b, `,"unique":`...)
	b = strconv.AppendBool(b, p.Unique)
	b = append(b, `,"backtracks":`...)
	b = strconv.AppendInt(b, p.Backtracks, 10)
	b = append(b, `,"band":"`...)
	b = append(b, p.Band...)
	b = append(b, `","guesses":`...)
	b = strconv.AppendInt(b, p.Guesses, 10)
	b = append(b, `,"nodes":`...)
	b = strconv.AppendInt(b, p.Nodes, 10)
	b = append(b, `,"solve_ns":`...)
	b = strconv.AppendInt(b, p.SolveNS, 10)
	if p.EngineVersion != "" {
		b = append(b, `,"engine_version":"`...)
		b = append(b, p.EngineVersion...)
		b = append(b, '"')
	}
	if !p.SubmittedAt.IsZero() {
		b = append(b, `,"submitted_at":"`...)
		b = p.SubmittedAt.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	if p.Submissions != 0 {
		b = append(b, `,"submissions":`...)
		b = strconv.AppendInt(b, p.Submissions, 10)
	}
	b = append(b, `,"same_as":`...)
	if p.SameAs != nil {
		b = strconv.AppendInt(b, *p.SameAs, 10)
	} else {
		b = append(b, "null"...)
	}
	return append(appendJSONGrades(b, p), '}'), nil
}

// appendJSONGrades appends the grade fields of p's JSON object, from
// "grade" to "grade_status"; appendJSON checked the strings are plain.
func appendJSONGrades(b []byte, p sudoku.Puzzle) []byte {
	b = append(b, `,"grade":`...)
	if p.Grade != nil {
		b = strconv.AppendFloat(b, *p.Grade, 'f', -1, 64)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"grade_floor":`...)
	b = strconv.AppendBool(b, p.GradeFloor)
	if p.Technique != "" {
		b = append(b, `,"technique":"`...)
		b = append(b, p.Technique...)
		b = append(b, '"')
	}
	b = appendGrade(append(b, `,"grade_ep":`...), p.GradeEP)
	b = appendGrade(append(b, `,"grade_ed":`...), p.GradeED)
	b = append(b, `,"techniques":[`...)
	for i, name := range p.Techniques.Names() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), name...), '"')
	}
	b = append(b, `],"grade_status":"`...)
	b = append(b, p.GradeStatus...)
	return appendJSONPlayers(append(b, '"'), p)
}

// appendJSONPlayers appends the players' figures of p's JSON object, from
// "plays" to "player_seconds".
func appendJSONPlayers(b []byte, p sudoku.Puzzle) []byte {
	b = strconv.AppendInt(append(b, `,"plays":`...), p.Plays, 10)
	b = append(b, `,"solve_rate":`...)
	if p.SolveRate != nil {
		b = strconv.AppendFloat(b, *p.SolveRate, 'f', -1, 64)
	} else {
		b = append(b, "null"...)
	}
	for _, f := range []struct {
		name string
		v    *int64
	}{{"median_seconds", p.MedianSeconds}, {"player_seconds", p.PlayerSeconds}} {
		b = append(append(append(b, `,"`...), f.name...), `":`...)
		if f.v != nil {
			b = strconv.AppendInt(b, *f.v, 10)
		} else {
			b = append(b, "null"...)
		}
	}
	return b
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
