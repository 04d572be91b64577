package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestLookalikes runs the look-alike cases (issue 45, migration 00025;
// skeletons.go) on SQLite and on the package's shared PostgreSQL cluster.
func TestLookalikes(t *testing.T) {
	cases := []suiteCase{
		{"Players", testLookalikePlayers},
		{"Collections", testLookalikeCollections},
		{"Migration", testLookalikeMigration},
		{"ConcurrentSignups", testLookalikeSignups},
	}
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) {
			t.Parallel()
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) { tc.run(t, bk) })
			}
		})
	}
}

// isLookalike reports whether err refuses name as looking like existing.
func isLookalike(err error, existing string) bool {
	var le *account.LookalikeError
	return errors.As(err, &le) && le.Existing == existing
}

// testLookalikePlayers: a name that looks like an account's is refused
// at signup (new and anonymous players), `user add` and an attempts
// import; a name of the same key is still "taken".
func testLookalikePlayers(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	exp := time.Now().Add(time.Hour)
	for _, name := range []string{"coco", "ismail", "STRASSE", "apple"} {
		if _, err := db.AddUser(ctx, name, "h", account.RolePlayer, moderation.CLI()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Signup(ctx, 0, "сосо", "h", nil, session(1), exp); !isLookalike(err, "coco") {
		t.Errorf("sign up сосо beside coco: %v, want a LookalikeError naming coco", err)
	}
	if _, err := db.AddUser(ctx, "c0c0", "h", account.RolePlayer, moderation.CLI()); !isLookalike(err, "coco") {
		t.Errorf("add c0c0 beside coco: %v, want a LookalikeError naming coco", err)
	}
	if _, err := db.AddUser(ctx, "COCO", "h", account.RolePlayer, moderation.CLI()); !errors.Is(err, account.ErrNameTaken) {
		t.Errorf("add COCO beside coco: %v, want ErrNameTaken", err)
	}
	anon, err := db.NewPlayer(ctx, session(2), exp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Signup(ctx, anon.ID, "ısmail", "h", session(2), session(3), exp); !isLookalike(err, "ismail") {
		t.Errorf("name the anonymous player ısmail beside ismail: %v, want a LookalikeError", err)
	}
	if _, err := db.Signup(ctx, anon.ID, "straße", "h", session(2), session(3), exp); !isLookalike(err, "STRASSE") {
		t.Errorf("sign up straße beside STRASSE: %v, want a LookalikeError", err)
	}
	if p, err := db.Signup(ctx, anon.ID, "émile", "h", session(2), session(3), exp); err != nil || p.ID != anon.ID {
		t.Errorf("sign up émile (no look-alike) as the anonymous player %d: %+v, %v", anon.ID, p, err)
	}
	im := ImportedAttempt{Imported: account.Imported{Player: "аррӏе", At: time.Now()}, PuzzleID: 1}
	if made, err := db.ImportAttempts(ctx, []ImportedAttempt{im}, nil); !isLookalike(err, "apple") || made != 0 {
		t.Errorf("import attempts of аррӏе beside apple: %d made, %v; want a LookalikeError", made, err)
	}
	us, err := db.Users(ctx)
	if err != nil || len(us) != 5 {
		t.Errorf("%d users (%v), want 5: the four and émile", len(us), err)
	}
}

// testLookalikeCollections: a new or renamed collection whose name looks
// like another's is a conflict that says so; a collection keeps its own
// name through an edit.
func testLookalikeCollections(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	classic, err := db.CreateCollection(ctx, record.Collection{Name: "Classic Puzzles"})
	if err != nil {
		t.Fatal(err)
	}
	// A Cyrillic Es.
	_, err = db.CreateCollection(ctx, record.Collection{Name: "Сlassic puzzles"})
	if record.KindOf(err) != record.KindConflict || !isLookalike(err, "Classic Puzzles") {
		t.Errorf("create Сlassic puzzles beside Classic Puzzles: %v (kind %v), want a look-alike conflict", err, record.KindOf(err))
	}
	if _, _, err := db.EnsureCollection(ctx, record.Collection{Name: "Сlassic puzzles"}); !isLookalike(err, "Classic Puzzles") {
		t.Errorf("ensure Сlassic puzzles: %v, want the look-alike conflict", err)
	}
	if _, err := db.CreateCollection(ctx, record.Collection{Name: "classic  PUZZLES"}); record.KindOf(err) != record.KindConflict || isLookalike(err, "Classic Puzzles") {
		t.Errorf("create classic PUZZLES: %v, want the name taken", err)
	}
	other, err := db.CreateCollection(ctx, record.Collection{Name: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	other.Name = "C1assic Puzzles"
	if _, err := db.UpdateCollection(ctx, other, moderation.CLI()); record.KindOf(err) != record.KindConflict || !isLookalike(err, "Classic Puzzles") {
		t.Errorf("rename Other to C1assic Puzzles: %v, want a look-alike conflict", err)
	}
	classic.Description = "kept"
	if got, err := db.UpdateCollection(ctx, classic, moderation.CLI()); err != nil || got.Description != "kept" {
		t.Errorf("edit Classic Puzzles' description: %+v, %v", got, err)
	}
}

// testLookalikeMigration: an archive of migration 00024 holding accounts
// and collections that look alike opens with every skeleton filled; every
// account keeps its name and password, a collection its edits, and a new
// look-alike is refused.
func testLookalikeMigration(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	raw, p, d := rawMigrator(t, rawDSN(dsn))
	if _, err := p.UpTo(ctx, 24); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"coco", "сосо", "bob"} {
		if _, err := raw.ExecContext(ctx, d.sql("INSERT INTO players (name, name_key, password, created_at) VALUES (?, ?, ?, ?)"), name, account.NameKey(name), "hash"+name, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"Classic", "Сlassic"} {
		if _, err := raw.ExecContext(ctx, d.sql("INSERT INTO collections (name, name_key, created_at) VALUES (?, ?, 0)"), name, account.CollectionKey(name)); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db := MustOpenDBAt(t, dsn)
	for _, name := range []string{"coco", "сосо", "bob"} {
		if _, hash, err := db.Credentials(ctx, name); err != nil || hash != "hash"+name {
			t.Errorf("credentials of %q: %q, %v", name, hash, err)
		}
	}
	var missing int
	if err := db.reader.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM players WHERE name_skeleton IS NULL) + (SELECT count(*) FROM collections WHERE name_skeleton IS NULL)").Scan(&missing); err != nil || missing != 0 {
		t.Errorf("%d names without a skeleton after the migration (%v)", missing, err)
	}
	if _, err := db.AddUser(ctx, "cосо", "h", account.RolePlayer, moderation.CLI()); !isLookalike(err, "coco") {
		t.Errorf("add cосо after the migration: %v, want a LookalikeError naming coco (the older)", err)
	}
	cyr, err := db.CollectionNamed(ctx, "Сlassic")
	if err != nil {
		t.Fatal(err)
	}
	cyr.Description = "still mine"
	if _, err := db.UpdateCollection(ctx, cyr, moderation.CLI()); err != nil {
		t.Errorf("edit the look-alike collection made before the rule: %v", err)
	}
	checkSkeletonsDownUp(t, db, dsn)
}

// checkSkeletonsDownUp undoes migration 00025 on the archive db (at dsn,
// closed here) and opens it again: the skeletons are made again, and the
// look-alike rule holds.
func checkSkeletonsDownUp(t *testing.T, db *DB, dsn string) {
	ctx := context.Background()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	_, p, _ := rawMigrator(t, rawDSN(dsn))
	if _, err := p.DownTo(ctx, 24); err != nil {
		t.Fatal(err)
	}
	again := MustOpenDBAt(t, dsn)
	if _, err := again.Signup(ctx, 0, "ϲοϲο", "h", nil, session(9), time.Now().Add(time.Hour)); !isLookalike(err, "coco") {
		t.Errorf("sign up ϲοϲο after 00025 undone and redone: %v, want a LookalikeError naming coco", err)
	}
}

// testLookalikeSignups: 20 signups at once of spellings of one name that
// look alike, over two servers of one archive, make one account; every
// other is told the name is taken or looks like it.
func testLookalikeSignups(t *testing.T, bk backend) {
	ctx := context.Background()
	dbs := twoServers(t, bk)
	spellings := []string{"coco", "сосо", "COCO", "c0c0", "ϲοϲο", "ＣＯＣＯ", "Coco", "СОСО", "C0C0", "cOcO"}
	exp := time.Now().Add(time.Hour)
	var made, refused sync.Map
	var wg sync.WaitGroup
	for i := range 20 {
		name := spellings[i%len(spellings)]
		wg.Go(func() {
			err := retryBusy(t, func() error {
				_, err := dbs[i%2].Signup(ctx, 0, name, "h", nil, session(byte(10+i)), exp)
				return err
			})
			switch {
			case err == nil:
				made.Store(i, name)
			case errors.Is(err, account.ErrNameTaken), errors.Is(err, account.ErrNameLookalike):
				refused.Store(i, err)
			default:
				t.Errorf("sign up %q: %v", name, err)
			}
		})
	}
	wg.Wait()
	n := 0
	made.Range(func(_, name any) bool { n++; t.Logf("made %q", name); return true })
	us, err := dbs[0].Users(ctx)
	if n != 1 || err != nil || len(us) != 1 {
		t.Errorf("%d signups succeeded, %d users (%v): want one account", n, len(us), err)
	}
}
