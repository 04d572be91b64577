// Package fpuzzles reads and writes variant puzzles in the formats setters
// share them in (issue 47): f-puzzles JSON, f-puzzles links (the JSON
// compressed with LZ-string, base64) and SudokuPad links that carry an
// f-puzzles puzzle. A puzzle keeps its title, author and rules text.
//
// Every f-puzzles constraint either becomes a rule of package variant or
// is an error naming it (Error with Unsupported set): nothing is dropped
// silently. docs/variants.md says which constraints are read and how each
// of the archive's rules is written.
//
// It imports packages variant and sudoku and nothing else of this module.
package fpuzzles
