// Package record is the archive's record: what the archive keeps of a
// puzzle (Puzzle, whose JSON form is the API's puzzle object) and of a
// collection, the list queries and their sorts (ListQuery, Page,
// SortTable), the counts (Stats), the players' filters and figures, the
// archive's errors, and the one classification of every error (KindOf),
// which web maps to statuses and cmd/sudoku to exit codes.
//
// It builds on the engine (package sudoku: grids, search, measures) and on
// the reader of typed numbers (package userinput), and on nothing else of
// this module: the store, the web, the pipelines and the logic package
// import it. Rate is the engine's Rate made a row.
package record
