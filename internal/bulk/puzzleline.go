package bulk

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/puzzletext"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// rateLine reads and rates the puzzle of a line: a classic puzzle by
// Options.rate (sudoku.Rate) as ever, refused without givens; a variant
// by record.RateVariant (givens optional: a killer may have none), with
// its title and author and the links that carry them.
func (im *importer) rateLine(l *line, sopt sudoku.Options) (record.Puzzle, error) {
	in, err := l.puzzle()
	if err != nil {
		return record.Puzzle{}, err
	}
	var p record.Puzzle
	if in.Classic() {
		if in.Givens.Clues() == 0 {
			return record.Puzzle{}, record.ErrNoGivens
		}
		p, err = im.rateFn(in.Givens, sopt)
	} else {
		p, err = record.RateVariant(in.Puzzle, sopt)
	}
	if err != nil {
		return record.Puzzle{}, err
	}
	if in.Title != "" || in.Author != "" {
		p.Title, p.Author = in.Title, in.Author
		p.SetLinks()
	}
	return p, nil
}

// puzzle reads the puzzle of a line: the line itself (puzzletext.ReadLine),
// or the "puzzle" field of a JSON object (a JSON export, with its "rules",
// "title" and "author") or of a CSV row (a CSV export).
func (l *line) puzzle() (puzzletext.Puzzle, error) {
	if l.csvCol >= 0 {
		rec, err := csv.NewReader(strings.NewReader(l.text)).Read()
		if err != nil {
			return puzzletext.Puzzle{}, fmt.Errorf("csv row: %w", err)
		}
		if l.csvCol >= len(rec) {
			return puzzletext.Puzzle{}, fmt.Errorf("csv row has %d fields, no puzzle column", len(rec))
		}
		if l.csvVar == nil {
			g, err := sudoku.Parse(rec[l.csvCol])
			return puzzletext.Puzzle{Puzzle: variant.Puzzle{Givens: g}}, err
		}
		return l.csvVar.of(rec).puzzle()
	}
	if t := strings.TrimLeft(l.text, " \t"); strings.HasPrefix(t, "{") {
		return exportObject(t)
	}
	return puzzletext.ReadLine(l.text)
}

// exported is the part of an export's JSON object that makes the puzzle.
type exported struct {
	Puzzle *string         `json:"puzzle"`
	Rules  json.RawMessage `json:"rules"`
	Title  string          `json:"title"`
	Author string          `json:"author"`
}

// exportObject reads a JSON line: an export's object (it has "puzzle"),
// else a puzzle's own JSON (the written form, f-puzzles JSON).
func exportObject(t string) (puzzletext.Puzzle, error) {
	var v exported
	if err := json.Unmarshal([]byte(t), &v); err != nil {
		if p, perr := puzzletext.Read(t); perr == nil {
			return p, nil // f-puzzles JSON whose fields do not fit exported's
		}
		return puzzletext.Puzzle{}, fmt.Errorf("json object: %w", err)
	}
	if v.Puzzle == nil {
		if !strings.Contains(t, `"givens"`) && !strings.Contains(t, `"grid"`) && !strings.Contains(t, `"size"`) {
			return puzzletext.Puzzle{}, errors.New(`json object has no "puzzle" field (nor is it a variant's written form or f-puzzles JSON)`)
		}
		return puzzletext.Read(t)
	}
	return v.puzzle()
}

// puzzle is the puzzle of an export's object or row: its givens, and its
// rules (the written form's array), title and author when it has them.
func (v exported) puzzle() (puzzletext.Puzzle, error) {
	g, err := sudoku.Parse(*v.Puzzle)
	if err != nil {
		return puzzletext.Puzzle{}, err
	}
	p := puzzletext.Puzzle{Puzzle: variant.Puzzle{Givens: g}, Title: strings.TrimSpace(v.Title), Author: strings.TrimSpace(v.Author)}
	if r := bytes.TrimSpace(v.Rules); len(r) > 0 && !bytes.Equal(r, []byte("null")) {
		vp, err := puzzletext.Read(`{"givens":"` + g.String() + `","rules":` + string(r) + `}`)
		if err != nil {
			return puzzletext.Puzzle{}, err
		}
		p.Rules = vp.Rules
	}
	return p, puzzletext.CheckMeta(p.Title, p.Author)
}

// csvVariant is where a CSV export's header puts the puzzle and the
// variant's columns (rules, title, author; -1 for a column it lacks).
type csvVariant struct{ puzzle, rules, title, author int }

// csvVariantColumns finds the variant's columns of a CSV header with a
// puzzle column; nil when it has none of them (a classic export).
func csvVariantColumns(header string) *csvVariant {
	rec, err := csv.NewReader(strings.NewReader(header)).Read()
	if err != nil {
		return nil
	}
	c := csvVariant{-1, -1, -1, -1}
	for i, f := range rec {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "puzzle":
			if c.puzzle < 0 { // the first, as csvHeader takes
				c.puzzle = i
			}
		case "rules":
			c.rules = i
		case "title":
			c.title = i
		case "author":
			c.author = i
		}
	}
	if c.puzzle < 0 || c.rules < 0 && c.title < 0 && c.author < 0 {
		return nil
	}
	return &c
}

// of returns the export's fields of a CSV row (the puzzle column is there:
// puzzle checked its length).
func (c *csvVariant) of(rec []string) exported {
	field := func(i int) string {
		if i < 0 || i >= len(rec) {
			return ""
		}
		return rec[i]
	}
	text := field(c.puzzle)
	return exported{Puzzle: &text, Rules: json.RawMessage(field(c.rules)), Title: field(c.title), Author: field(c.author)}
}
