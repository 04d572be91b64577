package fpuzzles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/variant"
)

// Puzzle is a variant puzzle with what f-puzzles shows beside the grid.
type Puzzle struct {
	variant.Puzzle
	Title   string
	Author  string
	Ruleset string // the rules as the setter wrote them
}

// MaxJSON bounds the f-puzzles JSON Read accepts, in bytes: f-puzzles
// writes every cell of the grid, so its JSON runs larger than the archive's
// written form (variant.MaxBytes).
const MaxJSON = 256 << 10

// Error is f-puzzles input the archive cannot take: malformed, a cell
// outside the grid, a constraint it has no rule for (Unsupported), or a
// rule package variant refuses (Err, a *variant.RuleError).
type Error struct {
	Constraint  string // the f-puzzles name ("killercage", "grid"); "" for the document
	Entry       int    // 1-based place in the constraint's list; 0 for none
	Cell        string // the cell as f-puzzles writes it (R1C1); "" for none
	Unsupported bool   // a constraint, or a form of one, the archive has no rule for
	Msg         string
	Err         error
}

// Error says where: the constraint, entry and cell, then what is wrong.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("f-puzzles")
	if e.Constraint != "" {
		fmt.Fprintf(&b, " %q", e.Constraint)
	}
	if e.Entry > 0 {
		fmt.Fprintf(&b, " entry %d", e.Entry)
	}
	if e.Cell != "" {
		b.WriteString(" at " + e.Cell)
	}
	return b.String() + ": " + e.Msg
}

// Unwrap returns the *variant.RuleError behind e, if any.
func (e *Error) Unwrap() error { return e.Err }

func errAt(name string, entry int, cell, format string, args ...any) *Error {
	return &Error{Constraint: name, Entry: entry, Cell: cell, Msg: fmt.Sprintf(format, args...)}
}

func unsupported(name string, entry int, cell, format string, args ...any) *Error {
	e := errAt(name, entry, cell, format, args...)
	e.Unsupported = true
	return e
}

// document is f-puzzles JSON, the fields the archive reads and writes.
type document struct {
	Size            int             `json:"size"`
	Title           string          `json:"title,omitempty"`
	Author          string          `json:"author,omitempty"`
	Ruleset         string          `json:"ruleset,omitempty"`
	Grid            json.RawMessage `json:"grid"`
	DiagonalPlus    bool            `json:"diagonal+,omitempty"`
	DiagonalMinus   bool            `json:"diagonal-,omitempty"`
	AntiKnight      bool            `json:"antiknight,omitempty"`
	AntiKing        bool            `json:"antiking,omitempty"`
	DisjointGroups  bool            `json:"disjointgroups,omitempty"`
	NonConsecutive  bool            `json:"nonconsecutive,omitempty"`
	Negative        []string        `json:"negative,omitempty"`
	Arrow           []arrowEntry    `json:"arrow,omitempty"`
	KillerCage      []cellsEntry    `json:"killercage,omitempty"`
	LittleKillerSum []littleEntry   `json:"littlekillersum,omitempty"`
	Odd             []cellEntry     `json:"odd,omitempty"`
	Even            []cellEntry     `json:"even,omitempty"`
	ExtraRegion     []cellsEntry    `json:"extraregion,omitempty"`
	Thermometer     []linesEntry    `json:"thermometer,omitempty"`
	Palindrome      []linesEntry    `json:"palindrome,omitempty"`
	Renban          []linesEntry    `json:"renban,omitempty"`
	Whispers        []linesEntry    `json:"whispers,omitempty"`
	Difference      []cellsEntry    `json:"difference,omitempty"`
	XV              []cellsEntry    `json:"xv,omitempty"`
	Ratio           []cellsEntry    `json:"ratio,omitempty"`
	SandwichSum     []cellEntry     `json:"sandwichsum,omitempty"`
}

type cellsEntry struct {
	Cells []string `json:"cells"`
	Value clue     `json:"value,omitempty"`
}

type cellEntry struct {
	Cell  string `json:"cell"`
	Value clue   `json:"value,omitempty"`
}

type linesEntry struct {
	Lines [][]string `json:"lines"`
}

type arrowEntry struct {
	Cells []string   `json:"cells"`
	Lines [][]string `json:"lines"`
}

type littleEntry struct {
	Cell      string   `json:"cell"`
	Direction string   `json:"direction"`
	Value     clue     `json:"value,omitempty"`
	Cells     []string `json:"cells,omitempty"`
}

// clue is a constraint's value: f-puzzles writes a string ("10", "X", or
// "" for none); a number is read too, as other tools write one.
type clue string

// UnmarshalJSON reads a string, a number or null.
func (c *clue) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*c = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = clue(strings.TrimSpace(s))
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("value %s is neither a string nor a number", truncate(string(b)))
	}
	*c = clue(n.String())
	return nil
}

// number reads a clue as a whole number; ok is false for "".
func (c clue) number(name string, entry int, cell string) (n int, ok bool, err error) {
	if c == "" {
		return 0, false, nil
	}
	n, convErr := strconv.Atoi(string(c))
	if convErr != nil || n < 0 || n > 999 {
		return 0, false, errAt(name, entry, cell, "value %q is not a whole number from 0 to 999", truncate(string(c)))
	}
	return n, true, nil
}

func truncate(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

// handled lists the top-level fields Read turns into the puzzle.
var handled = []string{
	"size", "title", "author", "ruleset", "grid", "diagonal+", "diagonal-",
	"antiknight", "antiking", "disjointgroups", "nonconsecutive", "negative",
	"arrow", "killercage", "littlekillersum", "odd", "even", "extraregion",
	"thermometer", "palindrome", "renban", "whispers", "difference", "xv",
	"ratio", "sandwichsum",
}

// ignored lists top-level fields that hold no rule: the solution, and
// f-puzzles' solver settings.
var ignored = []string{"solution", "disabledlogic", "truecandidatesoptions"}

// Read reads f-puzzles JSON and validates the puzzle. It fails with an
// *Error naming the constraint, its entry and the cell.
func Read(data []byte) (Puzzle, error) {
	if len(data) > MaxJSON {
		return Puzzle{}, errAt("", 0, "", "%d bytes, over the limit of %d", len(data), MaxJSON)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return Puzzle{}, errAt("", 0, "", "not f-puzzles JSON: %v", err)
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if slices.Contains(handled, k) || slices.Contains(ignored, k) || empty(fields[k]) {
			continue
		}
		return Puzzle{}, unsupported(truncate(k), 0, "", "the archive has no rule for this constraint")
	}
	var d document
	if err := json.Unmarshal(data, &d); err != nil {
		e := errAt("", 0, "", "malformed: %v", err)
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			e.Constraint, _, _ = strings.Cut(te.Field, ".")
		}
		return Puzzle{}, e
	}
	if _, ok := fields["size"]; !ok || d.Size != 9 {
		return Puzzle{}, unsupported("size", 0, "", "size %d: the archive holds 9x9 grids only", d.Size)
	}
	return d.puzzle()
}

// empty reports whether a field holds nothing: null, false, [], {} or "".
func empty(raw json.RawMessage) bool {
	switch string(bytes.TrimSpace(raw)) {
	case "null", "false", "[]", "{}", `""`:
		return true
	}
	return false
}
