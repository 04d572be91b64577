package store

// columns.go holds the puzzle row's columns, listed once (puzzleColumns):
// every statement that writes, rereads, copies or upgrades a row is built
// from the table, and every scan reads a row through it. Adding a column
// to the puzzles table is one entry here (and the migration in both
// dialects).

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// A column is one column of the puzzles table: its name, its type, which
// statements use it, the value a puzzle gives it and where a value read
// back goes.
type column struct {
	name string
	kind colKind
	use  colUse
	// null says the column may hold NULL, which reads as the puzzle
	// field's zero value (set is not called).
	null bool
	// arg returns the value written for p (an int64, a string, a []byte,
	// or nil for NULL). An insert writes p.SubmittedAt and p.Submissions
	// as the row's (see insertArgs).
	arg func(p *record.Puzzle) any
	// set puts v, a value read back (int64, string or []byte by kind),
	// into p; nil for a column that is written but never read back.
	set func(p *record.Puzzle, v any) error
	// pack is the export's packed value this column is read through
	// (see exportColumns), nil for a column of its own.
	pack *pack
	// expr, for a value derived from other tables, is the SQL that selects
	// it (name is then its alias, not a column of puzzles): read back,
	// never written.
	expr string
}

// sel is how a select lists c: its name, or its expression named.
func (c *column) sel() string {
	if c.expr != "" {
		return c.expr + " AS " + c.name
	}
	return c.name
}

// A colKind is a column's type: the Go type of its values and, for
// PostgreSQL's unnest arrays, its array type.
type colKind int

const (
	colInt colKind = iota
	colText
	colBytes
)

// A colUse says which statements write a column (it is read back when
// its set is not nil).
type colUse int

const (
	// useInsert: written by every insert (submissions, imports, Restore).
	useInsert colUse = 1 << iota
	// useRestore: written only when a row is copied with its id (Restore).
	useRestore
	// useMeasure: rewritten by Remeasure, the engine's measures of a row.
	useMeasure
	// useGrade: written by SetGrades (and Remeasure), the human-style
	// grade.
	useGrade
)

