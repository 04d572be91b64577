package store

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

// TestPostgresShards checks the counters' shards on PostgreSQL (migration
// 00012, tx.go): no row every write takes, counters exact as sums, and a
// migration that can be undone.
func TestPostgresShards(t *testing.T) {
	t.Parallel()
	c := pgtest.Shared(t)
	t.Run("SubmitBesideAHeldShard", func(t *testing.T) { testSubmitBesideAHeldShard(t, c) })
	t.Run("ShardsSumExactly", func(t *testing.T) { testShardsSumExactly(t, c) })
	t.Run("GradesBesideSubmissions", func(t *testing.T) { testGradesBesideSubmissions(t, c) })
	t.Run("MigrationDown", func(t *testing.T) { testShardsMigrationDown(t, c) })
}

// testSubmitBesideAHeldShard: while another transaction holds the counts
// row every write transaction used to lock first (id 1), and the shard this
// store tries first, a submission commits at once on another shard. Before
// the shards it waited for that row and failed with ErrBusy after the lock
// timeout.
func testSubmitBesideAHeldShard(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	dsn := c.NewDB(t)
	db := MustOpenDBAt(t, dsn)
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("SELECT 1 FROM counts WHERE id IN (1, $1) FOR UPDATE", db.shard); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	want := map[sudoku.Grid]int64{}
	for i := range 20 {
		p := synthetic(int64(i+1), int64(i), 100, 1)
		if _, _, err := db.Submit(ctx, p); err != nil {
			t.Fatalf("submit %d beside a held shard, after %v: %v", i, time.Since(start), err)
		}
		want[p.Givens] = 1
	}
	t.Logf("20 submissions beside held shards 1 and %d: %v", db.shard, time.Since(start).Round(time.Millisecond))
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	checkArchive(t, db, want)
}

// testShardsSumExactly: two handles (two servers) submit overlapping
// puzzles at once, each preferring its own shard; the counters are spread
// over several shards and their sums are exactly the rows'.
func testShardsSumExactly(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	dsn := c.NewDB(t)
	dbs := [2]*DB{MustOpenDBAt(t, dsn), MustOpenDBAt(t, dsn)}
	dbs[0].shard, dbs[1].shard = 3, 11
	ps := variants(t, 60, 20)
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(ps))
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db := dbs[w%2]
			for i := w; i < len(ps)*4; i += 8 {
				if _, _, err := db.Submit(ctx, ps[i%len(ps)]); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want := map[sudoku.Grid]int64{}
	for i := range len(ps) * 4 {
		want[ps[i%len(ps)].Givens]++
	}
	checkArchive(t, dbs[0], want)
	var used int
	if err := dbs[0].reader.QueryRow("SELECT count(*) FROM counts WHERE total <> 0 OR submissions <> 0").Scan(&used); err != nil {
		t.Fatal(err)
	}
	if used < 2 {
		t.Errorf("counters in %d shard, want the two handles' shards at least", used)
	}
}

// testGradesBesideSubmissions: SetGrades takes one shard, so it commits
// while another transaction holds shard 1 and the store's own, and the grade
// counters stay exact.
func testGradesBesideSubmissions(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	dsn := c.NewDB(t)
	db := MustOpenDBAt(t, dsn)
	ps := make([]record.Puzzle, 30)
	for i := range ps {
		ps[i] = synthetic(int64(i+1), int64(i), 100, 1)
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	ungraded, err := db.Ungraded(ctx, 0, 100)
	if err != nil || len(ungraded) != len(ps) {
		t.Fatalf("%d ungraded rows (%v), want %d", len(ungraded), err, len(ps))
	}
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("SELECT 1 FROM counts WHERE id IN (1, $1) FOR UPDATE", db.shard); err != nil {
		t.Fatal(err)
	}
	for i := range ungraded {
		g := 1.0 + float64(i%5)
		ungraded[i].Grade, ungraded[i].Technique, ungraded[i].GradeVersion = &g, "Naked Single", "test"
	}
	if err := db.SetGrades(ctx, ungraded); err != nil {
		t.Fatalf("set grades beside a held shard: %v", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	s, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, g := range s.Grades {
		n += g.N
	}
	if n != int64(len(ps)) || len(s.Grades) != 5 {
		t.Errorf("grade counts %+v: %d puzzles in %d grades, want %d in 5", s.Grades, n, len(s.Grades), len(ps))
	}
}

// testShardsMigrationDown: undoing 00012 sums every shard into the single
// row of each counter, and doing it again keeps the sums.
func testShardsMigrationDown(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	dsn := c.NewDB(t)
	dbs := [2]*DB{MustOpenDBAt(t, dsn), MustOpenDBAt(t, dsn)}
	dbs[0].shard, dbs[1].shard = 2, 9
	want := map[sudoku.Grid]int64{}
	for i := range 40 {
		p := synthetic(int64(i+1), int64(i), 100, 1)
		if _, _, err := dbs[i%2].Submit(ctx, p); err != nil {
			t.Fatal(err)
		}
		want[p.Givens] = 1
	}
	before, err := dbs[0].Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range dbs {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Named: a connection without a name is taken for a server older
	// than the servers table, which the upgrade below would wait for.
	raw, err := sql.Open("pgx", dsn+"&application_name=migration-test")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, raw, migrations.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	var below int64
	for _, s := range p.ListSources() {
		if s.Version < 12 {
			below = s.Version
		}
	}
	if _, err := p.DownTo(ctx, below); err != nil {
		t.Fatal(err)
	}
	var rows, total int64
	if err := raw.QueryRow("SELECT count(*), sum(total) FROM counts").Scan(&rows, &total); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || total != before.Total {
		t.Errorf("after undoing 00012: %d counts rows, total %d; want 1 row, %d", rows, total, before.Total)
	}
	db := MustOpenDBAt(t, dsn) // migrates up again
	after, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Total != before.Total || after.Submissions != before.Submissions || after.Distinct != before.Distinct {
		t.Errorf("after undoing and redoing 00012: %+v, want %+v", after, before)
	}
	checkArchive(t, db, want)
}
