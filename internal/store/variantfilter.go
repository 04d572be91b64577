package store

// variantfilter.go holds the listing's variant filter (record.ListQuery.
// Variant, GET /api/puzzles?variant=): every named short name present in
// the row's variant column, matched as whole names of its comma list, or
// "classic" for the rows without rules. Both databases run the same SQL
// (|| and LIKE).

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// classicFilter is the variant filter's name for the classic puzzles.
const classicFilter = "classic"

// variantCond is one short name of the filter: the name, between commas,
// in the row's list between commas ("%,killer,%" matches "killer" and
// "arrow,killer", never "little-killer"). The test of rules comes first so the
// planner may read the variant rows alone (puzzles_variant, migration
// 00027); the names hold no LIKE wildcard (checkVariantFilter).
const variantCond = "rules <> '' AND ',' || variant || ',' LIKE ?"

// addVariant adds l's variant filter, if any, to where.
func addVariant(where *conds, l listing) {
	if l.classic {
		where.and("rules = ''")
	}
	for _, name := range l.variants {
		where.and(variantCond, "%,"+name+",%")
	}
}

// setVariant fills l's variant filter from q's.
func (l *listing) setVariant(q record.ListQuery) {
	if q.Variant == classicFilter {
		l.classic = true
		return
	}
	l.variants = q.Variant.List()
}

// checkVariantFilter refuses a filter that names an unknown variant, or
// "classic" beside a variant.
func checkVariantFilter(v record.Variants) error {
	names := v.List()
	known := variant.FamilyNames()
	for _, n := range names {
		switch {
		case n == classicFilter && len(names) > 1:
			return fmt.Errorf("%w: variant %q with other variants", ErrInvalidQuery, classicFilter)
		case n != classicFilter && !slices.Contains(known, n):
			return fmt.Errorf("%w: unknown variant %q", ErrInvalidQuery, n)
		}
	}
	return nil
}

// variantTotal counts the puzzles of a listing with a variant filter. The
// classic filter alone, on the default listing, is the archive's count
// less its variant rows (read through puzzles_variant: few); every other
// count reads the filtered rows with every condition of the listing.
func (db *DB) variantTotal(ctx context.Context, tx *sql.Tx, q record.ListQuery) (int64, error) {
	if q.Variant == classicFilter && !q.UniqueOnly && !q.Distinct && q.Band == "" && gradeRange(q) == nil {
		all := q
		all.Variant = ""
		total, err := db.listTotal(ctx, tx, all)
		if err != nil {
			return 0, err
		}
		var variants int64
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM puzzles WHERE rules <> '' AND "+visible).Scan(&variants); err != nil {
			return 0, fmt.Errorf("list: count variants: %w", err)
		}
		return total - variants, nil
	}
	where := filterConds(q)
	var n int64
	err := tx.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles WHERE "+strings.Join(where.text, " AND ")), where.args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("list: count variant %s: %w", q.Variant, err)
	}
	return n, nil
}

// CountVariants returns how many variant puzzles q's filters keep (its
// variant filter too; 0 for "classic"): what a TXT export, which holds
// classic puzzles only, leaves out (bulk.Export says how many).
func (db *DB) CountVariants(ctx context.Context, q record.ListQuery) (int64, error) {
	if db.isClosed() {
		return 0, ErrClosed
	}
	if q.Variant == classicFilter {
		return 0, nil
	}
	if err := checkVariantFilter(q.Variant); err != nil {
		return 0, err
	}
	where := filterConds(q)
	where.and("rules <> ''")
	if q.Techniques != "" {
		l := listingOf(q)
		l.listKey.drive = true
		addTechniques(&where, l)
	}
	var n int64
	err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles WHERE "+strings.Join(where.text, " AND ")), where.args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count variants: %w", err)
	}
	return n, nil
}

// filterHash is the fingerprint of the technique and variant filters a
// cursor carries (in its techniques field), so that a cursor of one
// variant filter is refused by a listing of another: techniquesHash alone
// without a variant filter (every cursor issued before variants reads as
// it did), and for a collection's listing, whose cursor holds the
// collection instead.
func filterHash(q record.ListQuery) uint32 {
	if q.Variant == "" || q.Collection != 0 {
		return techniquesHash(q.Techniques)
	}
	h := fnv.New32a()
	h.Write([]byte(string(q.Techniques) + "\x00variant=" + string(q.Variant)))
	return max(h.Sum32(), 1)
}
