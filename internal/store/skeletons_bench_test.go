package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// BenchmarkSkeletonNames measures migration 00025's skeleton making at
// open: an archive of migration 00024 with 100,000 named players (every
// tenth in Cyrillic) opened once per iteration. players/s is what the
// upgrade's start-up costs.
func BenchmarkSkeletonNames(b *testing.B) {
	const players = 100_000
	ctx := context.Background()
	var total time.Duration
	for range b.N {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "v24.db")
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			b.Fatal(err)
		}
		p, err := goose.NewProvider(goose.DialectSQLite3, raw, sqliteDialect.fs)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.UpTo(ctx, 24); err != nil {
			b.Fatal(err)
		}
		tx, err := raw.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for i := range players {
			name := fmt.Sprintf("player%d", i)
			if i%10 == 9 {
				name = fmt.Sprintf("игрок%d", i)
			}
			if _, err := tx.Exec("INSERT INTO players (name, name_key, created_at) VALUES (?, ?, ?)", name, account.NameKey(name), i); err != nil {
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
