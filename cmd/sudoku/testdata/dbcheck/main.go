// Command dbcheck prints, as one JSON object, what the reliability tests
// check in an archive file: PRAGMA integrity_check, the running totals and
// the rows they count, and each puzzle's submission count. The tests build
// it without the race detector, which makes SQLite (compiled to Go) ten
// times slower inside a -race test binary.
//
//	go run ./cmd/sudoku/testdata/dbcheck sudoku.db
package main

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	_ "modernc.org/sqlite"
)

// state is the output.
type state struct {
	Integrity string           `json:"integrity"`
	Total     int64            `json:"total"`
	Uniq      int64            `json:"uniq"`
	Rows      int64            `json:"rows"`
	UniqRows  int64            `json:"uniq_rows"`
	Puzzles   map[string]int64 `json:"puzzles"`
	Repeated  []string         `json:"repeated"` // givens stored more than once
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dbcheck FILE")
		os.Exit(2)
	}
	if err := check(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "dbcheck:", err)
		os.Exit(1)
	}
}

func check(path string) error {
	// A process killed before it made the file left none: nothing stored.
	// (SQLite would create an empty file here, which every command then
	// refuses as not an archive: this check must not make one.)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return json.NewEncoder(os.Stdout).Encode(state{Puzzles: map[string]int64{}, Integrity: "ok"})
	}
	// Read-write, as a server would open it: SQLite recovers a WAL left by
	// a killed process on the first open. mode=rw: never create the file.
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	s := state{Puzzles: map[string]int64{}}
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&s.Integrity); err != nil {
		return fmt.Errorf("integrity_check: %w", err)
	}
	// A process killed while it migrated a new file leaves the migrations
	// before that one committed (each runs in its own transaction), and
	// no puzzle: nothing was acknowledged yet.
	var tables int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('puzzles', 'counts')").Scan(&tables); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	if tables < 2 {
		var rows int64
		if tables == 1 {
			if err := db.QueryRow("SELECT count(*) FROM puzzles").Scan(&rows); err != nil {
				return fmt.Errorf("count rows: %w", err)
			}
		}
		if rows != 0 {
			return fmt.Errorf("%d puzzles in a database whose migrations did not finish", rows)
		}
		return json.NewEncoder(os.Stdout).Encode(s)
	}
	if err := db.QueryRow("SELECT sum(total), sum(uniq) FROM counts").Scan(&s.Total, &s.Uniq); err != nil {
		return fmt.Errorf("counts: %w", err)
	}
	if err := db.QueryRow("SELECT count(*), count(*) FILTER (WHERE solutions = 1) FROM puzzles").Scan(&s.Rows, &s.UniqRows); err != nil {
		return fmt.Errorf("count rows: %w", err)
	}
	rs, err := db.Query("SELECT givens, submissions FROM puzzles")
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var g string
		var n int64
		if err := rs.Scan(&g, &n); err != nil {
			return err
		}
		if _, ok := s.Puzzles[g]; ok {
			s.Repeated = append(s.Repeated, g)
		}
		s.Puzzles[g] = n
	}
	if err := rs.Err(); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(s)
}
