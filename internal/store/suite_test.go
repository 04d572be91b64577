package store

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sqlitetest"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// A backend is one of the databases the store runs on, for the suite:
// dsn names a new, empty database of it, and archive (when set) a new
// archive already migrated, as Open would leave an empty database.
type backend struct {
	name    string
	dsn     func(tb testing.TB) string
	archive func(tb testing.TB) string
}

// open opens a new archive, with no rows, and closes it when the test
// ends.
func (b backend) open(tb testing.TB) *DB {
	tb.Helper()
	if b.archive != nil {
		return MustOpenDBAt(tb, b.archive(tb))
	}
	return MustOpenDBAt(tb, b.dsn(tb))
}

// sqliteBackend makes each archive a new file: an empty one (dsn), or a
// copy of one migrated once (sqliteArchive).
var sqliteBackend = backend{name: "sqlite", dsn: func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "sudoku.db") }, archive: sqliteArchive}

// sqliteArchive returns the path of a new archive: a copy of a file Open
// migrated, once per test process (sqlitetest.NewFileFrom). Migrating an
// empty file costs a case 1-3 s under -race; the migrations themselves are
// tested by the cases that open an empty one (backend.dsn) and by the
// migration tests.
func sqliteArchive(tb testing.TB) string {
	tb.Helper()
	return sqlitetest.NewFileFrom(tb, "archive", func(path string) error {
		db, err := Open(context.Background(), path)
		if err != nil {
			return err
		}
		return db.Close()
	})
}

// A suiteCase is one case of the store's suite, run on each backend.
type suiteCase struct {
	name string
	run  func(*testing.T, backend)
}

// suite is the store's behaviour, written once: every case runs on SQLite
// (TestSQLite) and on PostgreSQL (TestPostgres), each on an archive of its
// own. Tests of one database's own machinery (SQLite's plans, files,
// locks and migrations) stay outside it.
var suite = []suiteCase{
	{"AddMany", testAddMany},
	{"ClassesGrouped", testClassesGrouped},
	{"KnownClasses", testKnownClasses},
	{"FreshListings", testFreshListings},
	{"ListBandRejects", testListBandRejects},
	{"BandColumnAgrees", testBandColumnAgrees},
	{"BandTotalDistinct", testBandTotalDistinct},
	{"Batch", testBatch},
	{"BatchRollback", testBatchRollback},
	{"BatchHoldsWriter", testBatchHoldsWriter},
	{"Classes", testClasses},
	{"ClassesSideBySide", testClassesSideBySide},
	{"GroupRollback", testGroupRollback},
	{"GroupClassRaced", testGroupClassRaced},
	{"PipeFlushes", testPipeFlushes},
	{"Daily", testDaily},
	{"DailySecret", testDailySecret},
	{"ExportCancelledIsAnError", testExportCancelledIsAnError},
	{"ListPrevFromShortStart", testListPrevFromShortStart},
	{"ListPastTheEnd", testListPastTheEnd},
	{"ListRejectsBadCursors", testListRejectsBadCursors},
	{"Export", testExport},
	{"Stats", testStats},
	{"StatsSubmitMany", testStatsSubmitMany},
	{"PingAndClose", testPingAndClose},
	{"SubmitDedupes", testSubmitDedupes},
	{"PuzzleNotFound", testPuzzleNotFound},
	{"SubmitRefusesInvalid", testSubmitRefusesInvalid},
	{"SubmitConcurrent", testSubmitConcurrent},
	{"SubmitBatchIsolatesFailure", testSubmitBatchIsolatesFailure},
	{"SubmitMany", testSubmitMany},
	{"SubmitManyAcrossStatements", testSubmitManyAcrossStatements},
	{"SubmitCancelled", testSubmitCancelled},
	{"CloseDrains", testCloseDrains},
	{"Secret", testSecret},
	{"TwoServers", testTwoServers},
	{"TwoServersBulk", testTwoServersBulk},
	{"CopyTables", testCopyTables},
	{"GradeClaims", testGradeClaims},
}

