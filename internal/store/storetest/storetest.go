// Package storetest builds archives for the store's tests and for
// benchmarks elsewhere that need a large real archive (the handler
// benchmarks in cmd/sudoku). It does not import store, so store's own tests
// can use it.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the "sqlite" driver

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

// Solved is a valid complete grid from which synthetic puzzles are cut.
var Solved = mustParse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")

func mustParse(s string) sudoku.Grid {
	g, err := sudoku.Parse(s)
	if err != nil {
		panic(err)
	}
	return g
}

// Synthetic returns a puzzle whose givens are unique to n (n >= 1): cell c of
// the first 40 is given when bit c of n is set. The measures are whatever
// the caller needs; the store does not re-solve. Its canonical form is its
// own givens, so each synthetic puzzle is a class of its own.
func Synthetic(n int64, backtracks, solveNS int64, solutions int) record.Puzzle {
	var g sudoku.Grid
	for c := range 40 {
		if n&(1<<c) != 0 {
			g[c] = Solved[c]
		}
	}
	return record.Puzzle{
		Givens: g, Canonical: g, Solution: Solved, Clues: g.Clues(),
		Solutions: solutions, Unique: solutions == 1,
		Backtracks: backtracks, Guesses: backtracks / 2, Nodes: backtracks*3 + 1,
		SolveNS: solveNS, EngineVersion: "test",
	}
}