// puzzleColumns is the puzzle row: every column of the puzzles table that
// the store writes or reads, and the Puzzle field it maps to, in the order
// statements list them.
var puzzleColumns = []column{
	{name: "id", kind: colInt, use: useRestore, arg: func(p *record.Puzzle) any { return p.ID },
		set: func(p *record.Puzzle, v any) error { p.ID = v.(int64); return nil }},
	{name: "givens", kind: colText, use: useInsert, arg: func(p *record.Puzzle) any { return p.Givens.String() },
		set: gridSet(func(p *record.Puzzle) *sudoku.Grid { return &p.Givens }), pack: gridsPack},
	// givens_key and canonical_key are the grids' keys, followed for a
	// variant by a hash of its rules (record.Puzzle.GivensKey,
	// CanonicalKey): a classic row's are the grids' keys as before.
	{name: "givens_key", kind: colBytes, use: useInsert, arg: func(p *record.Puzzle) any { return p.GivensKey() }},
	{name: "solution", kind: colText, use: useInsert | useMeasure, arg: func(p *record.Puzzle) any { return p.Solution.String() },
		set: gridSet(func(p *record.Puzzle) *sudoku.Grid { return &p.Solution }), pack: gridsPack},
	{name: "clues", kind: colInt, use: useInsert, arg: func(p *record.Puzzle) any { return int64(p.Givens.Clues()) },
		set: func(p *record.Puzzle, v any) error { p.Clues = int(v.(int64)); return nil }},
	{name: "solutions", kind: colInt, use: useInsert | useMeasure, arg: func(p *record.Puzzle) any { return int64(p.Solutions) },
		set: func(p *record.Puzzle, v any) error { p.Solutions = int(v.(int64)); return nil }, pack: solutionsPack},
	intColumn("backtracks", useInsert|useMeasure, func(p *record.Puzzle) *int64 { return &p.Backtracks }),
	intColumn("guesses", useInsert|useMeasure, func(p *record.Puzzle) *int64 { return &p.Guesses }),
	intColumn("nodes", useInsert|useMeasure, func(p *record.Puzzle) *int64 { return &p.Nodes }),
	intColumn("solve_ns", useInsert|useMeasure, func(p *record.Puzzle) *int64 { return &p.SolveNS }),
	{name: "engine_version", kind: colText, use: useInsert | useMeasure, arg: func(p *record.Puzzle) any { return p.EngineVersion },
		set: func(p *record.Puzzle, v any) error { p.EngineVersion = v.(string); return nil }},
	{name: "submitted_at", kind: colInt, use: useInsert, arg: func(p *record.Puzzle) any { return p.SubmittedAt.UnixNano() },
		set: func(p *record.Puzzle, v any) error { p.SubmittedAt = time.Unix(0, v.(int64)).UTC(); return nil }},
	intColumn("submissions", useInsert, func(p *record.Puzzle) *int64 { return &p.Submissions }),
	{name: "canonical", kind: colText, use: useInsert | useMeasure, null: true, arg: func(p *record.Puzzle) any { return p.Canonical.String() },
		set: func(p *record.Puzzle, v any) error {
			if v == "" { // as the export reads a NULL
				return nil
			}
			return gridSet(func(p *record.Puzzle) *sudoku.Grid { return &p.Canonical })(p, v)
		}, pack: gridsPack},
	{name: "canonical_key", kind: colBytes, use: useInsert | useMeasure, arg: func(p *record.Puzzle) any { return p.CanonicalKey() }},
	{name: "same_as", kind: colInt, use: useInsert | useMeasure, null: true, arg: func(p *record.Puzzle) any {
		if p.SameAs == nil {
			return nil
		}
		return *p.SameAs
	}, set: func(p *record.Puzzle, v any) error { id := v.(int64); p.SameAs = &id; return nil }},
	// The grade's columns hold 0, 0, "" and NULL while a row is not graded.
	{name: "grade", kind: colInt, use: useInsert | useMeasure | useGrade, arg: func(p *record.Puzzle) any {
		if p.GradeVersion == "" {
			return int64(0)
		}
		return p.GradeTenths()
	}, set: func(p *record.Puzzle, v any) error { p.SetGradeTenths(v.(int64)); return nil }},
	{name: "grade_floor", kind: colInt, use: useInsert | useMeasure | useGrade, arg: func(p *record.Puzzle) any {
		if p.GradeVersion == "" || !p.GradeFloor {
			return int64(0)
		}
		return int64(1)
	}, set: func(p *record.Puzzle, v any) error { p.GradeFloor = v.(int64) != 0; return nil }, pack: solutionsPack},
	{name: "technique", kind: colText, use: useInsert | useMeasure | useGrade, arg: func(p *record.Puzzle) any {
		if p.GradeVersion == "" {
			return ""
		}
		return p.Technique
	}, set: func(p *record.Puzzle, v any) error { p.Technique = v.(string); return nil }},
	{name: "grade_version", kind: colText, use: useInsert | useMeasure | useGrade, null: true, arg: func(p *record.Puzzle) any {
		if p.GradeVersion == "" {
			return nil
		}
		return p.GradeVersion
	}, set: func(p *record.Puzzle, v any) error { p.GradeVersion = v.(string); return nil }},
	// The grade's other figures (migration 00010): 0, 0 and "" likewise.
	gradeFigure("grade_ep", func(p *record.Puzzle) **float64 { return &p.GradeEP }),
	gradeFigure("grade_ed", func(p *record.Puzzle) **float64 { return &p.GradeED }),
	{name: "techniques", kind: colText, use: useInsert | useMeasure | useGrade, arg: func(p *record.Puzzle) any {
		if p.GradeVersion == "" {
			return ""
		}
		return string(p.Techniques)
	}, set: func(p *record.Puzzle, v any) error { p.Techniques = record.Techniques(v.(string)); return nil }},
	// The players' figures of the row's class (migration 00014), 0 for
	// none: kept by the finishes and the refit (figures.go), copied with a
	// row (Restore), never written by an insert. Plays, solves and the
	// median live in puzzle_figures (migration 00022), read as one value
	// (one lookup a row); player_seconds, which the orders page on, in
	// the row.
	{name: "figures", kind: colText, null: true, expr: figuresExpr, set: setFigures},
	figureColumn("player_seconds", func(p *record.Puzzle) **int64 { return &p.PlayerSeconds }),
	// human (migration 00021) is computed by the database from the grade
	// and player_seconds: never written. It is read so that a merged
	// listing in the human order selects its key (the merge orders by the
	// selected columns), and dropped: record.Puzzle.HumanSeconds is the
	// same value (testHumanColumnAgrees).
	{name: "human", kind: colInt, set: func(*record.Puzzle, any) error { return nil }},
	// hidden (migration 00015) is written only by Hide and Restore
	// (moderation.go); it is read back so the moderators' reads can say so.
	{name: "hidden", kind: colInt, arg: func(p *record.Puzzle) any { return boolInt(p.Hidden) },
		set: func(p *record.Puzzle, v any) error { p.Hidden = v.(int64) != 0; return nil }},
	// Who submitted the puzzle and the collections that hold it (migration
	// 00016): the account's id is written with a new row; its name and the
	// collections' ids are read through subqueries, so a renamed or
	// deleted account and a puzzle added to a collection show at once.
	{name: "submitted_by", kind: colInt, use: useInsert, null: true, arg: func(p *record.Puzzle) any {
		if p.SubmitterID == 0 {
			return nil
		}
		return p.SubmitterID
	}},
	{name: "submitted_by_name", kind: colText, null: true,
		expr: "(SELECT name FROM players WHERE players.id = puzzles.submitted_by)",
		set:  func(p *record.Puzzle, v any) error { name := v.(string); p.SubmittedBy = &name; return nil }},
	{name: "collection_ids", kind: colText, null: true,
		// string_agg is SQLite's (3.44 on) and PostgreSQL's; no ", " in
		// the text, which listQuery splits the select list on.
		expr: "(SELECT string_agg(CAST(collection_id AS TEXT),',' ORDER BY collection_id) FROM collection_puzzles WHERE puzzle_id = puzzles.id)",
		set:  setCollections},
	// A variant's rules, their canonical form's, its short names, title
	// and author (migration 00027), "" for a classic puzzle. The links
	// (FPuzzles, SudokuPad) are derived on read (puzzleOf).
	textColumn("rules", useInsert, func(p *record.Puzzle) *string { return (*string)(&p.Rules) }),
	textColumn("canonical_rules", useInsert|useMeasure, func(p *record.Puzzle) *string { return (*string)(&p.CanonicalRules) }),
	textColumn("variant", useInsert, func(p *record.Puzzle) *string { return (*string)(&p.Variant) }),
	textColumn("title", useInsert, func(p *record.Puzzle) *string { return &p.Title }),
	textColumn("author", useInsert, func(p *record.Puzzle) *string { return &p.Author }),
}