// walks are the suite's long single-goroutine cases: every listing order,
// filter and page size walked page by page, every statement prepared, a
// migration over a built archive. The race detector finds nothing in them
// and slows SQLite compiled to Go tenfold or more, so they run in make
// test's pass without -race (internal/racefree): TestSQLiteWalks,
// TestPostgresWalks.
var walks = []suiteCase{
	{"ListByBand", testListByBand},
	{"BandsOfCollections", testBandsOfCollections},
	{"MigrationBandFromGrade", testMigrationBandFromGrade},
	{"ListAround", testListAround},
	{"GradeListing", testGradeListing},
	{"GradePendingLast", testGradePendingLast},
	{"ListPagesEveryOrder", testListPagesEveryOrder},
	{"ListDefaultsAndLimits", testListDefaultsAndLimits},
	{"ExportAcrossChunks", testExportAcrossChunks},
	{"ExportInBatches", testExportInBatches},
	{"EveryListingPrepares", testEveryListingPrepares},
	{"ListPlayed", testListPlayed},
	{"TechniqueFilter", testTechniqueFilter},
}

func runSuite(t *testing.T, bk backend) {
	runCases(t, bk, slices.Concat(suite, playersSuite, accountsSuite, ratingsSuite, nextSuite, humanSuite, nextFromSuite, moderationSuite, techniquesSuite, collectionsSuite))
}

func runWalks(t *testing.T, bk backend) {
	runCases(t, bk, walks)
}

// runCases runs each case as a subtest of t on an archive of its own, a
// few at once: a case spends most of its time waiting on a commit's fsync
// or a query's round trip, one at a time left the cores mostly idle (issue
// 44), and the cases share nothing but the database server. The subtests
// do not call t.Parallel, so they take none of go test's -parallel slots;
// caseConcurrency bounds them instead.
func runCases(t *testing.T, bk backend, cases []suiteCase) {
	slots := make(chan struct{}, caseConcurrency())
	var wg sync.WaitGroup
	for _, tc := range cases {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			t.Run(tc.name, func(t *testing.T) { tc.run(t, bk) })
		})
	}
	wg.Wait()
}

// subtests runs subtests of t a few at once (caseConcurrency), for a
// walk's many read-only checks of one archive; Wait returns when all
// have ended. Like runCases', its subtests take no -parallel slot.
type subtests struct {
	t     *testing.T
	slots chan struct{}
	wg    sync.WaitGroup
}

func newSubtests(t *testing.T) *subtests {
	return &subtests{t: t, slots: make(chan struct{}, caseConcurrency())}
}

// Run starts subtest name, waiting for a slot first.
func (s *subtests) Run(name string, f func(t *testing.T)) {
	s.slots <- struct{}{}
	s.wg.Go(func() {
		defer func() { <-s.slots }()
		s.t.Run(name, f)
	})
}

// Wait waits for every subtest Run started.
func (s *subtests) Wait() { s.wg.Wait() }

// caseConcurrency is how many of a suite's cases run at once: two a core.
func caseConcurrency() int { return 2 * runtime.GOMAXPROCS(0) }

// TestSQLite runs the suite on SQLite, beside TestPostgres: one waits on
// fsync while the other works.
func TestSQLite(t *testing.T) {
	t.Parallel()
	runSuite(t, sqliteBackend)
}

// TestPostgres runs the suite on the package's shared PostgreSQL cluster,
// a new database for each case.
func TestPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Shared(t)
	runSuite(t, pgBackend)
}

// pgBackend makes each archive a new database on the package's shared
// PostgreSQL cluster, dropped when its test ends: an empty one
// (pgtest.NewDB), or a copy of one migrated once (pgArchive).
var pgBackend = backend{name: "postgres", dsn: pgtest.NewDB, archive: pgArchive}

// pgArchive returns the URL of a new archive on the shared cluster: a copy
// of a database Open migrated, once per test process. Migrating an empty
// database costs a PostgreSQL case a second; the migrations themselves are
// tested by the cases that open an empty one (backend.dsn) and by the
// migration tests.
func pgArchive(tb testing.TB) string {
	tb.Helper()
	return pgtest.NewDBFrom(tb, "archive", func(dsn string) error {
		db, err := Open(context.Background(), dsn)
		if err != nil {
			return err
		}
		return db.Close()
	})
}

// TestSQLiteWalks runs the walks on SQLite.
func TestSQLiteWalks(t *testing.T) {
	racefree.Only(t)
	t.Parallel()
	runWalks(t, sqliteBackend)
}

// TestPostgresWalks runs the walks on the shared PostgreSQL cluster.
func TestPostgresWalks(t *testing.T) {
	racefree.Only(t)
	t.Parallel()
	pgtest.Shared(t)
	runWalks(t, pgBackend)
}

