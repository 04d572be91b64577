package record

import "strings"

// SortInfo is everything that differs between two sorts, in one place:
// the API's name, the label people see (the history's control, the
// export's help), the archive's key columns and indexes (the store's SQL
// order) and the key of a puzzle in that order (the store's cursors).
// Adding a sort is adding a row to SortTable (and, in the archive, its
// indexes: a migration).
type SortInfo struct {
	Sort  Sort
	Label string
	// Columns are the archive's key columns of the order, id always last,
	// which makes the order total.
	Columns []string
	// Key returns p's values of Columns, in order.
	Key func(p *Puzzle) []int64
	// Index is the archive's index that serves the order ("" for the table
	// itself, in id order); BandIndex the one that puts the band in front
	// of the key (every order has one: a band is a range of grades, not of
	// any order's leading key but the grade's).
	Index, BandIndex string
	// Merged: the order has no index of its own; the whole archive is read
	// as the bands and the rows without a band merged, each walked in
	// BandIndex.
	Merged bool
	// NoneLast: a leading key of 0 means the puzzle has no value in this
	// order (no player_seconds yet); those rows come after the others in
	// either order, by id (the store walks the valued rows, then the
	// others).
	NoneLast bool
}

// SortTable lists every sort, default first. Append only: a cursor names
// its sort by its position here.
var SortTable = []SortInfo{
	{Sort: SortDifficulty, Label: "Search cost", Columns: []string{"backtracks", "solve_ns", "id"},
		Key:   func(p *Puzzle) []int64 { return []int64{p.Backtracks, p.SolveNS, p.ID} },
		Index: "puzzles_band_difficulty", BandIndex: "puzzles_band_difficulty", Merged: true},
	{Sort: SortBacktracks, Label: "Backtracks", Columns: []string{"backtracks", "id"},
		Key:   func(p *Puzzle) []int64 { return []int64{p.Backtracks, p.ID} },
		Index: "puzzles_band_backtracks", BandIndex: "puzzles_band_backtracks", Merged: true},
	{Sort: SortSolveTime, Label: "Solve time", Columns: []string{"solve_ns", "id"},
		Key:   func(p *Puzzle) []int64 { return []int64{p.SolveNS, p.ID} },
		Index: "puzzles_band_solve_ns", BandIndex: "puzzles_band_solve_ns", Merged: true},
	{Sort: SortSubmitted, Label: "Submitted", Columns: []string{"id"},
		Key: func(p *Puzzle) []int64 { return []int64{p.ID} }, BandIndex: "puzzles_band_submitted"},
	{Sort: SortClues, Label: "Clues", Columns: []string{"clues", "id"},
		Key:   func(p *Puzzle) []int64 { return []int64{int64(p.Clues), p.ID} },
		Index: "puzzles_band_clues", BandIndex: "puzzles_band_clues", Merged: true},
	{Sort: SortGrade, Label: "Grade", Columns: []string{"grade", "id"},
		Key:   func(p *Puzzle) []int64 { return []int64{p.GradeTenths(), p.ID} },
		Index: "puzzles_band_grade", BandIndex: "puzzles_band_grade", Merged: true},
	{Sort: SortPlayerTime, Label: "Player time", Columns: []string{"player_seconds", "id"},
		Key:   func(p *Puzzle) []int64 { return []int64{OrZero(p.PlayerSeconds), p.ID} },
		Index: "puzzles_band_player_seconds", BandIndex: "puzzles_band_player_seconds", Merged: true, NoneLast: true},
	{Sort: SortHuman, Label: "Difficulty", Columns: []string{"human", "id"},
		Key:   func(p *Puzzle) []int64 { return []int64{p.HumanSeconds(), p.ID} },
		Index: "puzzles_band_human", BandIndex: "puzzles_band_human", Merged: true, NoneLast: true},
}

// Sorts lists every valid Sort, default first (SortTable's order).
var Sorts = func() []Sort {
	ss := make([]Sort, len(SortTable))
	for i, info := range SortTable {
		ss[i] = info.Sort
	}
	return ss
}()

// Info returns s's row of SortTable; ok is false for an unknown sort.
func (s Sort) Info() (info SortInfo, ok bool) {
	for _, info := range SortTable {
		if info.Sort == s {
			return info, true
		}
	}
	return SortInfo{}, false
}

// Label is s's name for people, "" for an unknown sort.
func (s Sort) Label() string {
	info, _ := s.Info()
	return info.Label
}

// Valid reports whether s is one of Sorts.
func (s Sort) Valid() bool {
	_, ok := s.Info()
	return ok
}

// SortNames lists Sorts for a message: "difficulty, backtracks, ...".
func SortNames() string {
	names := make([]string, len(Sorts))
	for i, s := range Sorts {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