// textColumn is a column of text that maps to a string field as it is.
func textColumn(name string, use colUse, field func(p *record.Puzzle) *string) column {
	return column{name: name, kind: colText, use: use,
		arg: func(p *record.Puzzle) any { return *field(p) },
		set: func(p *record.Puzzle, v any) error { *field(p) = v.(string); return nil }}
}

// figureColumn is a column of a players' figure (0 for none) that maps to
// an *int64 field (nil for none).
func figureColumn(name string, field func(p *record.Puzzle) **int64) column {
	return column{name: name, kind: colInt, use: useRestore,
		arg: func(p *record.Puzzle) any { return record.OrZero(*field(p)) },
		set: func(p *record.Puzzle, v any) error {
			*field(p) = nil
			if n := v.(int64); n > 0 {
				*field(p) = &n
			}
			return nil
		}}
}

// figuresExpr selects a row's puzzle_figures as one text, "plays solves
// median_seconds", NULL for a puzzle without plays (no ", " in it, which
// listQuery splits the select list on).
const figuresExpr = "(SELECT plays || ' ' || solves || ' ' || median_seconds FROM puzzle_figures WHERE puzzle_figures.puzzle_id = puzzles.id)"

// setFigures reads figuresExpr's value into p.Plays, p.Solves and
// p.MedianSeconds.
func setFigures(p *record.Puzzle, v any) error {
	var n [3]int64
	f := strings.Fields(v.(string))
	if len(f) != len(n) {
		return fmt.Errorf("players' figures %q: want plays, solves and median seconds", v)
	}
	for i := range n {
		var err error
		if n[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
			return fmt.Errorf("players' figures %q: %w", v, err)
		}
	}
	p.Plays, p.Solves, p.MedianSeconds = n[0], n[1], nil
	if n[2] > 0 {
		p.MedianSeconds = &n[2]
	}
	return nil
}

// boolInt is 1 for true, 0 for false: the integer columns that hold flags.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// setCollections reads the collection_ids value: ids joined by commas.
func setCollections(p *record.Puzzle, v any) error {
	s := v.(string)
	if s == "" {
		return nil
	}
	for part := range strings.SplitSeq(s, ",") {
		if _, err := strconv.ParseInt(part, 10, 64); err != nil {
			return fmt.Errorf("collection id %q: %w", part, err)
		}
	}
	p.Collections = record.IDs(s)
	return nil
}