// BuildArchive fills the archive at path, created and migrated by
// store.Open, with rows synthetic puzzles as fast as SQLite allows: the sort indexes
// dropped, big transactions with synchronous off, and the indexes rebuilt
// from their own definitions at the end. Backtracks follow a long-tailed
// distribution with many ties, like real puzzles.
//
// path may be a PostgreSQL URL (see buildPostgres).
func BuildArchive(path string, rows int) error {
	if strings.HasPrefix(path, "postgres://") || strings.HasPrefix(path, "postgresql://") {
		return buildPostgres(path, rows)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=synchronous(OFF)&_pragma=cache_size(-200000)&_pragma=temp_store(MEMORY)")
	if err != nil {
		return err
	}
	defer raw.Close()
	raw.SetMaxOpenConns(1)
	var indexes []string
	rs, err := raw.Query("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'puzzles' AND sql IS NOT NULL")
	if err != nil {
		return err
	}
	var names []string
	for rs.Next() {
		var name, def string
		if err := rs.Scan(&name, &def); err != nil {
			return err
		}
		names, indexes = append(names, name), append(indexes, def)
	}
	rs.Close()
	for _, name := range names {
		if _, err := raw.Exec("DROP INDEX " + name); err != nil {
			return err
		}
	}
	next := rowMaker()
	const chunk = 100_000
	for start := 0; start < rows; start += chunk {
		tx, err := raw.Begin()
		if err != nil {
			return err
		}
		// The rows are written as the current engine and solver would
		// have: a served archive needs no upgrade pass, and the grader
		// leaves them alone. Each puzzle is its own class.
		stmt, err := tx.Prepare(`INSERT INTO puzzles (givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions,
			canonical, canonical_key, grade_version, grade, technique)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		for i := start; i < min(start+chunk, rows); i++ {
			if _, err := stmt.Exec(next(i)...); err != nil {
				return err
			}
		}
		stmt.Close()
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	for _, def := range indexes {
		if _, err := raw.Exec(def); err != nil {
			return err
		}
	}
	if _, err := raw.Exec("INSERT INTO classes (canonical_key, first_id) SELECT canonical_key, id FROM puzzles"); err != nil {
		return err
	}
	if _, err := raw.Exec(migrations.Recount); err != nil {
		return err
	}
	_, err = raw.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// buildColumns are the columns BuildArchive writes, in rowMaker's order.
var buildColumns = []string{"givens", "givens_key", "solution", "clues", "solutions", "backtracks", "guesses", "nodes", "solve_ns",
	"engine_version", "submitted_at", "submissions", "canonical", "canonical_key", "grade_version", "grade", "technique"}

// rowMaker returns the function that makes the values of row i (from 0) of
// BuildArchive, in the order of buildColumns. The rows are written as the
// current engine and solver would have: a served archive needs no upgrade
// pass, and the grader leaves them alone. Each puzzle is its own class.
// The puzzles with one solution are graded from 1.0 to 9.5, in every band
// (grade 0 for the others): a function of the row's backtracks and number,
// so the random stream, and with it the other measures, is as before.
func rowMaker() func(i int) []any {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	return func(i int) []any {
		bt := int64(rng.ExpFloat64() * 40)
		p := Synthetic(int64(i)+1, bt, 20_000+bt*400+rng.Int64N(4000), 1)
		if rng.IntN(100) < 3 {
			p.Solutions = 2
		}
		grade, technique := int64(0), ""
		if p.Solutions == 1 {
			grade, technique = 10+(bt*7+int64(i)%11*9)%86, "test"
		}
		return []any{p.Givens.String(), p.Givens.Key(), p.Solution.String(), int64(p.Givens.Clues()), int64(p.Solutions),
			p.Backtracks, p.Guesses, p.Nodes, p.SolveNS, sudoku.EngineVersion, t0 + int64(i)*int64(time.Second), int64(1 + rng.IntN(2)),
			p.Givens.String(), p.Givens.Key(), logic.Version, grade, technique}
	}
}

// buildPostgres is BuildArchive on a PostgreSQL database, migrated by
// store.Open: the rows go in by COPY with the indexes dropped, then the
// indexes are built again, the classes and counters filled in and the
// table analyzed.
func buildPostgres(dsn string, rows int) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var names, indexes []string
	rs, err := conn.Query(ctx, `SELECT indexname, indexdef FROM pg_indexes
WHERE tablename = 'puzzles' AND indexname <> 'puzzles_pkey'`)
	if err != nil {
		return err
	}
	for rs.Next() {
		var name, def string
		if err := rs.Scan(&name, &def); err != nil {
			return err
		}
		names, indexes = append(names, name), append(indexes, def)
	}
	if err := rs.Err(); err != nil {
		return err
	}
	for _, name := range names {
		if _, err := conn.Exec(ctx, "DROP INDEX "+name); err != nil {
			return err
		}
	}
	next := rowMaker()
	i := 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		if i == rows {
			return nil, nil
		}
		i++
		return next(i - 1), nil
	})
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"puzzles"}, buildColumns, src); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "SET maintenance_work_mem = '256MB'"); err != nil {
		return err
	}
	for _, def := range indexes {
		if _, err := conn.Exec(ctx, def); err != nil {
			return err
		}
	}
	for _, q := range []string{
		"INSERT INTO classes (canonical_key, first_id) SELECT canonical_key, id FROM puzzles",
		migrations.Recount,
		"VACUUM ANALYZE puzzles",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// ProcStatusMB reads a memory field of this process from /proc/self/status,
// in MB: "VmRSS" (resident now) or "VmHWM" (peak resident). Benchmarks
// report it beside their timings.
func ProcStatusMB(field string) (float64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", field, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", field)
}

// StatsOf computes in Go what the store's Stats must return for the stored
// puzzles ps: the tests compare the counters the store keeps with it.
func StatsOf(ps []record.Puzzle) record.Stats {
	var s record.Stats
	bump := func(h *[]int64, k int) {
		for len(*h) <= k {
			*h = append(*h, 0)
		}
		(*h)[k]++
	}
	for _, p := range ps {
		s.Total++
		if p.Unique {
			s.Unique++
		}
		s.Submissions += p.Submissions
		if p.SameAs == nil && p.Canonical != (sudoku.Grid{}) {
			s.Distinct++
		}
		if p.Unique && p.GradeVersion == "" {
			s.Ungraded++
		}
		if p.GradeVersion != "" && p.Grade != nil {
			s.Grades = addGrade(s.Grades, p)
		}
		bump(&s.Backtracks, sudoku.BacktracksBucket(p.Backtracks))
		bump(&s.SolveTime, record.SolveTimeBucket(p.SolveNS))
		bump(&s.Clues, p.Clues)
	}
	return s
}

// addGrade counts p in gs, kept in Stats's order: hardest first, then by
// technique.
func addGrade(gs []record.GradeCount, p record.Puzzle) []record.GradeCount {
	k := record.GradeCount{Tenths: p.GradeTenths(), Technique: p.Technique}
	for i := range gs {
		if gs[i].Tenths == k.Tenths && gs[i].Technique == k.Technique {
			gs[i].N++
			return gs
		}
	}
	k.N = 1
	gs = append(gs, k)
	slices.SortFunc(gs, func(a, b record.GradeCount) int {
		if a.Tenths != b.Tenths {
			return int(b.Tenths - a.Tenths)
		}
		return strings.Compare(a.Technique, b.Technique)
	})
	return gs
}
