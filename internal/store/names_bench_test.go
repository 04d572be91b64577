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
	const players = 100_000
	ctx := context.Background()
	var total time.Duration
	for range b.N {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "v17.db")
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			b.Fatal(err)
		}
		p, err := goose.NewProvider(goose.DialectSQLite3, raw, sqliteDialect.fs)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.UpTo(ctx, 17); err != nil {
			b.Fatal(err)
		}
		tx, err := raw.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for i := range players {
			name := fmt.Sprintf("player%d", i)
			if i%100 == 99 {
				name = fmt.Sprintf("PLÄYER%d", i-1) // lower() keeps Ä: another row for SQLite, one key for Go
			} else if i%100 == 98 {
				name = fmt.Sprintf("pläyer%d", i)
			}
			if _, err := tx.Exec("INSERT INTO players (name, created_at) VALUES (?, ?)", name, i); err != nil {
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
	b.ReportMetric(float64(players*b.N)/total.Seconds(), "players/s")
}