// gradeFigure is a column of a grade figure in tenths (0 for none) that
// maps to a *float64 field.
func gradeFigure(name string, field func(p *record.Puzzle) **float64) column {
	return column{name: name, kind: colInt, use: useInsert | useMeasure | useGrade,
		arg: func(p *record.Puzzle) any {
			if p.GradeVersion == "" {
				return int64(0)
			}
			return record.TenthsOf(*field(p))
		},
		set: func(p *record.Puzzle, v any) error { *field(p) = record.FromTenths(v.(int64)); return nil }}
}

// intColumn is a column of integers that maps to an int64 field as it is.
func intColumn(name string, use colUse, field func(p *record.Puzzle) *int64) column {
	return column{name: name, kind: colInt, use: use,
		arg: func(p *record.Puzzle) any { return *field(p) },
		set: func(p *record.Puzzle, v any) error { *field(p) = v.(int64); return nil }}
}

// gridSet reads a grid column into the grid field returns.
func gridSet(field func(p *record.Puzzle) *sudoku.Grid) func(p *record.Puzzle, v any) error {
	return func(p *record.Puzzle, v any) error {
		g, err := gridOf(v.(string))
		*field(p) = g
		return err
	}
}

// Column lists and statements derived from puzzleColumns once.
var (
	// readColumns are the columns read back into a puzzle, in table
	// order: scanPuzzle reads a row of them.
	readColumns = columnsWhere(func(c *column) bool { return c.set != nil })
	// insertColumns are the columns an insert writes.
	insertColumns = columnsWhere(func(c *column) bool { return c.use&useInsert != 0 })
	// restoreColumns are the columns Restore writes: the id too.
	restoreColumns = columnsWhere(func(c *column) bool { return c.use&(useInsert|useRestore) != 0 })
	// measureColumns are the columns Remeasure rewrites.
	measureColumns = columnsWhere(func(c *column) bool { return c.use&useMeasure != 0 })
	// gradeColumns are the columns SetGrades writes.
	gradeColumns = columnsWhere(func(c *column) bool { return c.use&useGrade != 0 })

	// columns lists readColumns for a SELECT.
	columns = names(readColumns, "")
)

// columnsWhere returns the columns of puzzleColumns that keep selects.
func columnsWhere(keep func(c *column) bool) []*column {
	var cs []*column
	for i := range puzzleColumns {
		if keep(&puzzleColumns[i]) {
			cs = append(cs, &puzzleColumns[i])
		}
	}
	return cs
}

// names lists the names of cs, separated by commas, each after prefix.
func names(cs []*column, prefix string) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(prefix + c.sel())
	}
	return b.String()
}

// placeholders returns a row of n placeholders: (?, ?, ?).
func placeholders(n int) string {
	return "(" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")"
}

// assignments lists "name = ?" for each of cs.
func assignments(cs []*column) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.name + " = ?")
	}
	return b.String()
}

// appendArgs appends the values of cs for p to args.
func appendArgs(args []any, cs []*column, p *record.Puzzle) []any {
	for _, c := range cs {
		args = append(args, c.arg(p))
	}
	return args
}

// insertArgs appends the values of insertColumns for p, a new row
// submitted at now (Unix nanoseconds) with one submission, to args. p is
// left as it is.
func insertArgs(args []any, p *record.Puzzle, now int64) []any {
	q := *p
	q.SubmittedAt = time.Unix(0, now)
	q.Submissions = 1
	return appendArgs(args, insertColumns, &q)
}

// scanPuzzle reads one row of readColumns through scan (a Row's or Rows'
// Scan). It scans into interface values and converts by hand, which skips
// database/sql's reflection (and, for an int field, its round trip through
// strconv) on every column of every row of an export.
func scanPuzzle(scan func(...any) error) (record.Puzzle, error) {
	v := make([]any, len(readColumns))
	dest := make([]any, len(v))
	for i := range v {
		dest[i] = &v[i]
	}
	if err := scan(dest...); err != nil {
		return record.Puzzle{}, err
	}
	return puzzleOf(v)
}

// puzzleOf converts a row of readColumns, as the driver returns them.
func puzzleOf(v []any) (record.Puzzle, error) {
	var p record.Puzzle
	var bad error
	for i, c := range readColumns {
		if err := c.read(&p, v[i]); err != nil && bad == nil {
			bad = err
		}
	}
	p.Unique = p.Solutions == 1
	p.SetPlayerFigures(p.Plays, p.Solves, record.OrZero(p.MedianSeconds), record.OrZero(p.PlayerSeconds))
	p.SetGradeStatus() // and the band: the grade's when graded (migration 00011)
	p.SetLinks()       // a variant's f-puzzles and SudokuPad links; none for a classic puzzle
	if bad != nil {
		return p, fmt.Errorf("puzzle %d: %w", p.ID, bad)
	}
	return p, nil
}

