package web_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// The archive BenchmarkNext serves.
const (
	nextArchiveSize = 100_000 // puzzles: every standard collection, nearly all of them
	nextPlayers     = 2_000   // players with attempts
	nextAttempts    = 120_000 // finished attempts, spread over the puzzles
	nextServed      = 32      // of those players, the ones with a session the benchmark uses
)

// BenchmarkNext serves GET /api/next through the real router and store on
// SQLite over an archive of 100,000 real, distinct puzzles (the standard
// collections) with 120,000 finished attempts of 2,000 players spread over
// them: for a visitor without a player, for players with a history (60
// attempts each), and for those players asking for a harder one. It
// reports the median and the 99th percentile of a request's time on a
// warm server (a few requests first, not timed).
//
// Building the archive is the setup, not what is measured: the puzzles
// are measured by the engine (both cores, about half a minute) and added
// by the store's bulk path; their grades are a stand-in, as in
// storetest.BuildArchive (1.0 to 9.5 from the backtracks and the id, every
// band), since grading the forum's hardest puzzles takes hours; the
// attempts and the model's figures they lead to are written straight into
// the file, as BenchmarkMe's are. SUDOKU_NEXT_ARCHIVE=path keeps the
// archive there and reuses it.
func BenchmarkNext(b *testing.B) {
	srv, cookies := nextServer(b, web.Config{})
	for _, tc := range []struct {
		name, query string
		cookies     []string
	}{
		{"newcomer", "", []string{""}},
		{"player", "", cookies},
		{"player-harder", "?harder=1", cookies},
	} {
		b.Run(tc.name, func(b *testing.B) {
			i := 0
			serve := func() time.Duration {
				req := httptest.NewRequest(http.MethodGet, "/api/next"+tc.query, nil)
				if c := tc.cookies[i%len(tc.cookies)]; c != "" {
					req.AddCookie(&http.Cookie{Name: "sudoku_session", Value: c})
				}
				i++
				rec := httptest.NewRecorder()
				t0 := time.Now()
				srv.ServeHTTP(rec, req)
				d := time.Since(t0)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", tc.name, rec.Code, rec.Body)
				}
				return d
			}
			// A warm server: the walks' statements prepared, the pages read.
			for range 2 * len(tc.cookies) {
				serve()
			}
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				times = append(times, serve())
			}
			slices.Sort(times)
			ms := func(q float64) float64 { return float64(times[int(q*float64(len(times)-1))]) / 1e6 }
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
		})
	}
}

// nextServer opens BenchmarkNext's archive (building it first unless
// SUDOKU_NEXT_ARCHIVE names one built already) and serves it; it returns
// the served players' cookies.
func nextServer(b *testing.B, cfg web.Config) (*web.Server, []string) {
	b.Helper()
	ctx := context.Background()
	path := os.Getenv("SUDOKU_NEXT_ARCHIVE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "next.db")
	}
	if _, err := os.Stat(path); err != nil {
		t0 := time.Now()
		buildNextArchive(b, path)
		b.Logf("built the archive in %v", time.Since(t0).Round(time.Millisecond))
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	secret, err := db.Secret(ctx)
	if err != nil {
		b.Fatal(err)
	}
	cookies := servedPlayers(b, db, path, secret)
	cfg.Logger, cfg.CSRFSecret = slog.New(slog.DiscardHandler), secret
	return web.New(web.AllParts(db), cfg), cookies
}

// BenchmarkRatingsPage serves GET /api/ratings and GET /ratings over
// BenchmarkNext's archive (about 12,000 classes with player_seconds, each
// read and ranked at every request: the server's reuse of the figures,
// Config.RatingsMaxAge, is turned off) and reports the median and the
// 99th percentile of a request's time.
func BenchmarkRatingsPage(b *testing.B) {
	srv, _ := nextServer(b, web.Config{RatingsMaxAge: -1})
	for _, path := range []string{"/api/ratings", "/ratings"} {
		b.Run(path, func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				rec := httptest.NewRecorder()
				t0 := time.Now()
				srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
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

// buildNextArchive measures every puzzle of the standard collections
// (100,291 lines, a few of them the same puzzle) and adds them, grades
// them with the stand-in and writes the attempts.
func buildNextArchive(b *testing.B, path string) {
	b.Helper()
	ctx := context.Background()
	var lines []string
	for _, c := range puzzletest.Collections {
		lines = append(lines, puzzletest.Lines(b, c, 0)...)
	}
	ps := ratePuzzles(b, lines)
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(ps); i += 10_000 {
		if _, err := db.AddMany(ctx, ps[i:min(i+10_000, len(ps))]); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	raw := rawSQLite(b, path)
	defer raw.Close()
	tx, err := raw.Begin()
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM puzzles").Scan(&n); err != nil || n < nextArchiveSize {
		b.Fatalf("the archive holds %d puzzles (%v), want %d", n, err, nextArchiveSize)
	}
	if _, err := tx.Exec("UPDATE puzzles SET grade = 10 + (backtracks*7 + id%11*9) % 86, technique = 'Stand-in', grade_version = ? WHERE solutions = 1", logic.Version); err != nil {
		b.Fatal(err)
	}
	writeAttempts(b, tx)
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// ratePuzzles measures lines (the first 81 characters each) on every core.
func ratePuzzles(b *testing.B, lines []string) []record.Puzzle {
	b.Helper()
	out := make([]record.Puzzle, len(lines))
	errs := make([]error, len(lines))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				g, err := sudoku.Parse(lines[i][:81])
				if err == nil {
					out[i], err = record.Rate(g, sudoku.Options{})
				}
				errs[i] = err
			}
		})
	}
	for i := range lines {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			b.Fatalf("line %d: %v", i, err)
		}
	}
	return out
}

