package bulk

// fields.go is the export's one list of fields (Fields): the CSV header,
// each CSV row, each JSON line and the field list of GET /data come from
// it, so a new figure of the puzzle object is one row here.

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// A Field is one figure of the puzzle object as the export writes it.
type Field struct {
	Name string // the puzzle object's JSON name, and the CSV column
	Type string // its type in the JSON export, for people (GET /data)
	Doc  string // what it holds, for people (GET /data)
	// text appends the CSV value, json the JSON value. For a field whose
	// value may need quoting or escaping (plain false), text appends the
	// raw text and the writers quote or escape it.
	text, json func(b []byte, p *record.Puzzle) []byte
	plain      bool
}

// Fields are the export's fields, in the order of the CSV columns and of
// the keys of each JSON line: every figure of the puzzle object
// (TestFieldsArePuzzleObject holds the two together). A new field goes
// last, so CSV readers that count columns keep working.
var Fields = []Field{
	intField("id", "the puzzle's number in this archive", func(p *record.Puzzle) int64 { return p.ID }),
	gridField("puzzle", "the givens as submitted: 81 cells row by row, . for a blank", func(p *record.Puzzle) *sudoku.Grid { return &p.Givens }),
	gridField("solution", "the solution (the first found when there are several)", func(p *record.Puzzle) *sudoku.Grid { return &p.Solution }),
	intField("clues", "how many givens", func(p *record.Puzzle) int64 { return int64(p.Clues) }),
	intField("solutions", "0, 1 or 2 (two or more): the search stops at two", func(p *record.Puzzle) int64 { return int64(p.Solutions) }),
	boolField("unique", "exactly one solution", func(p *record.Puzzle) bool { return p.Unique }),
	{Name: "band", Type: "text or null", Doc: "the word of the grade: easy, medium, hard, fiendish, extreme; empty (null) without a grade",
		text: func(b []byte, p *record.Puzzle) []byte { return append(b, p.Band...) },
		json: func(b []byte, p *record.Puzzle) []byte {
			if p.Band == "" { // as sudoku.Band marshals it
				return append(b, "null"...)
			}
			return appendJSONString(b, string(p.Band))
		}},
	intField("backtracks", "guesses the search undid before proving uniqueness", func(p *record.Puzzle) int64 { return p.Backtracks }),
	intField("guesses", "branch points of that search", func(p *record.Puzzle) int64 { return p.Guesses }),
	intField("nodes", "positions that search visited", func(p *record.Puzzle) int64 { return p.Nodes }),
	intField("solve_ns", "median wall time of that search, in nanoseconds", func(p *record.Puzzle) int64 { return p.SolveNS }),
	textField("engine_version", "the engine that measured it", func(p *record.Puzzle) string { return p.EngineVersion }),
	{Name: "submitted_at", Type: "RFC 3339 time", Doc: "when these givens were first archived", plain: true,
		text: func(b []byte, p *record.Puzzle) []byte { return appendTime(b, p.SubmittedAt) },
		json: func(b []byte, p *record.Puzzle) []byte {
			return append(appendTime(append(b, '"'), p.SubmittedAt), '"')
		}},
	intField("submissions", "how many times these givens were submitted", func(p *record.Puzzle) int64 { return p.Submissions }),
	gridField("canonical", "the same for every way of writing the puzzle", func(p *record.Puzzle) *sudoku.Grid { return &p.Canonical }),
	optIntField("same_as", "the id of the first archived way of writing the same puzzle; empty (null) for the first", func(p *record.Puzzle) *int64 { return p.SameAs }),
	gradeField("grade", "the human-style grade, on Sudoku Explainer's scale (ER); empty (null) without one", func(p *record.Puzzle) *float64 { return p.Grade }),
	boolField("grade_floor", "the logical solver stopped at its budget: at least this hard", func(p *record.Puzzle) bool { return p.GradeFloor }),
	textField("technique", "the hardest technique of the logical path", func(p *record.Puzzle) string { return p.Technique }),
	gradeField("grade_ep", "the hardest step up to the first placement (EP)", func(p *record.Puzzle) *float64 { return p.GradeEP }),
	gradeField("grade_ed", "the grade of the first step (ED)", func(p *record.Puzzle) *float64 { return p.GradeED }),
	{Name: "techniques", Type: "list of text", Doc: "every technique of the logical path, easiest first (CSV: joined by " + record.TechniqueSeparator + ")",
		text: func(b []byte, p *record.Puzzle) []byte { return append(b, p.Techniques...) },
		json: func(b []byte, p *record.Puzzle) []byte { return appendJSONStrings(b, p.Techniques.Names()) }},
	textField("grade_status", "done, pending (waiting for the graders) or none (several solutions)", func(p *record.Puzzle) string { return string(p.GradeStatus) }),
	intField("plays", "players' first finished attempts at the puzzle, any way of writing it", func(p *record.Puzzle) int64 { return p.Plays }),
	{Name: "solve_rate", Type: "number or null", Doc: "the share of those plays that were solved; empty (null) without plays", plain: true,
		text: func(b []byte, p *record.Puzzle) []byte {
			if p.SolveRate == nil {
				return b
			}
			return strconv.AppendFloat(b, *p.SolveRate, 'f', -1, 64)
		},
		json: func(b []byte, p *record.Puzzle) []byte { return appendGrade(b, p.SolveRate) }},
	optIntField("median_seconds", "the median seconds of the counted solves; empty (null) without one", func(p *record.Puzzle) *int64 { return p.MedianSeconds }),
	optIntField("player_seconds", "the seconds the players' model expects of a typical player; empty (null) until enough plays", func(p *record.Puzzle) *int64 { return p.PlayerSeconds }),
	{Name: "collections", Type: "list of integers", Doc: "the ids of the collections that hold the puzzle (CSV: joined by |)", plain: true,
		text: func(b []byte, p *record.Puzzle) []byte {
			return append(b, strings.ReplaceAll(string(p.Collections), ",", "|")...)
		},
		json: func(b []byte, p *record.Puzzle) []byte { return p.Collections.AppendJSON(b) }},
	{Name: "submitted_by", Type: "text or null", Doc: "the account whose submission archived it; empty (null) when anonymous or imported",
		text: func(b []byte, p *record.Puzzle) []byte {
			if p.SubmittedBy == nil {
				return b
			}
			return append(b, *p.SubmittedBy...)
		},
		json: func(b []byte, p *record.Puzzle) []byte {
			if p.SubmittedBy == nil {
				return append(b, "null"...)
			}
			return appendJSONString(b, *p.SubmittedBy)
		}},
	{Name: "rules", Type: "JSON array or null", Doc: "a variant's rules (docs/variants.md); empty (null) for a classic puzzle",
		text: func(b []byte, p *record.Puzzle) []byte { return append(b, p.Rules...) },
		json: func(b []byte, p *record.Puzzle) []byte {
			if p.Rules == "" {
				return append(b, "null"...)
			}
			return append(b, p.Rules...)
		}},
	{Name: "variant", Type: "list of text", Doc: "the short names of a variant's rules (killer, thermo, ...; CSV: joined by |); empty for a classic puzzle", plain: true,
		text: func(b []byte, p *record.Puzzle) []byte {
			return append(b, strings.ReplaceAll(string(p.Variant), ",", "|")...)
		},
		json: func(b []byte, p *record.Puzzle) []byte { return appendJSONStrings(b, p.Variant.List()) }},
	textField("title", "a variant's title as its setter gave it", func(p *record.Puzzle) string { return p.Title }),
	textField("author", "a variant's setter as given", func(p *record.Puzzle) string { return p.Author }),
	textField("fpuzzles", "a link that opens a variant in f-puzzles", func(p *record.Puzzle) string { return p.FPuzzles }),
	textField("sudokupad", "a link that opens a variant in SudokuPad", func(p *record.Puzzle) string { return p.SudokuPad }),
}

