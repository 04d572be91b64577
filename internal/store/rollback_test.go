package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// fleetLoad submits new puzzles without pause to whichever servers of a
// fleet serve, as clients behind a proxy would, retrying elsewhere (or
// later) what fails; a submission counts once acknowledged (Submit
// returned no error).
type fleetLoad struct {
	mu    sync.Mutex
	live  []*DB
	acked map[sudoku.Grid]bool
	next  atomic.Int64
	stop  chan struct{}
	done  sync.WaitGroup
}

func newFleetLoad(workers int) *fleetLoad {
	l := &fleetLoad{acked: map[sudoku.Grid]bool{}, stop: make(chan struct{})}
	for range workers {
		l.done.Go(l.work)
	}
	return l
}

func (l *fleetLoad) work() {
	ctx := context.Background()
	for i := 0; ; i++ {
		select {
		case <-l.stop:
			return
		default:
		}
		l.mu.Lock()
		var db *DB
		if len(l.live) > 0 {
			db = l.live[i%len(l.live)]
		}
		l.mu.Unlock()
		if db == nil {
			time.Sleep(5 * time.Millisecond) // no server: the proxy answers 502, the client waits
			continue
		}
		p := synthetic(l.next.Add(1), 1, 1, 1)
		if _, _, err := db.Submit(ctx, p); err != nil {
			continue
		}
		l.mu.Lock()
		l.acked[p.Givens] = true
		l.mu.Unlock()
	}
}

// serve puts servers behind the proxy.
func (l *fleetLoad) serve(dbs ...*DB) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.live = append(l.live, dbs...)
}

// shut takes db from behind the proxy and stops it: submissions in
// flight on it are answered (Close waits for them) or fail.
func (l *fleetLoad) shut(t *testing.T, db *DB) {
	t.Helper()
	l.mu.Lock()
	for i, d := range l.live {
		if d == db {
			l.live = append(l.live[:i], l.live[i+1:]...)
			break
		}
	}
	l.mu.Unlock()
	if err := db.Close(); err != nil {
		t.Error(err)
	}
}

// count is how many submissions were acknowledged so far.
func (l *fleetLoad) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acked)
}

// more waits until n more submissions than now are acknowledged.
func (l *fleetLoad) more(t *testing.T, n int) {
	t.Helper()
	want := l.count() + n
	for deadline := time.Now().Add(time.Minute); l.count() < want; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d submissions acknowledged in a minute, want %d", l.count(), want)
		}
	}
}

// end stops the load and returns every acknowledged puzzle's givens.
func (l *fleetLoad) end() map[sudoku.Grid]bool {
	close(l.stop)
	l.done.Wait()
	return l.acked
}

