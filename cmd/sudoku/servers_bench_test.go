package main

import (
	"fmt"
	"testing"
)

// BenchmarkArchiveSubmit measures durable submissions per second through
// `sudoku serve` processes (the built binary, as deployed) on each
// database, side by side in one run: one and two servers on an SQLite
// file, one and two on a PostgreSQL database. 32 clients post distinct new
// puzzles, spread over the servers; load generator, servers and database
// share the machine.
//
//	go test -run '^$' -bench ArchiveSubmit -benchtime 20000x ./cmd/sudoku
func BenchmarkArchiveSubmit(b *testing.B) {
	const clients = 32
	bin := buildBinary(b)
	for _, be := range backends() {
		for _, n := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/servers=%d", be.name, n), func(b *testing.B) {
				dsn := be.archive(b)
				var urls []string
				var procs []*proc
				for range n {
					p := startProc(b, bin, dsn, "--rate-limit", "0")
					procs = append(procs, p)
					urls = append(urls, p.url)
				}
				submitLoad(b, urls, clients)
				for _, p := range procs {
					stopProc(b, p)
				}
			})
		}
	}
}
