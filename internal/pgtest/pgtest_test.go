package pgtest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestStart starts a cluster, creates two databases on it and checks that
// they are separate and that the server answers.
func TestStart(t *testing.T) {
	c := Start(t)
	ctx := context.Background()
	a, b := c.NewDB(t), c.NewDB(t)
	if a == b {
		t.Fatalf("NewDB returned %s twice", a)
	}
	conn, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE TABLE x (n int)"); err != nil {
		t.Fatal(err)
	}
	var fsync string
	if err := conn.QueryRow(ctx, "SHOW fsync").Scan(&fsync); err != nil {
		t.Fatal(err)
	}
	if fsync != "on" {
		t.Errorf("fsync = %s, want on: the tests check durability", fsync)
	}
	other, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var n int
	if err := other.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'x'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("table x visible in the other database")
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	StopShared()
	os.Exit(code)
}

// TestShared checks that every test of the process gets the one shared
// cluster, that each database it makes is its own, and that a database is
// dropped when its test ends.
func TestShared(t *testing.T) {
	c := Shared(t)
	if Shared(t) != c {
		t.Fatal("Shared returned two clusters")
	}
	var name string
	t.Run("db", func(t *testing.T) {
		dsn := NewDB(t)
		name = strings.TrimPrefix(strings.SplitN(dsn, "?", 2)[0], "postgres://postgres@localhost/")
		conn, err := pgx.Connect(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		// An open connection does not keep the database from being
		// dropped: a test's handles may close after its cleanups.
		t.Cleanup(func() { conn.Close(context.Background()) })
	})
	conn, err := pgx.Connect(t.Context(), c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var n int
	if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if name == "" || n != 0 {
		t.Errorf("database %q: %d left after its test, want dropped", name, n)
	}
}
