// Package variant is the engine of variant Sudoku (issue 47): a puzzle is
// 81 givens and a list of rules (Puzzle, Rule), with one written form
// (Text, read by Parse) and one canonical form per puzzle (Canonical),
// validated with errors that name the rule and the cell (RuleError), and
// solved and measured (Solve, Rate) with package sudoku's search and
// counts on a board of candidate bitmasks with a propagator per rule.
//
// A classic puzzle is a puzzle without rules: Solve, Canonical and Rate
// hand it to package sudoku unchanged, so its ids, canonical form,
// measures and speed stay what they were. docs/variants.md says each rule
// in words, its symmetry group, the written form and the limits.
//
// It imports package sudoku and nothing else of this module (TestLayers
// in package record).
package variant
