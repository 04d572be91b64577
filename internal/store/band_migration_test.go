package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

// bandMigration is migration 00011: the band from the grade.
const bandMigration = 11

// bandRow is a row of an archive written before migration 00011.
type bandRow struct {
	backtracks, grade int64
	solutions         int
	graded            bool // grade_version set; false: waiting for a grade
}

// bandRows have backtracks whose old band is far from the grade's: a 7.2
// with none (old "easy"), a 1.2 with 300 (old "extreme"); one with two
// solutions, one waiting for its first grade and one graded once and
// waiting to be graded again (by a new solver version) have no band now.
var bandRows = []bandRow{
	{0, 72, 1, true}, {300, 12, 1, true}, {20, 23, 1, true}, {64, 40, 1, true}, {2, 56, 1, true},
	{1, 66, 1, true}, {5, 67, 1, true}, {130, 95, 1, true}, {3, 0, 2, true}, {200, 0, 1, false},
	{7, 45, 1, false},
}

// oldBand is the band column before migration 00011, from backtracks.
func (r bandRow) oldBand() sql.NullInt64 {
	n := int64(0)
	for _, edge := range []int64{1, 16, 64, 128} {
		if r.backtracks >= edge {
			n++
		}
	}
	return sql.NullInt64{Int64: n, Valid: true}
}

// band is the row's band after migration 00011, from the grade.
func (r bandRow) band() sudoku.Band {
	if !r.graded {
		return ""
	}
	return sudoku.BandOf(r.grade)
}

// newBand is the band column after migration 00011.
func (r bandRow) newBand() sql.NullInt64 {
	if k := r.band().Rank(); k >= 0 {
		return sql.NullInt64{Int64: int64(k), Valid: true}
	}
	return sql.NullInt64{}
}

// bandMigrationCase is an archive for testMigrationBandFromGrade: its
// database, opened around the store, and its dialect.
type bandMigrationCase struct {
	dsn string
	d   dialect
	raw *sql.DB
	p   *goose.Provider
}

// testMigrationBandFromGrade upgrades an archive of the schema before
// migration 00011 (bands from backtracks), whose rows were written and
// graded by that version, and checks that every band is then the grade's,
// by the column itself, the puzzles read, the band listings and the stats;
// that the migration can be undone, keeping every row and giving back the
// backtracks' bands; and that it can be done again.
func testMigrationBandFromGrade(t *testing.T, bk backend) {
	ctx := context.Background()
	c := oldBandArchive(t, bk.dsn(t))
	c.columnIs(t, bandRow.oldBand)
	c.checkUpgraded(t)
	if _, err := c.p.DownTo(ctx, bandMigration-1); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := c.raw.QueryRowContext(ctx, "SELECT count(*) FROM puzzles").Scan(&n); err != nil || n != len(bandRows) {
		t.Fatalf("%d rows after undoing 00011 (%v), want %d", n, err, len(bandRows))
	}
	c.columnIs(t, bandRow.oldBand)
	c.checkUpgraded(t)
}

