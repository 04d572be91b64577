package fpuzzles

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/variant"
)

// place is where a rule came from: its constraint and entry, for errors.
type place struct {
	name  string
	entry int
}

// builder collects the rules read, each with its place.
type builder struct {
	p      variant.Puzzle
	places []place
	global map[variant.Type]bool
}

// add appends a rule read from entry of constraint name.
func (b *builder) add(name string, entry int, r variant.Rule) {
	if len(r.Cells) == 0 && r.Line == "" { // a global rule, at most once a puzzle
		if b.global[r.Type] {
			return // a diagonal both ticked and drawn as an extra region: one rule
		}
		b.global[r.Type] = true
	}
	b.p.Rules = append(b.p.Rules, r)
	b.places = append(b.places, place{name, entry})
}

// puzzle turns a decoded document into a validated Puzzle.
func (d *document) puzzle() (Puzzle, error) {
	b := &builder{global: map[variant.Type]bool{}}
	if err := b.grid(d.Grid); err != nil {
		return Puzzle{}, err
	}
	for _, f := range []struct {
		on   bool
		name string
		t    variant.Type
	}{
		{d.DiagonalPlus, "diagonal+", variant.DiagonalPlus},
		{d.DiagonalMinus, "diagonal-", variant.DiagonalMinus},
		{d.AntiKnight, "antiknight", variant.AntiKnight},
		{d.AntiKing, "antiking", variant.AntiKing},
		{d.DisjointGroups, "disjointgroups", variant.Disjoint},
		{d.NonConsecutive, "nonconsecutive", variant.NonConsecutive},
	} {
		if f.on {
			b.add(f.name, 0, variant.Rule{Type: f.t})
		}
	}
	steps := []func(*document) error{
		b.negative, b.extraRegions, b.cages, b.littleKillers, b.sandwiches,
		b.arrows, b.dots, b.lines, b.parity,
	}
	for _, step := range steps {
		if err := step(d); err != nil {
			return Puzzle{}, err
		}
	}
	if err := b.p.Validate(); err != nil {
		return Puzzle{}, b.explain(err)
	}
	return Puzzle{Puzzle: b.p, Title: d.Title, Author: d.Author, Ruleset: d.Ruleset}, nil
}

// explain puts a *variant.RuleError in f-puzzles terms: the constraint
// and entry its rule came from, the cell as f-puzzles writes it.
func (b *builder) explain(err error) error {
	var re *variant.RuleError
	if !errors.As(err, &re) {
		return errAt("", 0, "", "%v", err)
	}
	e := &Error{Msg: b.renameRules(re.Msg), Err: err}
	if re.Rule > 0 && re.Rule <= len(b.places) {
		pl := b.places[re.Rule-1]
		e.Constraint, e.Entry = pl.name, pl.entry
	} else if re.Rule == 0 {
		e.Constraint = "grid"
	}
	if re.Cell >= 0 && re.Cell < 81 {
		e.Cell = name(variant.Cell(re.Cell))
	}
	return e
}

// ruleRef is how package variant names another rule in a message.
var ruleRef = regexp.MustCompile(`rule (\d+) \([a-z+-]+\)`)

// renameRules names the rules a message refers to by their f-puzzles
// places ("killercage" entry 1), not by their place in the rule list.
func (b *builder) renameRules(msg string) string {
	return ruleRef.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(ruleRef.FindStringSubmatch(m)[1])
		if n < 1 || n > len(b.places) {
			return m
		}
		pl := b.places[n-1]
		if pl.entry == 0 {
			return strconv.Quote(pl.name)
		}
		return fmt.Sprintf("%q entry %d", pl.name, pl.entry)
	})
}

// parseCell reads R<row>C<col> (either case), row and column 0 to 10 so
// that clues outside the grid read too.
func parseCell(s string) (r, c int, ok bool) {
	u := strings.ToUpper(s)
	rs, cs, found := strings.Cut(strings.TrimPrefix(u, "R"), "C")
	if !found || !strings.HasPrefix(u, "R") || len(rs) == 0 || len(rs) > 2 || len(cs) == 0 || len(cs) > 2 {
		return 0, 0, false
	}
	r, err1 := strconv.Atoi(rs)
	c, err2 := strconv.Atoi(cs)
	if err1 != nil || err2 != nil || r < 0 || r > 10 || c < 0 || c > 10 {
		return 0, 0, false
	}
	return r, c, true
}