// pgTool runs one of PostgreSQL's programs as docs/operations.md says to.
func pgTool(t *testing.T, name string, args ...string) {
	t.Helper()
	dir, err := pgtest.Bin()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(dir, name), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// startFleet starts two new servers on dsn together, as the upgrade's
// last step does: one migrates, the other waits and serves.
func startFleet(t *testing.T, dsn string) [2]*DB {
	t.Helper()
	var dbs [2]*DB
	var errs [2]error
	var wg sync.WaitGroup
	for i := range dbs {
		wg.Go(func() { dbs[i], _, errs[i] = startServer(context.Background(), dsn, new(jsonLog)) })
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		t.Fatalf("new servers started together: %v", err)
	}
	return dbs
}

// upgradeFleet is docs/operations.md's upgrade of several servers on
// PostgreSQL, step by step, under the load: the backup, a new server
// beside the old ones (refused: the release migrates), the old servers
// stopped one at a time, the new ones started together.
func upgradeFleet(t *testing.T, load *fleetLoad, dsn, dump string, old [2]*DB) [2]*DB {
	t.Helper()
	pgTool(t, "pg_dump", "-Fc", "-f", dump, dsn) // step 1, while the servers run
	load.more(t, 20)
	if _, err := OpenWith(context.Background(), dsn, OpenOptions{HoldStartup: true}); !errors.Is(err, ErrOlderServers) {
		t.Fatalf("a new server beside the old ones: %v, want ErrOlderServers", err)
	}
	for _, db := range old {
		load.shut(t, db)
	}
	down := time.Now()
	fleet := startFleet(t, dsn)
	load.serve(fleet[0], fleet[1])
	t.Logf("no server for %v: the new servers' start-up together", time.Since(down).Round(time.Millisecond))
	load.more(t, 20)
	return fleet
}

// TestUpgradeRollbackPostgres is issue 50's item 1, end to end: a fleet
// of two servers of the older binary (oldSchema) under a steady load of
// submissions is upgraded as docs/operations.md says (backup, stop the
// old servers, start the new ones together), rolled back as it says (stop
// the new servers, export what they took, restore the backup into a
// fresh database, start the old binary on it, import the export), and
// upgraded again. Every acknowledged submission is in the final archive.
func TestUpgradeRollbackPostgres(t *testing.T) {
	t.Parallel()
	c := pgtest.Shared(t)
	ctx := context.Background()
	dsn := c.NewDB(t)
	dir := t.TempDir()
	oldFleet := func(dsn string) [2]*DB {
		var dbs [2]*DB
		for i := range dbs {
			var err error
			if dbs[i], err = openOld(t, dsn); err != nil {
				t.Fatalf("the older binary on %s: %v", dsn, err)
			}
		}
		return dbs
	}
	load := newFleetLoad(4)
	old := oldFleet(dsn)
	load.serve(old[0], old[1])
	load.more(t, 50)

	fleet := upgradeFleet(t, load, dsn, filepath.Join(dir, "before-upgrade.dump"), old)

	// Rollback: stop the new servers; export what the archive holds with
	// the new binary (everything since the backup is in it); restore the
	// backup into a new database; start the older binary there; import.
	for _, db := range fleet {
		load.shut(t, db)
	}
	nx, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	since := exportAll(t, nx, record.ListQuery{})
	nx.Close()
	restored := fmt.Sprintf("sudoku_before_%d", time.Now().UnixNano()) // a new database, whatever ran before
	pgTool(t, "createdb", "--maintenance-db="+c.URL("postgres"), "-T", "template0", restored)
	pgTool(t, "pg_restore", "--exit-on-error", "-d", c.URL(restored), filepath.Join(dir, "before-upgrade.dump"))
	old = oldFleet(c.URL(restored))
	load.serve(old[0], old[1])
	// `sudoku import` of the export with the old binary: its puzzles
	// through the same road (SubmitMany), with their measures as the
	// export gave them.
	if _, err := old[0].SubmitMany(ctx, since); err != nil {
		t.Fatalf("import the export into the restored archive: %v", err)
	}
	load.more(t, 50)

	fleet = upgradeFleet(t, load, c.URL(restored), filepath.Join(dir, "before-upgrade-2.dump"), old)
	checkAcked(t, fleet[1], load.end())
	for _, db := range fleet {
		load.shut(t, db)
	}
}

// checkAcked fails t unless db, migrated to this binary's schema, holds
// every acknowledged submission.
func checkAcked(t *testing.T, db *DB, acked map[sudoku.Grid]bool) {
	t.Helper()
	final := map[sudoku.Grid]bool{}
	for _, p := range exportAll(t, db, record.ListQuery{}) {
		final[p.Givens] = true
	}
	lost := 0
	for g := range acked {
		if !final[g] {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acknowledged submissions lost", lost, len(acked))
	}
	if current, known, err := db.Schema(context.Background()); err != nil || current != known {
		t.Errorf("final schema %d, this binary's %d (%v)", current, known, err)
	}
	t.Logf("%d submissions acknowledged through an upgrade, a rollback and an upgrade; %d puzzles in the final archive", len(acked), len(final))
}

// TestUpgradeRollbackSQLite is TestUpgradeRollbackPostgres on one SQLite
// server, by docs/operations.md's steps for it: `sudoku backup` while the
// older server serves, stop it, start the new binary (it migrates); to
// roll back, stop it, export what the archive holds, move the archive
// and its -wal and -shm aside, copy the backup in its place, start the
// older binary, import the export; then upgrade again.
func TestUpgradeRollbackSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "sudoku.db")
	load := newFleetLoad(2)
	old, err := openOld(t, path)
	if err != nil {
		t.Fatal(err)
	}
	load.serve(old)
	load.more(t, 30)
	upgrade := func(old *DB, backup string) *DB {
		if err := BackupFile(ctx, path, filepath.Join(dir, backup)); err != nil { // step 1, while it serves
			t.Fatal(err)
		}
		load.more(t, 20)
		load.shut(t, old)
		db, _, err := startServer(ctx, path, new(jsonLog))
		if err != nil {
			t.Fatalf("the new binary on the older archive: %v", err)
		}
		load.serve(db)
		load.more(t, 30)
		return db
	}
	db := upgrade(old, "before-upgrade.db")

	load.shut(t, db)
	nx, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	since := exportAll(t, nx, record.ListQuery{})
	nx.Close()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(path+suffix, filepath.Join(dir, "upgraded.db"+suffix)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "before-upgrade.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if old, err = openOld(t, path); err != nil {
		t.Fatalf("the older binary on the restored backup: %v", err)
	}
	load.serve(old)
	if _, err := old.SubmitMany(ctx, since); err != nil {
		t.Fatalf("import the export into the restored archive: %v", err)
	}
	load.more(t, 30)

	db = upgrade(old, "before-upgrade-2.db")
	checkAcked(t, db, load.end())
	load.shut(t, db)
}