// read checks that v, a value of c read back, is of c's kind and puts it
// into p.
func (c *column) read(p *record.Puzzle, v any) error {
	if v == nil && c.null {
		return nil
	}
	ok := false
	switch c.kind {
	case colInt:
		_, ok = v.(int64)
	case colText:
		_, ok = v.(string)
	case colBytes:
		_, ok = v.([]byte)
	}
	if !ok {
		return fmt.Errorf("column %s holds %T, want %s", c.name, v, c.kind)
	}
	if err := c.set(p, v); err != nil {
		return fmt.Errorf("%s: %w", c.name, err)
	}
	return nil
}

// String names k in messages.
func (k colKind) String() string {
	switch k {
	case colText:
		return "text"
	case colBytes:
		return "bytes"
	}
	return "an integer"
}

// pgType is k's PostgreSQL type.
func (k colKind) pgType() string {
	switch k {
	case colText:
		return "text"
	case colBytes:
		return "bytea"
	}
	return "bigint"
}

// A pack is several columns an export reads as one value. The export's
// reading goroutine steps the database one column at a time (with the
// SQLite driver, several calls and a mutex per column), so fewer values
// make a faster export.
type pack struct {
	expr string // the SQL of the value
	// split returns the values of the pack's columns, in table order.
	split func(v any) ([]any, error)
}

// The packs: the three grids as one text, and solutions with the grade
// floor as one integer. The orders' key columns (clues, grade, solve_ns,
// ...) stay columns of their own.
var (
	gridsPack = &pack{expr: "givens || solution || coalesce(canonical, '')", split: func(v any) ([]any, error) {
		grids, ok := v.(string)
		if !ok || len(grids) != 2*81 && len(grids) != 3*81 {
			return nil, fmt.Errorf("stored grids hold %T of %d characters, want 162 or 243", v, len(grids))
		}
		var canonical any
		if len(grids) == 3*81 {
			canonical = grids[162:]
		}
		return []any{grids[:81], grids[81:162], canonical}, nil
	}}
	solutionsPack = &pack{expr: "solutions | (grade_floor << 2)", split: func(v any) ([]any, error) {
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("solutions and grade floor hold %T, want an integer", v)
		}
		return []any{n & 3, n >> 2}, nil
	}}
)

// An exportPlan is what an export selects: readColumns with the columns of
// each pack read as one value, at the place of the pack's first column.
type exportPlan struct {
	sql    string  // the select list
	packAt []*pack // by value selected: its pack, nil for a column of its own
	// from gives, for each of readColumns, the value it is read from and
	// its part of that value's pack (-1: the value is the column's).
	from []struct{ value, part int }
}

// export is the plan of Export.
var export = planExport()

func planExport() exportPlan {
	var x exportPlan
	var list []string
	at := map[*pack]int{}    // value index of each pack
	parts := map[*pack]int{} // columns of each pack met so far
	for _, c := range readColumns {
		if c.pack == nil {
			x.from = append(x.from, struct{ value, part int }{len(list), -1})
			list = append(list, c.sel())
			x.packAt = append(x.packAt, nil)
			continue
		}
		j, ok := at[c.pack]
		if !ok {
			j = len(list)
			at[c.pack] = j
			list = append(list, c.pack.expr)
			x.packAt = append(x.packAt, c.pack)
		}
		x.from = append(x.from, struct{ value, part int }{j, parts[c.pack]})
		parts[c.pack]++
	}
	x.sql = strings.Join(list, ", ")
	return x
}

// unpack converts v, a row of the export's values, into a puzzle; r is a
// row of readColumns to fill (reused row after row).
func (x *exportPlan) unpack(v, r []any) (record.Puzzle, error) {
	var parts [][]any
	for j, pk := range x.packAt {
		if pk == nil {
			continue
		}
		if parts == nil {
			parts = make([][]any, len(v))
		}
		var err error
		if parts[j], err = pk.split(v[j]); err != nil {
			return record.Puzzle{}, fmt.Errorf("puzzle %v: %w", v[x.from[0].value], err)
		}
	}
	for i, f := range x.from {
		if f.part < 0 {
			r[i] = v[f.value]
		} else {
			r[i] = parts[f.value][f.part]
		}
	}
	return puzzleOf(r)
}