// cell reads a cell inside the grid.
func cell(constraint string, entry int, s string) (variant.Cell, error) {
	r, c, ok := parseCell(s)
	if !ok {
		return 0, errAt(constraint, entry, truncate(s), "not a cell: expected R1C1 to R9C9")
	}
	if r < 1 || r > 9 || c < 1 || c > 9 {
		return 0, errAt(constraint, entry, s, "the cell is outside the grid")
	}
	return variant.Cell((r-1)*9 + c - 1), nil
}

func cells(constraint string, entry int, list []string) ([]variant.Cell, error) {
	out := make([]variant.Cell, 0, len(list))
	for _, s := range list {
		c, err := cell(constraint, entry, s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// name writes a cell as f-puzzles does.
func name(c variant.Cell) string { return rc(int(c)/9+1, int(c)%9+1) }

func rc(r, c int) string { return "R" + strconv.Itoa(r) + "C" + strconv.Itoa(c) }

// negative reads the "all dots are given" list. The archive's kropki
// rule covers both dots, so "difference" and "ratio" come together.
func (b *builder) negative(d *document) error {
	has := map[string]bool{}
	for _, n := range d.Negative {
		switch n {
		case "difference", "ratio", "xv":
			has[n] = true
		default:
			return unsupported("negative", 0, "", "the archive has no negative rule for %q", truncate(n))
		}
	}
	if has["difference"] != has["ratio"] {
		return unsupported("negative", 0, "", "the archive's negative kropki rule covers white and black dots together, not one kind alone")
	}
	if has["ratio"] {
		b.add("negative", 0, variant.Rule{Type: variant.KropkiNegative})
	}
	if has["xv"] {
		b.add("negative", 0, variant.Rule{Type: variant.XVNegative})
	}
	return nil
}

// shapes are the fixed extra regions an f-puzzles extra region may draw,
// matched whole (windoku's four windows together).
var shapes = []variant.Type{
	variant.Windoku, variant.Asterisk, variant.CentreDot, variant.Girandola,
	variant.DiagonalMinus, variant.DiagonalPlus,
}

func regionKey(cs []variant.Cell) string {
	s := slices.Clone(cs)
	slices.Sort(s)
	var b strings.Builder
	for _, c := range s {
		b.WriteByte(byte(c))
	}
	return b.String()
}

// extraRegions reads extra regions: those that draw a fixed shape the
// archive knows (every group of it) are that rule; any other is an
// extraregion rule of its own (nine cells, which Validate checks).
func (b *builder) extraRegions(d *document) error {
	keys := make([]string, len(d.ExtraRegion))
	used := make([]bool, len(d.ExtraRegion))
	regions := make([][]variant.Cell, len(d.ExtraRegion))
	for i, e := range d.ExtraRegion {
		cs, err := cells("extraregion", i+1, e.Cells)
		if err != nil {
			return err
		}
		keys[i], regions[i] = regionKey(cs), cs
	}
	for _, t := range shapes {
		// The groups of one shape are different cell sets, so each takes
		// its own region; the shape is read when every group is drawn.
		var take []int
		for _, g := range variant.DrawnRegions(t) {
			i := unused(keys, used, regionKey(g))
			if i < 0 {
				take = nil
				break
			}
			take = append(take, i)
		}
		if take == nil {
			continue
		}
		for _, i := range take {
			used[i] = true
		}
		b.add("extraregion", take[0]+1, variant.Rule{Type: t})
	}
	for i, u := range used {
		if !u {
			b.add("extraregion", i+1, variant.Rule{Type: variant.ExtraRegion, Cells: regions[i]})
		}
	}
	return nil
}

// unused returns the first region drawn as key and not yet read, or -1.
func unused(keys []string, used []bool, key string) int {
	for i, k := range keys {
		if k == key && !used[i] {
			return i
		}
	}
	return -1
}
