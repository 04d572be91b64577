package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

// BenchmarkKeyNames measures migration 00018's key making at open: an
// archive of migration 00017 with 100,000 named players (one in a hundred
// colliding with another by its key, so renamed and audited) opened once
// per iteration. players/s is what the upgrade's start-up costs.
func BenchmarkKeyNames(b *testing.B) {
	benchFillAtOpen(b, 17, func(tx *sql.Tx, i int) error {
		name := fmt.Sprintf("player%d", i)
		if i%100 == 99 {
			name = fmt.Sprintf("PLÄYER%d", i-1) // lower() keeps Ä: another row for SQLite, one key for Go
		} else if i%100 == 98 {
			name = fmt.Sprintf("pläyer%d", i)
		}
		_, err := tx.Exec("INSERT INTO players (name, created_at) VALUES (?, ?)", name, i)
		return err
	})
}

// benchPlayers is how many players a migration-fill benchmark's archive
// holds: enough that the fill, not the open's fixed cost, dominates.
const benchPlayers = 100_000

// benchFillAtOpen times what Open costs when it upgrades an archive past
// migration version holding benchPlayers players, each written by insert
// (given the player's index), and reports players/s. The migration-fill
// benchmarks share it so that each states only its version and its rows;
// only the Open is timed, never the building of the archive.
func benchFillAtOpen(b *testing.B, version int64, insert func(tx *sql.Tx, i int) error) {
	b.Helper()
	ctx := context.Background()
	var total time.Duration
	for range b.N {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), fmt.Sprintf("v%d.db", version))
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			b.Fatal(err)
		}
		p, err := goose.NewProvider(goose.DialectSQLite3, raw, sqliteDialect.fs)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.UpTo(ctx, version); err != nil {
			b.Fatal(err)
		}
		tx, err := raw.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for i := range benchPlayers {
			if err := insert(tx, i); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		raw.Close()
		b.StartTimer()
		start := time.Now()
		db, err := Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		b.StopTimer()
		db.Close()
	}
	b.ReportMetric(float64(benchPlayers*b.N)/total.Seconds(), "players/s")
}
