// Package migrations holds the database schema as numbered SQL files, applied
// in order at start-up by the store.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
