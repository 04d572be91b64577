package store

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// A cursor is the position a page continues from: the key of a row (its
// sort's key columns, id last), and whether the page wanted lies after that
// row or before it. It also records the query it belongs to, so that a
// cursor cannot be replayed against another order or filter.
type cursor struct {
	sort                 record.Sort
	desc, unique, before bool
	distinct, grades     bool
	band                 sudoku.Band   // "" for every band
	played               record.Played // "" for none
	techniques           uint32        // techniquesHash of the technique filter, 0 for none
	collection           int64         // 0 for none
	key                  []int64
}

// cursorVersion is the first byte of every cursor: bump it when the layout
// changes, and old cursors are refused instead of misread. A cursor of a
// listing with a played filter is of playedVersion: the flags byte is full,
// so a fourth byte after it holds the filter (1 + its position in
// playedFilters). Cursors without one keep version 1, unchanged.
// A cursor of a listing with a technique filter is of techniquesVersion:
// after the flags, a byte for the played filter (0 for none) and the
// filter's hash, 4 bytes big-endian.
//
// A cursor of a listing of one collection is of collectionVersion: the
// fourth byte holds the played filter as above (0 for none), then the
// collection's id follows as a varint, before the keys.
const (
	cursorVersion     = 1
	playedVersion     = 2
	techniquesVersion = 3
	collectionVersion = 4
)

// playedFilters are the played filters in their cursor order.
var playedFilters = []record.Played{record.PlayedSolved, record.PlayedUnplayed}

const (
	flagDesc = 1 << iota
	flagUnique
	flagBefore
	flagDistinct = 1 << 6 // bits 3-5 hold the band
	flagGrades   = 1 << 7
)

// The band filter is in bits 3-5 of the flags byte: 0 for every band, else
// 1 + its position in sudoku.Bands. Cursors from before bands have zeros
// there, which still reads right.
const (
	bandShift = 3
	bandMask  = 7 << bandShift
)

// encode returns the cursor as base64url of: version, sort index, flags, then
// each key as a signed varint.
func (c cursor) encode() string {
	b := make([]byte, 3, 3+len(c.key)*binary.MaxVarintLen64)
	b[0] = cursorVersion
	b[1] = byte(slices.Index(record.Sorts, c.sort))
	for _, f := range []struct {
		on  bool
		bit byte
	}{{c.desc, flagDesc}, {c.unique, flagUnique}, {c.before, flagBefore}, {c.distinct, flagDistinct}, {c.grades, flagGrades}} {
		if f.on {
			b[2] |= f.bit
		}
	}
	if c.band != "" {
		b[2] |= byte(bandRank(c.band)+1) << bandShift
	}
	switch {
	case c.techniques != 0:
		b[0] = techniquesVersion
		b = append(b, byte(slices.Index(playedFilters, c.played)+1))
		b = binary.BigEndian.AppendUint32(b, c.techniques)
	case c.collection != 0:
		b[0] = collectionVersion
		b = append(b, byte(slices.Index(playedFilters, c.played)+1))
		b = binary.AppendVarint(b, c.collection)
	case c.played != "":
		b[0] = playedVersion
		b = append(b, byte(slices.Index(playedFilters, c.played)+1))
	}
	for _, k := range c.key {
		b = binary.AppendVarint(b, k)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// collectionPart reads the played filter and the collection of a cursor
// of collectionVersion and returns the cursor without them, or why not.
func collectionPart(b []byte) (rest []byte, played record.Played, collection int64, why string) {
	if len(b) < 4 || int(b[3]) > len(playedFilters) {
		return nil, "", 0, "unknown played filter"
	}
	if b[3] > 0 {
		played = playedFilters[b[3]-1]
	}
	k, n := binary.Varint(b[4:])
	if n <= 0 || k <= 0 {
		return nil, "", 0, "bad collection"
	}
	return append(b[:3:3], b[4+n:]...), played, k, ""
}

// techniquesPart reads the filters of a cursor of techniquesVersion, b:
// the played filter and the technique filter's hash; it returns b without
// them, or ok false when they are not a cursor's.
func techniquesPart(b []byte) (rest []byte, played record.Played, techniques uint32, ok bool) {
	if len(b) < 8 || int(b[3]) > len(playedFilters) {
		return nil, "", 0, false
	}
	if b[3] > 0 {
		played = playedFilters[b[3]-1]
	}
	techniques = binary.BigEndian.Uint32(b[4:8])
	if techniques == 0 {
		return nil, "", 0, false
	}
	return append(b[:3:3], b[8:]...), played, techniques, true
}

// decodeCursor parses s, which must hold exactly nkeys keys.
func decodeCursor(s string, nkeys int) (*cursor, error) {
	invalid := func(why string) error { return fmt.Errorf("%w: %s", record.ErrInvalidCursor, why) }
	if len(s) > 128 {
		return nil, invalid("too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, invalid("not base64url")
	}
	if len(b) < 3 || b[0] != cursorVersion && b[0] != playedVersion && b[0] != techniquesVersion && b[0] != collectionVersion {
		return nil, invalid("unknown format")
	}
	var played record.Played
	var techniques uint32
	var collection int64
	if b[0] == techniquesVersion {
		var ok bool
		if b, played, techniques, ok = techniquesPart(b); !ok {
			return nil, invalid("unknown filter")
		}
	} else if b[0] == collectionVersion {
		var why string
		if b, played, collection, why = collectionPart(b); why != "" {
			return nil, invalid(why)
		}
	} else if b[0] == playedVersion {
		if len(b) < 4 || b[3] == 0 || int(b[3]) > len(playedFilters) {
			return nil, invalid("unknown played filter")
		}
		played = playedFilters[b[3]-1]
		b = append(b[:3:3], b[4:]...)
	}
	if int(b[1]) >= len(record.Sorts) || b[2]&^(flagDesc|flagUnique|flagBefore|flagDistinct|flagGrades|bandMask) != 0 {
		return nil, invalid("unknown format")
	}
	band := int(b[2]&bandMask) >> bandShift
	if band > len(sudoku.Bands) {
		return nil, invalid("unknown band")
	}
	c := &cursor{
		sort:       record.Sorts[b[1]],
		desc:       b[2]&flagDesc != 0,
		unique:     b[2]&flagUnique != 0,
		before:     b[2]&flagBefore != 0,
		distinct:   b[2]&flagDistinct != 0,
		grades:     b[2]&flagGrades != 0,
		played:     played,
		techniques: techniques,
		collection: collection,
	}
	if band > 0 {
		c.band = sudoku.Bands[band-1].Band
	}
	if len(orders[c.sort].keys) != nkeys {
		return nil, invalid("issued for another sort")
	}
	b = b[3:]
	for range nkeys {
		k, n := binary.Varint(b)
		if n <= 0 || k < 0 {
			return nil, invalid("bad key")
		}
		c.key = append(c.key, k)
		b = b[n:]
	}
	if len(b) != 0 {
		return nil, invalid("trailing bytes")
	}
	return c, nil
}
