package store

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// BenchmarkSkeletonNames measures migration 00025's skeleton making at
// open: an archive of migration 00024 with 100,000 named players (every
// tenth in Cyrillic) opened once per iteration. players/s is what the
// upgrade's start-up costs.
func BenchmarkSkeletonNames(b *testing.B) {
	benchFillAtOpen(b, 24, func(tx *sql.Tx, i int) error {
		name := fmt.Sprintf("player%d", i)
		if i%10 == 9 {
			name = fmt.Sprintf("игрок%d", i)
		}
		_, err := tx.Exec("INSERT INTO players (name, name_key, created_at) VALUES (?, ?, ?)", name, account.NameKey(name), i)
		return err
	})
}
