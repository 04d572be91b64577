package main

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/migrations"
)

// TestServeWaitsForOlderServers is issue 38's rolling upgrade on
// PostgreSQL: a server of schema 11 (a connection without
// application_name, as servers before migration 00020 made) still uses
// the database when a newer `sudoku serve` starts. The newer one exits 1
// naming it and leaves the schema alone, so the older server's writes
// (ON CONFLICT on the primary keys 00012 changes) keep working; with
// SUDOKU_FORCE_MIGRATE=1 any command migrates.
func TestServeWaitsForOlderServers(t *testing.T) {
	dsn := pgtest.NewDB(t)
	ctx := context.Background()
	old, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, old, migrations.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 11); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := runCmd(t, "", "serve", "--addr", "127.0.0.1:0", "--db", dsn)
	if !errors.Is(err, store.ErrOlderServers) || exitCode(err) != 1 || !strings.Contains(err.Error(), "without application_name") {
		t.Fatalf("serve beside an older server: %v (exit %d), want ErrOlderServers naming it; stderr %q", err, exitCode(err), stderr)
	}
	if v, err := p.GetDBVersion(ctx); err != nil || v != 11 {
		t.Errorf("schema after the refusal: %d, %v; want 11, untouched", v, err)
	}
	upsert := "INSERT INTO stat_buckets AS b (kind, bucket, n, uniq) VALUES ('clues', 30, 1, 1) ON CONFLICT (kind, bucket) DO UPDATE SET n = b.n + 1"
	if _, err := old.ExecContext(ctx, upsert); err != nil {
		t.Errorf("the older server's write after the refusal: %v", err)
	}
	e := &env{getenv: func(k string) string { return map[string]string{"SUDOKU_FORCE_MIGRATE": "1"}[k] }, stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &strings.Builder{}}
	if err := dispatch(ctx, e, []string{"export", "--db", dsn}); err != nil {
		t.Fatalf("export with SUDOKU_FORCE_MIGRATE=1: %v", err)
	}
	if log := e.stderr.(*strings.Builder).String(); !strings.Contains(log, `msg="database schema migrated" db=`) || !strings.Contains(log, "from=11") {
		t.Errorf("the forced upgrade logged %q", log)
	}
}
