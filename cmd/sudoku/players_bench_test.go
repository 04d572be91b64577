package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// meAttempts is the history of the player BenchmarkMe serves.
const meAttempts = 10_000

// BenchmarkMe serves the dashboard of a player with 10,000 attempts (at
// 1,024 real puzzles: solves, give-ups, hints with techniques, over 60
// days) through the real router and store on SQLite: GET /me (the page,
// summary and first page of attempts), GET /api/me and a page of
// GET /api/me/attempts 100 deep. It reports the median and the 99th
// percentile of each request's time.
func BenchmarkMe(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "sudoku.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var ps []record.Puzzle
	for _, line := range puzzletest.Lines(b, puzzletest.Kaggle, 1024) {
		g, _ := sudoku.Parse(line[:81])
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := db.AddMany(ctx, ps); err != nil {
		b.Fatal(err)
	}
	secret, err := db.Secret(ctx)
	if err != nil {
		b.Fatal(err)
	}
	cookie, session := account.NewSigner(secret).NewSession()
	p, err := db.NewPlayer(ctx, session, time.Now().Add(time.Hour))
	if err != nil {
		b.Fatal(err)
	}
	fillAttempts(b, path, p.ID, meAttempts)
	srv := web.New(web.AllParts(db), web.Config{Logger: slog.New(slog.DiscardHandler), CSRFSecret: secret})
	as, err := db.Attempts(ctx, p.ID, 0, 2000)
	if err != nil || len(as) != 2000 {
		b.Fatalf("%d attempts, %v", len(as), err)
	}
	deep := as[len(as)-1].ID
	for _, path := range []string{"/me", "/api/me", fmt.Sprintf("/api/me/attempts?limit=20&cursor=%d", deep)} {
		b.Run(path, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.AddCookie(&http.Cookie{Name: "sudoku_session", Value: cookie})
				rec := httptest.NewRecorder()
				t0 := time.Now()
				srv.ServeHTTP(rec, req)
				times = append(times, time.Since(t0))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
				}
			}
			slices.Sort(times)
			ms := func(q float64) float64 { return float64(times[int(q*float64(len(times)-1))]) / 1e6 }
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
		})
	}
}

// fillAttempts gives player n finished attempts at the archive's puzzles,
// written straight into the SQLite file in one transaction (the setup,
// not what is measured): two solves in three, a third of those with hints,
// the rest given up, over the last 60 days.
func fillAttempts(b *testing.B, path string, player int64, n int) {
	b.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.Begin()
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	var puzzles []int64
	rows, err := tx.Query("SELECT id FROM puzzles ORDER BY id")
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		puzzles = append(puzzles, id)
	}
	rows.Close()
	techniques := []string{"Hidden Single", "Naked Pair", "X-Wing", "Pointing Pair"}
	now := time.Now().Add(-60 * 24 * time.Hour)
	for i := range n {
		outcome, hints, tech := "solved", 0, ""
		switch {
		case i%3 == 2:
			outcome = "gave_up"
		case i%9 == 1:
			hints, tech = 1, techniques[i%len(techniques)]
		}
		at := now.Add(time.Duration(i) * 60 * 24 * time.Hour / time.Duration(n)).UnixNano()
		pz := puzzles[i%len(puzzles)]
		_, err := tx.Exec("INSERT INTO attempts (player_id, puzzle_id, class_key, started_at, finished_at, outcome, seconds, hints, first, techniques) "+
			"SELECT ?, id, coalesce(canonical_key, givens_key), ?, ?, ?, ?, ?, ?, ? FROM puzzles WHERE id = ?",
			player, at-int64(5*time.Minute), at, outcome, 120+i%600, hints, i < len(puzzles), tech, pz)
		if err != nil {
			b.Fatal(err)
		}
	}
	// The figures the store keeps at each finish, computed at once from
	// the attempts.
	for _, q := range []string{
		`UPDATE players SET attempts = (SELECT count(*) FROM attempts WHERE player_id = ?1),
			solved = (SELECT count(*) FROM attempts WHERE player_id = ?1 AND outcome = 'solved'),
			gave_up = (SELECT count(*) FROM attempts WHERE player_id = ?1 AND outcome = 'gave_up') WHERE id = ?1`,
		`INSERT INTO player_grades (player_id, grade, solves, seconds, fastest, slowest)
			SELECT ?1, p.grade, count(*), sum(a.seconds), min(a.seconds), max(a.seconds) FROM attempts a JOIN puzzles p ON p.id = a.puzzle_id
			WHERE a.player_id = ?1 AND a.outcome = 'solved' GROUP BY p.grade`,
		`INSERT INTO player_techniques (player_id, technique, hints, gave_up)
			SELECT ?1, techniques, count(*), 0 FROM attempts WHERE player_id = ?1 AND techniques <> '' GROUP BY techniques`,
	} {
		if _, err := tx.Exec(q, player); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}