// oldBandArchive makes an archive at dsn of the schema before migration
// 00011 holding bandRows, as that version wrote them.
func oldBandArchive(t *testing.T, dsn string) *bandMigrationCase {
	ctx := context.Background()
	c := &bandMigrationCase{dsn: dsn, d: sqliteDialect}
	driver, raw := "sqlite", dsn
	if IsPostgres(dsn) {
		// A named connection: one without a name is taken for a server
		// older than the servers table, which the upgrade waits for.
		c.d, driver, raw = postgresDialect, "pgx", dsn+"&application_name=migration-test"
	}
	var err error
	if c.raw, err = sql.Open(driver, raw); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.raw.Close() })
	if c.p, err = goose.NewProvider(c.d.goose, c.raw, c.d.fs); err != nil {
		t.Fatal(err)
	}
	if _, err := c.p.UpTo(ctx, bandMigration-1); err != nil {
		t.Fatal(err)
	}
	for i, r := range bandRows {
		s := storetest.Synthetic(int64(i+1), r.backtracks, 1000, r.solutions)
		var version any
		if r.graded {
			version = logic.Version
		}
		if _, err := c.raw.ExecContext(ctx, c.d.sql(`INSERT INTO puzzles (givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns,
			engine_version, submitted_at, submissions, canonical, canonical_key, grade, technique, grade_version)
			VALUES (?, ?, ?, ?, ?, ?, 0, 1, 1000, ?, 0, 1, ?, ?, ?, 't', ?)`),
			s.Givens.String(), s.Givens.Key(), s.Solution.String(), s.Clues, r.solutions, r.backtracks,
			sudoku.EngineVersion, s.Givens.String(), s.Givens.Key(), r.grade, version); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.raw.ExecContext(ctx, "INSERT INTO classes (canonical_key, first_id) SELECT canonical_key, id FROM puzzles"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.raw.ExecContext(ctx, migrations.Recount); err != nil {
		t.Fatal(err)
	}
	return c
}

// columnIs checks the band column of every row against want.
func (c *bandMigrationCase) columnIs(t *testing.T, want func(bandRow) sql.NullInt64) {
	t.Helper()
	for i, r := range bandRows {
		var got sql.NullInt64
		if err := c.raw.QueryRowContext(context.Background(), c.d.sql("SELECT band FROM puzzles WHERE id = ?"), i+1).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want(r) {
			t.Errorf("row %d: band column %v, want %v", i+1, got, want(r))
		}
	}
}

// checkUpgraded opens the archive with the store, which migrates it, and
// checks its bands: the column, every puzzle read, the stats' band counts,
// each band's listing in every order, and the whole archive in every
// order (the rows without a band included).
func (c *bandMigrationCase) checkUpgraded(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	db := MustOpenDBAt(t, c.dsn)
	defer db.Close()
	c.columnIs(t, bandRow.newBand)
	all := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	if len(all) != len(bandRows) {
		t.Fatalf("%d rows after the migration, want %d", len(all), len(bandRows))
	}
	want := make([]int64, len(sudoku.Bands))
	for i, p := range all {
		r := bandRows[i]
		if p.Band != r.band() {
			t.Errorf("puzzle %d (grade %d, %d backtracks): band %q, want %q", p.ID, r.grade, r.backtracks, p.Band, r.band())
		}
		if k := p.Band.Rank(); k >= 0 {
			want[k]++
		}
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(want, st.BandCounts()); d != "" {
		t.Errorf("band counts (-want +got):\n%s", d)
	}
	for _, s := range record.Sorts {
		for _, b := range sudoku.Bands {
			page, err := db.List(ctx, record.ListQuery{Band: b.Band, Sort: s, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			if n := want[b.Band.Rank()]; page.Total != n || int64(len(page.Puzzles)) != n {
				t.Errorf("band %s by %s: %d rows, total %d, want %d", b.Band, s, len(page.Puzzles), page.Total, n)
			}
			for _, p := range page.Puzzles {
				if p.Band != b.Band {
					t.Errorf("band %s by %s lists puzzle %d of band %q", b.Band, s, p.ID, p.Band)
				}
			}
		}
		page, err := db.List(ctx, record.ListQuery{Sort: s, Limit: 20})
		if err != nil || len(page.Puzzles) != len(bandRows) {
			t.Errorf("by %s: %d rows (%v), want %d", s, len(page.Puzzles), err, len(bandRows))
		}
	}
}

// BenchmarkMigrationBand measures migration 00011 on the million-puzzle
// archive (a copy of it, each round undone first, untimed): SQLite drops
// and adds the virtual band column, which rewrites no row, and builds the
// six band indexes again.
//
//	go test ./internal/store -run '^$' -bench MigrationBand -benchtime 2x
func BenchmarkMigrationBand(b *testing.B) {
	src := millionArchive(b)
	path := filepath.Join(b.TempDir(), "copy.db")
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	raw := rawDB(b, path)
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if _, err := p.DownTo(ctx, bandMigration-1); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := p.UpTo(ctx, bandMigration); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/migration")
}

// BenchmarkMigrationBandPostgres is BenchmarkMigrationBand on PostgreSQL:
// a throwaway cluster, an archive of SUDOKU_BENCH_PG_ROWS puzzles
// (default 1,000,000) built by storetest.BuildArchive, and migration 00011
// undone (untimed) and done again each round: the table rewritten for the
// stored band column, the six band indexes built.
//
//	go test ./internal/store -run '^$' -bench MigrationBandPostgres -benchtime 1x
func BenchmarkMigrationBandPostgres(b *testing.B) {
	rows := archiveRows
	if n, err := strconv.Atoi(os.Getenv("SUDOKU_BENCH_PG_ROWS")); err == nil && n > 0 {
		rows = n
	}
	dsn := pgtest.Start(b).NewDB(b)
	db, err := Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := storetest.BuildArchive(dsn, rows); err != nil {
		b.Fatal(err)
	}
	b.Logf("built an archive of %d puzzles in %v", rows, time.Since(start).Round(time.Millisecond))
	raw, err := sql.Open("pgx", dsn+"&application_name=migration-bench") // not a server the upgrade waits for
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, raw, migrations.Postgres)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if _, err := p.DownTo(ctx, bandMigration-1); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := p.UpTo(ctx, bandMigration); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/migration")
}
