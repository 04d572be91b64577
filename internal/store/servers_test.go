package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
)

// serversSuite is the upgrade's machinery on both stores (servers.go,
// register.go); it joins the suite through TestServersSQLite and
// TestServersPostgres.
var serversSuite = []suiteCase{
	{"MigrationsLogged", testMigrationsLogged},
	{"OlderServerRegistered", testOlderServerRegistered},
	{"KeepRegistered", testKeepRegistered},
	{"PruneAnonymous", testPruneAnonymous},
}

func TestServersSQLite(t *testing.T) {
	t.Parallel()
	for _, tc := range serversSuite {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, sqliteBackend) })
	}
}

func TestServersPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Shared(t)
	bk := pgBackend
	for _, tc := range serversSuite {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, bk) })
	}
	t.Run("OlderServerRefused", func(t *testing.T) { testOlderServerRefused(t, bk) })
	t.Run("ApplicationName", func(t *testing.T) { testApplicationName(t, bk) })
}

// oldArchive migrates the new database at dsn up to schema, as an older
// binary would have, through a connection of its own that it returns open
// (named appName; "" names it nothing, as servers before 00020 did).
func oldArchive(t *testing.T, dsn string, schema int64, appName string) *sql.DB {
	t.Helper()
	if IsPostgres(dsn) && appName != "" {
		dsn += "&application_name=" + appName
	}
	raw, p, _ := rawMigrator(t, dsn)
	if _, err := p.UpTo(context.Background(), schema); err != nil {
		t.Fatal(err)
	}
	return raw
}