// appendJSONStrings appends names as a JSON array of strings, [] for none.
func appendJSONStrings(b []byte, names []string) []byte {
	b = append(b, '[')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, name)
	}
	return append(b, ']')
}

// intField is a field of an integer.
func intField(name, doc string, get func(p *record.Puzzle) int64) Field {
	f := func(b []byte, p *record.Puzzle) []byte { return strconv.AppendInt(b, get(p), 10) }
	return Field{Name: name, Type: "integer", Doc: doc, text: f, json: f, plain: true}
}

// optIntField is a field of an integer or null.
func optIntField(name, doc string, get func(p *record.Puzzle) *int64) Field {
	return Field{Name: name, Type: "integer or null", Doc: doc, plain: true,
		text: func(b []byte, p *record.Puzzle) []byte {
			if v := get(p); v != nil {
				return strconv.AppendInt(b, *v, 10)
			}
			return b
		},
		json: func(b []byte, p *record.Puzzle) []byte {
			if v := get(p); v != nil {
				return strconv.AppendInt(b, *v, 10)
			}
			return append(b, "null"...)
		}}
}

// gradeField is a field of a grade or null.
func gradeField(name, doc string, get func(p *record.Puzzle) *float64) Field {
	return Field{Name: name, Type: "number or null", Doc: doc, plain: true,
		text: func(b []byte, p *record.Puzzle) []byte {
			if g := get(p); g != nil {
				return strconv.AppendFloat(b, *g, 'f', -1, 64)
			}
			return b
		},
		json: func(b []byte, p *record.Puzzle) []byte { return appendGrade(b, get(p)) }}
}

