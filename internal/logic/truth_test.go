package logic

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// The truth of the sentences (issue 46): every digit and cell a step's
// sentence names is one the step is about, and the sentence's reasoning
// (the text before its outcome) names every digit the step removes or
// places, or the cells it removes them from, so that no sentence reasons
// with one digit and removes another.

var (
	cellRE = regexp.MustCompile(`r([1-9])c([1-9])(?:([=≠])([1-9]))?`)
	// countRE: numbers that count, not digits: units, lengths, branches.
	countRE = regexp.MustCompile(`(?:row|column|box) [1-9]|\d+ nodes|each of the \d+ places|and \d+ more|[Tt]ype \d`)
	digitRE = regexp.MustCompile(`\d+`)
)

// stepScope is what a step is about: its cells and digits, as the board
// draws them (pattern cells, eliminations, placements, chain nodes).
type stepScope struct {
	cells  map[int]bool
	digits map[int]bool
	cands  map[Candidate]bool
}

func scopeOf(st Step) stepScope {
	sc := stepScope{map[int]bool{}, map[int]bool{}, map[Candidate]bool{}}
	cand := func(c Candidate) {
		sc.cells[c.Cell], sc.digits[c.Digit], sc.cands[c] = true, true, true
	}
	for _, cs := range [][]int{st.Cells, st.roof, st.set} {
		for _, c := range cs {
			sc.cells[c] = true
		}
	}
	for _, ds := range [][]int{st.Digits, st.setDigits} {
		for _, d := range ds {
			sc.digits[d] = true
		}
	}
	for _, cs := range [][]Candidate{st.Placements, st.Eliminations, st.implied} {
		for _, c := range cs {
			cand(c)
		}
	}
	nodes := slices.Clone(st.Chain)
	for _, p := range st.paths {
		nodes = append(nodes, p...)
	}
	for _, n := range st.Nested {
		nodes = append(nodes, n.Assumption, n.Proves)
	}
	for _, n := range nodes {
		cand(n.Candidate)
	}
	return sc
}

// sentenceFaults lists what is untrue in st's sentence: a cell, digit or
// candidate it names that the step is not about, or a digit the step
// removes or places that its reasoning does not name (where the reasoning
// does not name the cells it is removed from either).
func sentenceFaults(st Step) []string {
	sc := scopeOf(st)
	var faults []string
	text := strings.TrimPrefix(st.Text, st.Technique+": ")
	cells, digits := map[int]bool{}, map[int]bool{}
	for _, m := range cellRE.FindAllStringSubmatch(text, -1) {
		c := (int(m[1][0]-'1'))*9 + int(m[2][0]-'1')
		cells[c] = true
		if !sc.cells[c] {
			faults = append(faults, "names cell "+m[0][:4])
		}
		if m[4] != "" {
			d := int(m[4][0] - '0')
			digits[d] = true
			if !sc.cands[Candidate{c, d}] {
				faults = append(faults, "names candidate "+m[0])
			}
		}
	}
	rest := countRE.ReplaceAllString(cellRE.ReplaceAllString(text, " "), " ")
	for _, m := range digitRE.FindAllString(rest, -1) {
		d, _ := strconv.Atoi(m)
		if d < 1 || d > 9 || !sc.digits[d] {
			faults = append(faults, "names digit "+m)
		}
		digits[d] = true
	}
	// The reasoning is the sentence without its outcome.
	reason := strings.Replace(text, st.outcome(), " ", 1)
	rc, rd := map[int]bool{}, map[int]bool{}
	for _, m := range cellRE.FindAllStringSubmatch(reason, -1) {
		rc[(int(m[1][0]-'1'))*9+int(m[2][0]-'1')] = true
		if m[4] != "" {
			rd[int(m[4][0]-'0')] = true
		}
	}
	for _, m := range digitRE.FindAllString(countRE.ReplaceAllString(cellRE.ReplaceAllString(reason, " "), " "), -1) {
		d, _ := strconv.Atoi(m)
		rd[d] = true
	}
	for _, e := range append(slices.Clone(st.Eliminations), st.Placements...) {
		if !rd[e.Digit] && !rc[e.Cell] {
			faults = append(faults, fmt.Sprintf("reasons without %d or %s", e.Digit, cellName(e.Cell)))
		}
		if !cells[e.Cell] || !digits[e.Digit] {
			faults = append(faults, fmt.Sprintf("does not name %d and %s", e.Digit, cellName(e.Cell)))
		}
	}
	return faults
}

// truthPaths are the collections the test walks, with how many of each.
func truthPaths(t *testing.T) []string {
	n := 1
	if testing.Short() {
		n = 4
	}
	var ps []string
	for _, c := range []struct {
		name string
		n    int
	}{
		{puzzletest.Kaggle, 2000}, {puzzletest.Norvig, 50}, {puzzletest.SeventeenClue, 400},
		{puzzletest.Diabolical, 1200}, {puzzletest.Top1465, 600}, {puzzletest.Forum1905, 20},
	} {
		ps = append(ps, puzzletest.Lines(t, c.name, c.n/n)...)
	}
	return ps
}

// TestSentencesTrue walks every step of a few thousand paths, easy and
// hard, and checks that each sentence is true to its step (sentenceFaults).
func TestSentencesTrue(t *testing.T) {
	racefree.Only(t)
	steps, bad := map[string]int{}, map[string]int{}
	for _, p := range truthPaths(t) {
		r, err := Solve(parse(t, p), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range r.Steps {
			steps[st.Technique]++
			if f := sentenceFaults(st); len(f) > 0 {
				if bad[st.Technique] < 3 {
					t.Errorf("%s step %d (%s): %s: %s", p, i, st.Technique, strings.Join(f, "; "), st.Text)
				}
				bad[st.Technique]++
			}
		}
	}
	for name, n := range bad {
		t.Errorf("%s: %d of %d steps untrue", name, n, steps[name])
	}
	t.Logf("steps checked by technique: %v", steps)
}
