package store

import (
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// orders maps each sort to its key columns (id always last, making the order
// total) and to the index that serves it, as record.SortTable (the one list
// of sorts) declares them. An empty index name means the table itself, in id
// order. The unique-only filter walks the same index and skips the puzzles
// with several solutions: each index more would slow every insert (five
// partial indexes for it made a bulk import's writes ~2x slower), while
// skipping costs only as much as such puzzles are common.
//
// A merged order has no index of its own: its index puts the band in front
// of the key (bandIndexes), and the whole archive is read as the five bands
// and the rows without a band merged, each walked in order (SQLite's MERGE
// of a UNION ALL, no sort step). A page costs six short seeks instead of
// one, and every insert one index fewer (migrations 00006 and 00011). Only
// the submitted order has an index of its own: the table, in id order.
var orders = func() map[record.Sort]order {
	m := make(map[record.Sort]order, len(record.SortTable))
	for _, info := range record.SortTable {
		m[info.Sort] = order{keys: info.Columns, index: info.Index, merged: info.Merged}
	}
	return m
}()

// order is how the archive reads one sort.
type order struct {
	keys   []string
	index  string
	merged bool
}

// bandIndexes names, for every order, the index that puts the band in
// front of the key (migrations 00005 and 00011), so a page of one band is a
// seek.
var bandIndexes = func() map[record.Sort]string {
	m := make(map[record.Sort]string)
	for _, info := range record.SortTable {
		if info.BandIndex != "" {
			m[info.Sort] = info.BandIndex
		}
	}
	return m
}()

// keyOf returns p's values for the key columns of s.
func keyOf(s record.Sort, p *record.Puzzle) []int64 {
	info, ok := s.Info()
	if !ok {
		return []int64{p.ID}
	}
	return info.Key(p)
}

// A page that continues from a key (k1, ..., id) is read in up to two
// steps, each a plain index seek: first the rest of the key's tie group
// (k1, ... equal, id beyond), then the rows whose leading keys lie beyond
// ((k1, ...) beyond, any id). A single row-value range (k1, ..., id) > (...)
// would be simpler, but SQLite does not seek on the rowid inside a row
// value: it seeks on the leading keys and then filters the whole tie group,
// which made page 10,000 by clues of a million puzzles cost 8 ms.
type part uint8

const (
	start  part = iota // from the first row of the order
	ties               // leading keys equal to the cursor's, id beyond its id
	beyond             // leading keys beyond the cursor's
)

// listKey names one statement of the fixed table: the order, its direction,
// the filters and the part, but not the values it binds (a listing does).
type listKey struct {
	sort         record.Sort
	desc, unique bool
	distinct     bool
	part         part
	band         bool
	grades       bool // a grade range: two arguments after the band's
	played       record.Played
	techniques   int  // how many techniques the filter names, each a parameter
	drive        bool // the first technique's puzzles drive the listing (techniques.go)
	// valued splits a NoneLast order (pendinglast.go): 0 every row,
	// valuedOnly the rows whose leading key is not 0, noneOnly the others.
	valued     valuedPart
	collection bool // one collection's puzzles: one argument after the played filter's
}

// gradeRange returns the arguments of a grade range filter, lowest and
// highest grade in tenths, or nil for none.
func gradeRange(q record.ListQuery) []int64 {
	if q.GradeMin <= 0 && q.GradeMax <= 0 {
		return nil
	}
	hi := q.GradeMax
	if hi <= 0 {
		hi = 1 << 31
	}
	return []int64{max(q.GradeMin, 1), hi}
}

// bandRank is b's position in sudoku.Bands, the value of the band column
// (migration 00011: from the grade); -1 for no band.
func bandRank(b sudoku.Band) int {
	return b.Rank()
}

// bandListKeys enumerates the band statements: those of listKeys, filtered
// by band.
func bandListKeys() []listKey {
	ks := listKeys()
	for i := range ks {
		ks[i].band = true
	}
	return ks
}

// listKeys enumerates every statement of the table. The submitted order has
// no ties part: its key is id alone.
func listKeys() []listKey {
	var ks []listKey
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			for _, unique := range []bool{false, true} {
				for _, distinct := range []bool{false, true} {
					for _, p := range []part{start, ties, beyond} {
						if p == ties && len(orders[s].keys) == 1 {
							continue
						}
						for _, v := range valuedParts(s) {
							ks = append(ks, listKey{sort: s, desc: desc, unique: unique, distinct: distinct, part: p, valued: v})
							ks = append(ks, listKey{sort: s, desc: desc, unique: unique, distinct: distinct, part: p, grades: true, valued: v})
							ks = append(ks, listKey{sort: s, desc: desc, unique: unique, distinct: distinct, part: p, valued: v, collection: true})
						}
					}
				}
			}
		}
	}
	return ks
}