// testSecret checks that Secret makes one key for the archive and keeps it.
func testSecret(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	db := MustOpenDBAt(t, dsn)
	s1, err := db.Secret(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(s1) != 32 {
		t.Fatalf("secret of %d bytes, want 32", len(s1))
	}
	other := MustOpenDBAt(t, dsn)
	s2, err := other.Secret(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(s1) != string(s2) {
		t.Errorf("two handles on one archive read different secrets")
	}
	if s3, _ := MustOpenDBAt(t, bk.dsn(t)).Secret(ctx); string(s3) == string(s1) {
		t.Errorf("two archives share a secret")
	}
}

// twoServers opens the same archive twice, as two servers sharing one
// database would (on SQLite, two processes on one file).
func twoServers(t *testing.T, bk backend) [2]*DB {
	dsn := bk.dsn(t)
	return [2]*DB{MustOpenDBAt(t, dsn), MustOpenDBAt(t, dsn)}
}

// checkArchive checks every counter of db against its rows: want holds the
// submissions of each givens acknowledged.
func checkArchive(t *testing.T, db *DB, want map[sudoku.Grid]int64) {
	t.Helper()
	ctx := context.Background()
	all := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	got := map[sudoku.Grid]int64{}
	heads := map[sudoku.Grid]int64{} // canonical form -> its first entry
	for _, p := range all {
		got[p.Givens] = p.Submissions
		if p.SameAs == nil {
			if h, ok := heads[p.Canonical]; ok {
				t.Errorf("class %s has two first entries, %d and %d", p.Canonical, h, p.ID)
			}
			heads[p.Canonical] = p.ID
		}
	}
	for _, p := range all {
		if p.SameAs != nil && heads[p.Canonical] != *p.SameAs {
			t.Errorf("puzzle %d filed under %d, its class's first entry is %d", p.ID, *p.SameAs, heads[p.Canonical])
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("submissions by givens (-want +got):\n%s", d)
	}
	s, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ws := storetest.StatsOf(all)
	if s.Total != ws.Total || s.Unique != ws.Unique || s.Submissions != ws.Submissions || s.Distinct != int64(len(heads)) {
		t.Errorf("stats: total %d, unique %d, submissions %d, distinct %d; want %d, %d, %d, %d",
			s.Total, s.Unique, s.Submissions, s.Distinct, ws.Total, ws.Unique, ws.Submissions, len(heads))
	}
	if d := cmp.Diff(ws.Backtracks, s.Backtracks); d != "" {
		t.Errorf("backtracks histogram (-want +got):\n%s", d)
	}
	if d := cmp.Diff(ws.Clues, s.Clues); d != "" {
		t.Errorf("clues histogram (-want +got):\n%s", d)
	}
	page, err := db.List(ctx, record.ListQuery{Distinct: true})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != int64(len(heads)) {
		t.Errorf("distinct total %d, want %d", page.Total, len(heads))
	}
}

// variants returns n puzzles of k classes: each class is one puzzle of the
// norvig collection written several ways (rows and digits permuted).
func variants(t *testing.T, n, k int) []record.Puzzle {
	t.Helper()
	base := norvig(t, k)
	rng := rand.New(rand.NewPCG(1, 2))
	var ps []record.Puzzle
	for i := range n {
		p := base[i%k]
		if i >= k && i%3 != 0 {
			g := shuffled(rng, p.Givens)
			q, err := record.Rate(g, sudoku.Options{})
			if err != nil {
				t.Fatal(err)
			}
			p = q
		}
		ps = append(ps, p)
	}
	return ps
}

// testTwoServers submits overlapping puzzles (the same givens, and other
// ways of writing the same puzzles) from many goroutines through two
// handles on one archive, as two servers would: each givens is one row
// with every submission counted, each class has one first entry, and the
// counters agree with the rows.
func testTwoServers(t *testing.T, bk backend) {
	ctx := context.Background()
	dbs := twoServers(t, bk)
	ps := variants(t, 60, 8)
	const workers, each = 16, 30
	var mu sync.Mutex
	want := map[sudoku.Grid]int64{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for j := range each {
				p := ps[(w*7+j*11)%len(ps)]
				var stored record.Puzzle
				err := retryBusy(t, func() (err error) {
					stored, _, err = dbs[(w+j)%2].Submit(ctx, p)
					return err
				})
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					return
				}
				if stored.Givens != p.Givens {
					t.Errorf("stored %s for %s", stored.Givens, p.Givens)
				}
				mu.Lock()
				want[p.Givens]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	checkArchive(t, dbs[0], want)
	checkArchive(t, dbs[1], want)
}

// retryBusy runs fn again while it fails with ErrBusy, as a client retries
// the 503 it answers (it says that nothing was stored): two servers on one
// SQLite file take the write lock in turns, and under the race detector's
// load one may wait past its busy timeout.
func retryBusy(t *testing.T, fn func() error) error {
	for try := 1; ; try++ {
		err := fn()
		if !errors.Is(err, ErrBusy) || try == 20 {
			return err
		}
		t.Logf("busy (try %d), retried: %v", try, err)
		time.Sleep(100 * time.Millisecond)
	}
}

// testTwoServersBulk is testTwoServers for SubmitMany, AddMany and
// batches, side by side with single submissions.
func testTwoServersBulk(t *testing.T, bk backend) {
	ctx := context.Background()
	dbs := twoServers(t, bk)
	ps := variants(t, 90, 10)
	var mu sync.Mutex
	want := map[sudoku.Grid]int64{}
	count := func(part []record.Puzzle, dup []bool, add bool) {
		mu.Lock()
		defer mu.Unlock()
		for i, p := range part {
			if !add || !dup[i] {
				want[p.Givens]++
			}
		}
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			db := dbs[w%2]
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for j := range 6 {
				part := make([]record.Puzzle, 1+rng.IntN(20))
				for i := range part {
					part[i] = ps[rng.IntN(len(ps))]
				}
				err := retryBusy(t, func() error {
					switch (w + j) % 4 {
					case 0:
						dup, err := db.SubmitMany(ctx, part)
						if err == nil {
							count(part, dup, false)
						}
						return err
					case 1:
						dup, err := db.AddMany(ctx, part)
						if err == nil {
							count(part, dup, true)
						}
						return err
					case 2:
						// A batch counts every copy, as SubmitMany does.
						err := bulkBatch(ctx, db, part)
						if err == nil {
							count(part, nil, false)
						}
						return err
					}
					for _, p := range part[:min(3, len(part))] {
						if _, _, err := db.Submit(ctx, p); err != nil {
							return err // the ones before it stay counted: retried, they count again
						}
						count([]record.Puzzle{p}, nil, false)
					}
					return nil
				})
				if err != nil {
					t.Errorf("worker %d, round %d: %v", w, j, err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkArchive(t, dbs[0], want)
	checkArchive(t, dbs[1], want)
}

// bulkBatch archives ps in one batch of two parts.
func bulkBatch(ctx context.Context, db *DB, ps []record.Puzzle) error {
	bt, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	half := len(ps) / 2
	if err := bt.Add(ps[:half]); err != nil {
		return err
	}
	if err := bt.Add(ps[half:]); err != nil {
		return err
	}
	_, err = bt.Commit()
	return err
}

// testEveryListingPrepares prepares every statement of the listing table,
// pages and exports, as List and Export would on first use: a statement
// that does not compile, or (on SQLite) names an index the schema lacks,
// fails here rather than on some rarely used page.
func testEveryListingPrepares(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	n := 0
	for _, k := range append(listKeys(), bandListKeys()...) {
		qs := []query{db.d.listQuery(k.example(), false, columns)}
		if k.part == start {
			qs = append(qs, db.d.listQuery(k.example(), true, columns), db.d.listQuery(k.example(), true, "givens"))
		}
		for _, q := range qs {
			if _, err := db.stmtOf(ctx, tx, q); err != nil {
				t.Errorf("%+v: %v", k, err)
			}
			n++
		}
	}
	t.Logf("%d statements", n)
}

// TestPostgresWriterSettings checks the settings the writer's connection
// must have whatever the server's defaults: commits flushed before they are
// acknowledged, and a bounded wait for another server's locks.
func TestPostgresWriterSettings(t *testing.T) {
	dsn := pgtest.NewDB(t)
	ctx := context.Background()
	db := MustOpenDBAt(t, dsn)
	var syncCommit, lock string
	err := db.write(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRow("SHOW synchronous_commit").Scan(&syncCommit); err != nil {
			return err
		}
		return tx.QueryRow("SHOW lock_timeout").Scan(&lock)
	})
	if err != nil {
		t.Fatal(err)
	}
	if syncCommit != "on" || lock != "2s" {
		t.Errorf("synchronous_commit %q, lock_timeout %q; want on, 2s", syncCommit, lock)
	}
}
