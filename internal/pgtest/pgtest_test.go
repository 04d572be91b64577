package pgtest

import (
	"context"
	"fmt"
	"os"
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
// cluster and that each database it makes is its own.
func TestShared(t *testing.T) {
	c := Shared(t)
	if Shared(t) != c {
		t.Fatal("Shared returned two clusters")
	}
	if a, b := NewDB(t), NewDB(t); a == b {
		t.Errorf("NewDB returned %s twice", a)
	}
}

// TestNewDBFrom checks that copies of a template hold what its fill put
// there, once, and are each their own.
func TestNewDBFrom(t *testing.T) {
	fills := 0
	fill := func(dsn string) error {
		fills++
		conn, err := pgx.Connect(t.Context(), dsn)
		if err != nil {
			return err
		}
		defer conn.Close(t.Context())
		_, err = conn.Exec(t.Context(), "CREATE TABLE x (n int); INSERT INTO x VALUES (1)")
		return err
	}
	a, b := NewDBFrom(t, "tpl", fill), NewDBFrom(t, "tpl", fill)
	if fills != 1 {
		t.Errorf("template filled %d times, want once", fills)
	}
	for i, dsn := range []string{a, b} {
		conn, err := pgx.Connect(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(t.Context())
		if _, err := conn.Exec(t.Context(), fmt.Sprintf("INSERT INTO x VALUES (%d)", i+2)); err != nil {
			t.Fatal(err)
		}
		var sum int
		if err := conn.QueryRow(t.Context(), "SELECT sum(n) FROM x").Scan(&sum); err != nil {
			t.Fatal(err)
		}
		if sum != 1+i+2 {
			t.Errorf("copy %d: sum %d, want %d", i, sum, 1+i+2)
		}
	}
}