// jsonLog is a logger whose lines a test reads back.
type jsonLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *jsonLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *jsonLog) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// lines returns the lines logged with the message msg.
func (l *jsonLog) lines(t *testing.T, msg string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, s := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("log line %q: %v", s, err)
		}
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// testMigrationsLogged: an upgrade logs each migration (from, to,
// seconds) and the whole; a new archive logs one line.
func testMigrationsLogged(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	oldArchive(t, dsn, 17, "sudoku-test").Close()
	var log jsonLog
	db, err := OpenWith(ctx, dsn, OpenOptions{Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	known := knownSchema(db.d)
	applied := log.lines(t, "migration applied")
	if len(applied) == 0 || applied[0]["from"] != 17.0 || applied[len(applied)-1]["to"] != float64(known) {
		t.Errorf("migrations applied: %v, want one line each from 17 to %d", applied, known)
	}
	for i, l := range applied {
		if _, ok := l["seconds"].(float64); !ok || i > 0 && l["from"] != applied[i-1]["to"] {
			t.Errorf("migration line %v: no seconds, or not from the last one's to", l)
		}
	}
	if whole := log.lines(t, "database schema migrated"); len(whole) != 1 || whole[0]["from"] != 17.0 || whole[0]["to"] != float64(known) {
		t.Errorf("upgrade lines: %v", whole)
	}
	if current, k, err := db.Schema(ctx); err != nil || current != known || k != known {
		t.Errorf("Schema = %d, %d, %v; want %d twice", current, k, err, known)
	}
	var fresh jsonLog
	db2, err := OpenWith(ctx, bk.dsn(t), OpenOptions{Logger: fresh.logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if made := fresh.lines(t, "database schema created"); len(made) != 1 || len(fresh.lines(t, "migration applied")) != 0 {
		t.Errorf("a new archive logged %q", fresh.b.String())
	}
}

// testOlderServerRegistered: the gate names the servers of the servers
// table seen lately with an older schema, and no other.
func testOlderServerRegistered(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	known := knownSchema(db.d)
	now := time.Now().Unix()
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		for _, r := range []struct {
			id     string
			schema int64
			seen   int64
		}{
			{"sudoku/v0.9/old:1", known, now},         // older than the pretended newer binary
			{"sudoku/v0.8/gone:2", known, now - 3600}, // not seen for an hour
			{"sudoku/v1.1/new:3", known + 1, now},     // as new as it
		} {
			if _, err := tx.Exec(db.d.sql(`INSERT INTO servers (id, host, pid, version, commit_id, schema_version, started_at, seen_at)
VALUES (?, 'h', 1, 'v', '', ?, ?, ?)`), r.id, r.schema, r.seen, r.seen); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	older, err := db.olderServers(ctx, known, known+1)
	if err != nil {
		t.Fatal(err)
	}
	if len(older) != 1 || !strings.Contains(older[0], "sudoku v on h (pid 1, schema "+strconv.FormatInt(known, 10)+")") {
		t.Errorf("older servers = %q, want the one seen lately", older)
	}
	if older, err := db.olderServers(ctx, known, known); err != nil || len(older) != 0 {
		t.Errorf("with nothing to migrate past them: %q, %v", older, err)
	}
}

// testKeepRegistered: a server's row is there while it runs, gone after.
func testKeepRegistered(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.KeepRegistered(ctx, func(err error) { t.Error(err) })
	}()
	var got []Server
	// Until the first heartbeat is in, however long a loaded machine
	// takes (it was 200 tries 10 ms apart).
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var err error
		if got, err = db.Servers(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 {
			break
		}
	}
	known := knownSchema(db.d)
	if len(got) != 1 || got[0].ID != AppName(known) || got[0].Schema != known || got[0].Version == "" {
		t.Errorf("servers while running = %+v, want this one at schema %d", got, known)
	}
	cancel()
	<-done
	if got, err := db.Servers(context.Background()); err != nil || len(got) != 0 {
		t.Errorf("servers after the stop = %+v, %v", got, err)
	}
}

func TestAppName(t *testing.T) {
	name := AppName(20)
	if len(name) > 63 || !strings.HasPrefix(name, "sudoku/") {
		t.Errorf("AppName = %q (%d bytes)", name, len(name))
	}
	if s, ok := schemaOfAppName(name); !ok || s != 20 {
		t.Errorf("schemaOfAppName(%q) = %d, %v", name, s, ok)
	}
	for _, other := range []string{"", "psql", "sudoku", "sudoku/v1/x/h:1", "pg_dump"} {
		if _, ok := schemaOfAppName(other); ok {
			t.Errorf("schemaOfAppName(%q) took it for a server's", other)
		}
	}
}

var errOlder = ErrOlderServers

// testOlderServerRefused is the reported failure: a server of schema 11
// (before 00012 changed the counters' primary keys) still connected when
// a newer binary starts. The newer binary refuses to migrate and names
// it, so the old server's upserts go on working; once it is gone (or with
// ForceMigrate) the schema is migrated, and the old statement then fails
// as it did in the report.
func testOlderServerRefused(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	old := oldArchive(t, dsn, 11, "")
	oldUpsert := "INSERT INTO stat_buckets AS b (kind, bucket, n, uniq) VALUES ('clues', 30, 1, 1) ON CONFLICT (kind, bucket) DO UPDATE SET n = b.n + 1"
	if _, err := old.ExecContext(ctx, oldUpsert); err != nil {
		t.Fatalf("the old server's upsert on its own schema: %v", err)
	}
	_, err := Open(ctx, dsn)
	var oe *OlderServersError
	if !errors.Is(err, errOlder) || !errors.As(err, &oe) || oe.From != 11 || len(oe.Servers) != 1 ||
		!strings.Contains(oe.Servers[0], "without application_name") || !strings.Contains(err.Error(), "--force-migrate") {
		t.Fatalf("open beside an older server: %v, want OlderServersError naming it", err)
	}
	if _, err := old.ExecContext(ctx, oldUpsert); err != nil {
		t.Errorf("the old server's upsert after the refused upgrade: %v", err)
	}
	// A psql session is no server: it does not hold the upgrade back.
	psql := oldArchive(t, dsn, 11, "psql")
	if err := psql.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := OpenWith(ctx, dsn, OpenOptions{ForceMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := old.ExecContext(ctx, oldUpsert); err == nil || !strings.Contains(err.Error(), "no unique or exclusion constraint") {
		t.Errorf("the old server's upsert after a forced upgrade: %v, want the reported failure", err)
	}
	old.Close()
	// Without the old server, a second newer binary finds nothing to do.
	db2, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	db2.Close()
}

// testApplicationName: every connection of a PostgreSQL archive names
// the server, its version and schema.
func testApplicationName(t *testing.T, bk backend) {
	db := bk.open(t)
	for _, pool := range []*sql.DB{db.reader, db.writer} {
		var name string
		if err := pool.QueryRow("SELECT current_setting('application_name')").Scan(&name); err != nil {
			t.Fatal(err)
		}
		if name != AppName(knownSchema(db.d)) {
			t.Errorf("application_name = %q, want %q", name, AppName(knownSchema(db.d)))
		}
	}
}
