package logic

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// The technique table as other packages read it: names, slugs, grades and
// families come from the ladder (techniques.go), so a technique added
// there is searchable, listed and explained without another list to keep.

// Technique is one row of the technique table, for readers outside the
// package.
type Technique struct {
	Name string // as Step.Technique and Result.Technique carry it
	// Slug is the name in a URL: lower case, letters and digits, words
	// joined by '-' ("Unique Rectangle Type 1" is unique-rectangle-type-1).
	Slug string
	// Grade is its grade on Sudoku Explainer's scale (its lowest when it
	// varies); Top its highest when it varies, else Grade.
	Grade, Top float64
	// Family is the family of techniques it belongs to (singles,
	// intersections, subsets, fish, wings, uniqueness, exclusion, chains):
	// the file of its finder.
	Family string
	// Note says what the grade depends on, "" when it is fixed.
	Note string
	// Rank is its position in the ladder, easiest first.
	Rank int
}

// Techniques returns every technique of the ladder, easiest first (the
// order the solver tries them).
func Techniques() []Technique {
	return table
}

// TechniquesByGrade returns every technique easiest first by its grade
// (its lowest when it varies), in the ladder's order among equal grades:
// the order the lists of techniques show. The ladder itself is Sudoku
// Explainer's order of search, which tries a few harder rungs before easier
// ones (Grouped Turbot Fish at 4.3 before XY-Wing at 4.2, the wings of 6.6
// before the cycles of 6.5), so a list in its order is not easiest first.
func TechniquesByGrade() []Technique {
	return byGrade
}

// byGrade is table sorted as TechniquesByGrade gives it.
var byGrade = func() []Technique {
	ts := slices.Clone(table)
	slices.SortStableFunc(ts, func(a, b Technique) int { return cmp.Compare(a.Grade, b.Grade) })
	return ts
}()

// TechniqueByName finds a technique by its name, whatever its case, or by
// its slug; ok is false for a name the ladder does not know.
func TechniqueByName(name string) (t Technique, ok bool) {
	i, ok := tableIndex[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Technique{}, false
	}
	return table[i], true
}

// ParseTechniques reads a technique filter from the values a user gave
// (a repeatable query parameter or flag, called name in messages): each a
// technique's name in any case, or its slug; empty values are skipped. The
// filter holds each technique once, in the ladder's order. An unknown one
// is an *userinput.InputError that names the known ones.
func ParseTechniques(name string, values []string) (record.Techniques, error) {
	var ts []Technique
	for _, v := range values {
		if v == "" {
			continue
		}
		t, ok := TechniqueByName(v)
		if !ok {
			return "", &userinput.InputError{Name: name, Value: v, Reason: "use one of " + TechniqueNames()}
		}
		if !slices.ContainsFunc(ts, func(x Technique) bool { return x.Name == t.Name }) {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b Technique) int { return a.Rank - b.Rank })
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return record.JoinTechniques(names), nil
}

// TechniqueNames lists the ladder's names for a message: "Full House,
// Hidden Single, ...", easiest first.
func TechniqueNames() string {
	names := make([]string, len(table))
	for i, t := range table {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// Slug returns name as it is written in a URL (see Technique.Slug).
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case r == '+':
			// BUG+1 reads bug-plus-1; Dynamic Forcing Chains (+) reads
			// dynamic-forcing-chains-plus.
			if b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteString("plus")
			dash = true
		default:
			dash = true
		}
	}
	return b.String()
}

// familyOf is the family of a rung, from the file of its finder:
// chains_unary.go and chains_multi.go are both chains.
func familyOf(file string) string {
	f := strings.TrimSuffix(file, ".go")
	if i := strings.IndexByte(f, '_'); i >= 0 {
		f = f[:i]
	}
	return f
}

// table and tableIndex are the ladder as Techniques gives it, and the
// positions in table by lower-case name and by slug.
var table, tableIndex = func() ([]Technique, map[string]int) {
	var ts []Technique
	idx := map[string]int{}
	for _, r := range ladder {
		for _, t := range r.techniques {
			top := t.grade
			if t.top != 0 {
				top = t.top
			}
			row := Technique{Name: t.name, Slug: Slug(t.name), Grade: t.grade, Top: top, Family: familyOf(r.file), Note: t.note, Rank: len(ts)}
			for _, k := range []string{strings.ToLower(t.name), row.Slug} {
				if j, dup := idx[k]; dup && j != len(ts) {
					panic("logic: technique name or slug " + k + " declared twice")
				}
				idx[k] = len(ts)
			}
			ts = append(ts, row)
		}
	}
	return ts, idx
}()