// boolField is a field of true or false.
func boolField(name, doc string, get func(p *record.Puzzle) bool) Field {
	f := func(b []byte, p *record.Puzzle) []byte { return strconv.AppendBool(b, get(p)) }
	return Field{Name: name, Type: "true or false", Doc: doc, text: f, json: f, plain: true}
}

// gridField is a field of 81 cells.
func gridField(name, doc string, get func(p *record.Puzzle) *sudoku.Grid) Field {
	return Field{Name: name, Type: "text (81 cells)", Doc: doc, plain: true,
		text: func(b []byte, p *record.Puzzle) []byte { return get(p).Append(b) },
		json: func(b []byte, p *record.Puzzle) []byte { return append(get(p).Append(append(b, '"')), '"') }}
}

// textField is a field of text.
func textField(name, doc string, get func(p *record.Puzzle) string) Field {
	return Field{Name: name, Type: "text", Doc: doc,
		text: func(b []byte, p *record.Puzzle) []byte { return append(b, get(p)...) },
		json: func(b []byte, p *record.Puzzle) []byte { return appendJSONString(b, get(p)) }}
}

// appendTime appends t in RFC 3339 with nanoseconds, nothing for the zero
// time.
func appendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	return t.AppendFormat(b, time.RFC3339Nano)
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it.
func appendJSONString(b []byte, s string) []byte {
	if plainJSON(s) {
		return append(append(append(b, '"'), s...), '"')
	}
	j, _ := json.Marshal(s) // a string always marshals
	return append(b, j...)
}

// CSVHeader is the header row of a CSV export: the names of Fields.
var CSVHeader = fieldNames()

func fieldNames() []string {
	names := make([]string, len(Fields))
	for i, f := range Fields {
		names[i] = f.Name
	}
	return names
}

// appendCSV appends p's row to b, quoting a field as encoding/csv would.
func appendCSV(b []byte, p record.Puzzle) []byte {
	for i := range Fields {
		f := &Fields[i]
		if i > 0 {
			b = append(b, ',')
		}
		start := len(b)
		b = f.text(b, &p)
		if !f.plain && csvNeedsQuotes(string(b[start:])) {
			b = quoteCSV(b, start)
		}
	}
	return append(b, '\n')
}

// csvNeedsQuotes reports whether encoding/csv quotes the field s (its
// fieldNeedsQuotes, for a comma separator).
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` || strings.ContainsAny(s, "\n\r\",") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// quoteCSV quotes the field b[start:] as encoding/csv does: in double
// quotes, a quote doubled.
func quoteCSV(b []byte, start int) []byte {
	field := string(b[start:])
	b = append(b[:start], '"')
	for i := 0; i < len(field); i++ {
		if field[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, field[i])
	}
	return append(b, '"')
}

// appendJSON appends p's JSON line (without the line break): an object
// with every field of Fields, in their order.
func appendJSON(b []byte, p record.Puzzle) ([]byte, error) {
	if y := p.SubmittedAt.Year(); y < 0 || y > 9999 {
		_, err := json.Marshal(p) // the error encoding/json gives such a time
		return b, err
	}
	b = append(b, '{')
	for i := range Fields {
		f := &Fields[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), f.Name...), `":`...)
		b = f.json(b, &p)
	}
	return append(b, '}'), nil
}