func rawSQLite(b *testing.B, path string) *sql.DB {
	b.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=synchronous(OFF)")
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// writeAttempts writes nextAttempts finished attempts of nextPlayers
// players at random classes (the first entries of the graded ones), each
// a player's first at its class and counted, and the model's figures
// they lead to: each played class's row (its prior from the stand-in
// grade, moved towards its plays' times), plays, solves and the players'
// figures on the puzzles, and each player's skill. The setup, not what is
// measured.
func writeAttempts(b *testing.B, tx *sql.Tx) {
	b.Helper()
	var ids []int64
	rows, err := tx.Query("SELECT id FROM puzzles WHERE same_as IS NULL AND band IS NOT NULL ORDER BY id")
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	rng := rand.New(rand.NewPCG(27, 1))
	t0 := time.Now().Add(-30 * 24 * time.Hour).UnixNano()
	first := int64(0)
	for p := range nextPlayers {
		var id int64
		if err := tx.QueryRow("INSERT INTO players (created_at, skill, rated) VALUES (?, ?, ?) RETURNING id",
			t0, math.Exp(rng.NormFloat64()*0.5), nextAttempts/nextPlayers).Scan(&id); err != nil {
			b.Fatal(err)
		}
		if p == 0 {
			first = id
		}
	}
	ins, err := tx.Prepare("INSERT INTO attempts (player_id, puzzle_id, class_key, started_at, finished_at, outcome, seconds, first, counted) " +
		"SELECT ?, id, coalesce(canonical_key, givens_key), ?, ?, ?, ?, 1, 1 FROM puzzles WHERE id = ?")
	if err != nil {
		b.Fatal(err)
	}
	defer ins.Close()
	seen := map[[2]int64]bool{}
	for i := 0; i < nextAttempts; {
		player, pz := first+int64(i%nextPlayers), ids[rng.IntN(len(ids))]
		if seen[[2]int64{player, pz}] {
			continue
		}
		seen[[2]int64{player, pz}] = true
		secs := int64(60 + rng.IntN(3000))
		outcome := "solved"
		if rng.IntN(10) == 0 {
			outcome = "gave_up"
		}
		at := t0 + int64(i)*int64(time.Second)
		if _, err := ins.Exec(player, at, at+secs*int64(time.Second), outcome, secs, pz); err != nil {
			b.Fatal(err)
		}
		i++
	}
	p := ratings.DefaultPrior
	for _, q := range []string{
		fmt.Sprintf(`INSERT INTO class_ratings (class_key, plays, solves, difficulty, weight, prior)
			SELECT a.class_key, count(*), sum(a.outcome = 'solved'),
				(2 * (%[1]g + %[2]g * max(z.grade) / 10.0) + sum(ln(a.seconds))) / (2 + count(*)), 2 + count(*), %[1]g + %[2]g * max(z.grade) / 10.0
			FROM attempts a JOIN puzzles z ON z.id = a.puzzle_id GROUP BY a.class_key`, p.Alpha, p.Beta),
		`UPDATE puzzles SET player_seconds = CASE WHEN c.plays >= ` + fmt.Sprint(ratings.MinPlays) + ` THEN CAST(round(exp(c.difficulty)) AS INTEGER) ELSE 0 END
			FROM class_ratings c WHERE c.class_key = coalesce(puzzles.canonical_key, puzzles.givens_key)`,
		// The figures' table (migration 00022); the benchmarks read no median.
		`INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
			SELECT puzzles.id, c.plays, c.solves, 0 FROM puzzles JOIN class_ratings c ON c.class_key = coalesce(puzzles.canonical_key, puzzles.givens_key)
			WHERE c.plays > 0`,
	} {
		if _, err := tx.Exec(q); err != nil {
			b.Fatalf("%v: %s", err, q)
		}
	}
}

// servedPlayers gives the first nextServed players of the archive a
// session each and returns their cookies.
func servedPlayers(b *testing.B, db *store.DB, path string, secret []byte) []string {
	b.Helper()
	signer := account.NewSigner(secret)
	raw := rawSQLite(b, path)
	defer raw.Close()
	var cookies []string
	rows, err := raw.Query("SELECT id FROM players WHERE rated > 0 ORDER BY id LIMIT ?", nextServed)
	if err != nil {
		b.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		cookie, session := signer.NewSession()
		if err := db.StartSession(context.Background(), id, nil, session, time.Now().Add(time.Hour)); err != nil {
			b.Fatal(err)
		}
		cookies = append(cookies, cookie)
	}
	if len(cookies) == 0 {
		b.Fatal("no player to serve")
	}
	return cookies
}
