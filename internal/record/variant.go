package record

import (
	"encoding/json"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
)

// Rules is a variant puzzle's rules in their written form (the "rules"
// array of variant.Puzzle.Text: compact JSON, docs/variants.md), "" for a
// classic puzzle. It is a string so that a Puzzle stays comparable; its
// JSON is the array itself.
type Rules string

// RulesOf returns rules in their written form, "" for none.
func RulesOf(rules []variant.Rule) Rules {
	if len(rules) == 0 {
		return ""
	}
	b, err := json.Marshal(rules)
	if err != nil {
		return "" // only a cell outside the grid, which Validate refuses first
	}
	return Rules(b)
}

// List returns the rules (nil for a classic puzzle). The text is the
// archive's own writing, so an error means a damaged row.
func (r Rules) List() ([]variant.Rule, error) {
	if r == "" {
		return nil, nil
	}
	var l []variant.Rule
	err := json.Unmarshal([]byte(r), &l)
	return l, err
}

// MarshalJSON writes the rules array as it is written, null for a
// classic puzzle.
func (r Rules) MarshalJSON() ([]byte, error) {
	if r == "" {
		return []byte("null"), nil
	}
	return []byte(r), nil
}

// UnmarshalJSON reads a rules array (null or [] for none) into its
// compact written form.
func (r *Rules) UnmarshalJSON(b []byte) error {
	var l []variant.Rule
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*r = RulesOf(l)
	return nil
}

// Variants is the short names of a puzzle's variants (["killer",
// "thermo"]: variant.Families), sorted and once each, held joined by commas ("" for a
// classic puzzle); its JSON is an array.
type Variants string

// VariantsOf returns the short names of the variants of rules.
func VariantsOf(rules []variant.Rule) Variants {
	return Variants(strings.Join(variant.Families(variant.Puzzle{Rules: rules}), ","))
}

// List returns the rule types' names (nil for a classic puzzle).
func (v Variants) List() []string {
	if v == "" {
		return nil
	}
	return strings.Split(string(v), ",")
}

// MarshalJSON writes the names as a JSON array, [] for none.
func (v Variants) MarshalJSON() ([]byte, error) {
	l := v.List()
	if l == nil {
		l = []string{}
	}
	return json.Marshal(l)
}

// UnmarshalJSON reads a JSON array of names (null for none).
func (v *Variants) UnmarshalJSON(b []byte) error {
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*v = Variants(strings.Join(l, ","))
	return nil
}

// VariantPuzzle returns p as the variant engine's puzzle: its givens and rules.
func (p Puzzle) VariantPuzzle() (variant.Puzzle, error) {
	rules, err := p.Rules.List()
	return variant.Puzzle{Givens: p.Givens, Rules: rules}, err
}

// SetLinks sets p's f-puzzles and SudokuPad links from its givens, rules,
// title and author; a classic puzzle has none. A row whose rules do not
// read back (damaged) gets none either.
func (p *Puzzle) SetLinks() {
	p.FPuzzles, p.SudokuPad = "", ""
	if p.Rules == "" {
		return
	}
	vp, err := p.VariantPuzzle()
	if err != nil {
		return
	}
	fp := fpuzzles.Puzzle{Puzzle: vp, Title: p.Title, Author: p.Author}
	if link, err := fpuzzles.Link(fp); err == nil {
		p.FPuzzles = link
	}
	if link, err := fpuzzles.SudokuPadLink(fp); err == nil {
		p.SudokuPad = link
	}
}

// RateVariant measures p with the variant engine (variant.Rate, which
// hands a classic puzzle to sudoku.Rate unchanged) and returns the
// archive's row of it, as Rate does, its rules in their normal writing
// (variant.Normal) and its links set: for a variant, Canonical and
// CanonicalRules together are the puzzle's identity, and there is no
// grade yet.
func RateVariant(p variant.Puzzle, opt sudoku.Options) (Puzzle, error) {
	p = variant.Normal(p)
	m, err := variant.Rate(p, opt)
	if err != nil {
		return Puzzle{}, err
	}
	r := Puzzle{
		Givens: p.Givens, Canonical: m.Canonical.Givens, Solution: m.Solution, Clues: m.Clues,
		Solutions: m.Solutions, Unique: m.Solutions == 1,
		Backtracks: m.Backtracks, Guesses: m.Guesses, Nodes: m.Nodes,
		SolveNS: m.SolveNS, EngineVersion: m.EngineVersion,
		Rules: RulesOf(p.Rules), CanonicalRules: RulesOf(m.Canonical.Rules),
		Variant: VariantsOf(p.Rules),
	}
	r.SetGradeStatus()
	r.SetLinks()
	return r, nil
}