// TestRestoreOverRefusedPostgres is the rollback issue 50 reported: a
// backup of schema 17 restored over the migrated database with
// `pg_restore --clean --if-exists` (what docs/operations.md said then)
// leaves the tables the newer schema made (servers, puzzle_figures), and
// the next upgrade failed at migration 00020, leaving schema 18, which no
// binary would start on. Open now refuses before it migrates anything,
// naming them and the way out; the backup restored into a new database,
// as the docs now say, migrates.
func TestRestoreOverRefusedPostgres(t *testing.T) {
	t.Parallel()
	c := pgtest.Shared(t)
	ctx := context.Background()
	dsn := c.NewDB(t)
	oldArchive(t, dsn, 17, "sudoku-test").Close()
	dump := filepath.Join(t.TempDir(), "before-upgrade.dump")
	pgTool(t, "pg_dump", "-Fc", "-f", dump, dsn)
	db, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	pgTool(t, "pg_restore", "--clean", "--if-exists", "-d", dsn, dump)
	_, err = Open(ctx, dsn)
	if !errors.Is(err, ErrRestoredOver) || !strings.Contains(err.Error(), "servers (made by migration 00020)") ||
		!strings.Contains(err.Error(), "puzzle_figures") || !strings.Contains(err.Error(), "new database") {
		t.Fatalf("open of a backup restored over a newer schema: %v, want ErrRestoredOver naming its tables", err)
	}
	raw, p, _ := rawMigrator(t, rawDSN(dsn))
	defer raw.Close()
	if v, err := p.GetDBVersion(ctx); err != nil || v != 17 {
		t.Errorf("schema after the refusal: %d, %v; want 17, untouched", v, err)
	}
	fresh := fmt.Sprintf("sudoku_before_%d", time.Now().UnixNano())
	pgTool(t, "createdb", "--maintenance-db="+c.URL("postgres"), "-T", "template0", fresh)
	pgTool(t, "pg_restore", "--exit-on-error", "-d", c.URL(fresh), dump)
	db, err = Open(ctx, c.URL(fresh))
	if err != nil {
		t.Fatalf("open of the backup restored into a new database: %v", err)
	}
	db.Close()
}
