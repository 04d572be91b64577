package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

// TestServeGradesInBackground uploads puzzles through the batch API, which
// stores them ungraded, and watches `sudoku serve` grade every one of them
// on its own while it keeps answering.
func TestServeGradesInBackground(t *testing.T) {
	s := startServe(t, sqliteArchive(t), "--rate-limit", "0")
	lines := puzzletest.Lines(t, puzzletest.Diabolical, 30)
	req, _ := http.NewRequest(http.MethodPost, s.url+"/api/puzzles/batch", strings.NewReader(strings.Join(lines, "\n")))
	req.Header.Set("Content-Type", "text/plain")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("batch: %d", res.StatusCode)
	}
	deadline := time.Now().Add(60 * time.Second)
	for id := 1; id <= len(lines); id++ {
		for {
			p := getPuzzle(t, s.url, int64(id))
			if p.Grade != nil {
				if p.Technique == "" || *p.Grade < 1 {
					t.Errorf("puzzle %d: grade %v, technique %q", id, *p.Grade, p.Technique)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("puzzle %d still ungraded after a minute", id)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// TestServeUpgradesOldArchive writes an archive as engine 1 left it (other
// measures, no canonical forms, no classes, no grades) and starts `sudoku
// serve` on it: before it listens every row has engine 2's measures and its
// class, and the grades follow.
func TestServeUpgradesOldArchive(t *testing.T) {
	ctx := context.Background()
	path := sqliteArchive(t) // migrated: the upgrade here is of the engine's rows
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var ps []record.Puzzle
	for _, l := range puzzletest.Lines(t, puzzletest.Top1465, 40) {
		g, _ := sudoku.Parse(l)
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw := openRaw(t, path)
	for _, q := range []string{
		`UPDATE puzzles SET engine_version = '1', backtracks = backtracks + 5, canonical = NULL, canonical_key = NULL, same_as = NULL`,
		`DELETE FROM classes`, migrations.Recount,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	s := startServe(t, path, "--rate-limit", "0")
	for i, want := range ps {
		p := getPuzzle(t, s.url, int64(i+1))
		if p.EngineVersion != sudoku.EngineVersion || p.Backtracks != want.Backtracks || p.Canonical != want.Canonical {
			t.Errorf("puzzle %d after the upgrade: engine %s, backtracks %d (want %d), canonical %s (want %s)",
				i+1, p.EngineVersion, p.Backtracks, want.Backtracks, p.Canonical, want.Canonical)
		}
	}
}

// getPuzzle reads one archived puzzle through the API of the server at base.
func getPuzzle(t *testing.T, base string, id int64) record.Puzzle {
	t.Helper()
	r, err := http.Get(fmt.Sprintf("%s/api/puzzles/%d", base, id))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var p record.Puzzle
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		t.Fatalf("puzzle %d: %v", id, err)
	}
	return p
}
