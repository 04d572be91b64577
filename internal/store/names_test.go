package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// accountsSuite is the suite's part for issue 35 (names keyed in Go,
// tokens listed and revoked, the login throttle by address and device),
// added to suite in suite_test.go.
var accountsSuite = []suiteCase{
	{"NameKeysPlayers", testNameKeysPlayers},
	{"NameKeysCollections", testNameKeysCollections},
	{"NameKeysMigration", testNameKeysMigration},
	{"TokensListRevoke", testTokensListRevoke},
	{"LoginThrottleAddress", testLoginThrottleAddress},
	{"FinishHiddenSince", testFinishHiddenSince},
}

// testNameKeysPlayers: ÉMILE, Émile (decomposed) and émile are one
// account for signup, add, login, role, token and the audit, which
// records the account's own name.
func testNameKeysPlayers(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	exp := time.Now().Add(time.Hour)
	emile, err := db.Signup(ctx, 0, "émile", "hash", nil, session(1), exp)
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{"ÉMILE", "E\u0301mile"} {
		if _, err := db.Signup(ctx, 0, other, "hash2", nil, session(2), exp); !errors.Is(err, account.ErrNameTaken) {
			t.Errorf("sign up as %q beside émile: %v, want ErrNameTaken", other, err)
		}
		if _, err := db.AddUser(ctx, other, "hash2", account.RolePlayer, moderation.CLI()); !errors.Is(err, account.ErrNameTaken) {
			t.Errorf("add user %q beside émile: %v, want ErrNameTaken", other, err)
		}
	}
	for _, pair := range [][2]string{{"Ölaf", "ölaf"}, {"ДИМА", "дима"}, {"ＡＮＮ", "ann"}} {
		if _, err := db.AddUser(ctx, pair[0], "h", account.RolePlayer, moderation.CLI()); err != nil {
			t.Fatal(err)
		}
		if _, err := db.AddUser(ctx, pair[1], "h", account.RolePlayer, moderation.CLI()); !errors.Is(err, account.ErrNameTaken) {
			t.Errorf("add user %q beside %q: %v, want ErrNameTaken", pair[1], pair[0], err)
		}
	}
	p, hash, err := db.Credentials(ctx, "ÉMILE")
	if err != nil || p.ID != emile.ID || hash != "hash" {
		t.Errorf("credentials of ÉMILE = %+v %q %v, want émile's", p, hash, err)
	}
	if err := db.SetRole(ctx, "ÉMILE", account.RoleModerator, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddToken(ctx, "Émile", account.HashToken("t1"), moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	es, err := db.Audit(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.PlayerID == emile.ID && e.PlayerName != "émile" {
			t.Errorf("audit %s pairs player %d with %q, want its name émile", e.Action, e.PlayerID, e.PlayerName)
		}
	}
	if got, err := db.TokenPlayer(ctx, account.HashToken("t1")); err != nil || got.ID != emile.ID || got.Role != account.RoleModerator {
		t.Errorf("token player = %+v, %v; want émile, moderator", got, err)
	}
}

// testNameKeysCollections: `Émile set` and `émile set` are one name, found
// by either.
func testNameKeysCollections(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	c, err := db.CreateCollection(ctx, record.Collection{Name: "Émile set"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateCollection(ctx, record.Collection{Name: "émile  SET"}); record.KindOf(err) != record.KindConflict {
		t.Errorf("create émile SET beside Émile set: %v, want a conflict", err)
	}
	if got, err := db.CollectionNamed(ctx, "ÉMILE SET"); err != nil || got.ID != c.ID {
		t.Errorf("collection named ÉMILE SET = %+v, %v; want %d", got, err, c.ID)
	}
	if got, created, err := db.EnsureCollection(ctx, record.Collection{Name: "émile set"}); err != nil || created || got.ID != c.ID {
		t.Errorf("ensure émile set = %d, created %v, %v; want %d", got.ID, created, err, c.ID)
	}
}

// testNameKeysMigration: an archive of migration 00017 holding names that
// one key makes equal opens with every name keyed; the later ones (by id)
// are renamed with -2, -3 (collections: " (2)"), the renaming is audited,
// and every account is still reachable with its password.
func testNameKeysMigration(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	oldNamesArchive(t, dsn)
	db := MustOpenDBAt(t, dsn)
	want := map[string]string{"émile": "émile", "ÉMILE-2": "ÉMILE", "Émile-3": "E\u0301mile", "bob": "bob", "émile-2-2": "émile-2"}
	for now, was := range want {
		if _, hash, err := db.Credentials(ctx, now); err != nil || hash != "hash"+was {
			t.Errorf("credentials of %q (was %q): %q, %v", now, was, hash, err)
		}
	}
	us, err := db.Users(ctx)
	if err != nil || len(us) != len(want) {
		t.Fatalf("%d users, %v; want %d", len(us), err, len(want))
	}
	cs, err := db.Collections(ctx)
	if err != nil || len(cs) != 2 || cs[0].Name != "Émile set" || cs[1].Name != "émile set (2)" {
		t.Errorf("collections after the migration: %+v, %v", cs, err)
	}
	es, err := db.Audit(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	renamed := 0
	for _, e := range es {
		if e.Action == moderation.ActionRename {
			renamed++
			if !strings.Contains(e.Detail, "->") || e.Actor.Name != "migration 00018" {
				t.Errorf("rename entry %+v", e)
			}
		}
	}
	if renamed != 4 {
		t.Errorf("%d renamings audited, want 4 (three accounts, one collection)", renamed)
	}
	if p, err := db.TokenPlayer(ctx, account.HashToken("old")); err != nil || p.Name != "ÉMILE-2" {
		t.Errorf("the old token: %+v, %v; want ÉMILE-2's", p, err)
	}
	checkNameKeysDownUp(t, db, dsn, len(want))
}

// oldNamesArchive makes an archive of migration 00017 at dsn holding
// names that one key makes equal (as lower() let them be made), a token
// of the second and two collections of one key.
func oldNamesArchive(t *testing.T, dsn string) {
	ctx := context.Background()
	raw, p, d := rawMigrator(t, rawDSN(dsn))
	if _, err := p.UpTo(ctx, 17); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"émile", "ÉMILE", "E\u0301mile", "bob", "émile-2"} {
		if _, err := raw.ExecContext(ctx, d.sql("INSERT INTO players (name, password, created_at) VALUES (?, ?, ?)"), name, "hash"+name, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.ExecContext(ctx, d.sql("INSERT INTO tokens (token_hash, player_id, created_at) VALUES (?, 2, 5)"), account.HashToken("old")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Émile set", "émile set"} {
		if _, err := raw.ExecContext(ctx, d.sql("INSERT INTO collections (name, created_at) VALUES (?, 0)"), name); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
}

// checkNameKeysDownUp undoes migration 00018 on the archive db (at dsn,
// closed here) and redoes it: every player and token stays, and the keys
// are made again with nothing more to rename.
func checkNameKeysDownUp(t *testing.T, db *DB, dsn string, players int) {
	ctx := context.Background()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, p, _ := rawMigrator(t, rawDSN(dsn))
	if _, err := p.DownTo(ctx, 17); err != nil {
		t.Fatal(err)
	}
	var n, tokens int
	if err := raw.QueryRow("SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM tokens)").Scan(&n, &tokens); err != nil || n != players || tokens != 1 {
		t.Fatalf("after undoing 00018: %d players, %d tokens (%v); want %d and 1", n, tokens, err, players)
	}
	again := MustOpenDBAt(t, dsn)
	if p, err := again.TokenPlayer(ctx, account.HashToken("old")); err != nil || p.Name != "ÉMILE-2" {
		t.Errorf("the old token after 00018 again: %+v, %v", p, err)
	}
	es, err := again.Audit(ctx, 0, 100)
	if err != nil || len(es) != 4 {
		t.Errorf("%d audit entries after 00018 again (%v), want the first 4 renamings only", len(es), err)
	}
}

// rawMigrator opens the archive at dsn as it is, without Open's
// migrations, and a goose provider over it, so that a migration test can
// set the schema to any version (the archive's dialect comes with them
// for the test's own SQL). dsn is opened as given: pass rawDSN(dsn) for a
// connection the migration gate leaves alone. The connection closes at
// the test's end; close it sooner where Open must have the archive alone.
func rawMigrator(t *testing.T, dsn string) (*sql.DB, *goose.Provider, dialect) {
	t.Helper()
	d, driver := sqliteDialect, "sqlite"
	if IsPostgres(dsn) {
		d, driver = postgresDialect, "pgx"
	}
	raw, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	p, err := goose.NewProvider(d.goose, raw, d.fs)
	if err != nil {
		t.Fatal(err)
	}
	return raw, p, d
}

// rawDSN names a test's own PostgreSQL connection, so that the migration
// gate (servers.go) does not take it for an older server using the
// database.
func rawDSN(dsn string) string {
	if IsPostgres(dsn) {
		return dsn + "&application_name=names-test"
	}
	return dsn
}
