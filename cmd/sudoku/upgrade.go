package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// upgradeNodes is the node budget of a puzzle measured again on upgrade: the
// row was accepted under an older engine, and the upgrade runs offline, so
// it gets far more room than a request before it keeps its old measures.
const upgradeNodes = 100_000_000

// openArchive opens the database at path and brings its rows up to date
// before anything else uses it: rows measured by an older engine are rated
// again (their canonical form, and measures that do not depend on how the
// puzzle is written), page by page, with a progress bar on a terminal. The
// pass is interrupted by ctx and resumes where it stopped on the next start:
// every row keeps its old values until its new ones are committed. Grades
// given by an older solver are not withdrawn here: serve grades them again
// in the background, over the old ones (regradeInBackground).
func openArchive(ctx context.Context, e *env, path string) (*store.DB, error) {
	e.startPhase("opening the database")
	// HoldStartup: on PostgreSQL, a server starting beside this one waits
	// until the techniques are indexed and the rows measured again here,
	// instead of doing the same writes at once and failing on their locks.
	db, err := store.OpenWith(ctx, path, store.OpenOptions{Logger: e.log(), HoldStartup: true,
		ForceMigrate: e.forceMigrate || envTrue(e, "SUDOKU_FORCE_MIGRATE"), Migrating: e.migratingPhase})
	if err != nil {
		return nil, err
	}
	defer db.EndStartup()
	if err := indexTechniques(ctx, e, db, path); err != nil {
		db.Close()
		return nil, err
	}
	stale, err := db.CountStale(ctx)
	if err != nil || stale == 0 {
		if err != nil {
			db.Close()
		}
		return db, err
	}
	e.say(fmt.Sprintf("upgrading %s: measuring %d puzzles with engine %s (interrupt at any time; the next start resumes)",
		store.Redact(path), stale, sudoku.EngineVersion),
		"measuring puzzles with a newer engine (interrupt at any time; the next start resumes)",
		slog.String("db", store.Redact(path)), slog.Int64("puzzles", stale), slog.String("engine", sudoku.EngineVersion))
	bar := newCountBar(e.stderr, "measuring")
	start := time.Now()
	progress := e.phaseProgress("measuring the puzzles again with a newer engine", bar.set)
	progress(0, stale)
	n, err := bulk.Remeasure(ctx, db, sudoku.Options{MaxNodes: upgradeNodes, Done: ctx.Done()}, bulk.PassOptions{Progress: progress})
	bar.finish()
	if err != nil && ctx.Err() != nil {
		db.Close()
		return nil, fmt.Errorf("upgrade interrupted after %d of %d puzzles: start again to resume", n, stale)
	}
	if err != nil {
		// Rows the engine cannot rate keep their old measures: report them,
		// but the archive is usable.
		e.say(fmt.Sprintf("upgrade: %v", err), "upgrade: some puzzles keep their old measures", slog.Any("err", err))
	}
	e.say(fmt.Sprintf("upgraded %d puzzles in %.1fs", n, time.Since(start).Seconds()),
		"puzzles measured again", slog.Int64("puzzles", n), slog.Float64("seconds", roundMS(time.Since(start))))
	return db, nil
}

// indexTechniques indexes the techniques of the rows graded before
// migration 00017 (search by technique), with a progress bar on a
// terminal; interrupted, the next start resumes.
func indexTechniques(ctx context.Context, e *env, db *store.DB, path string) error {
	todo, err := db.TechniquesToIndex(ctx)
	if err != nil || todo == 0 {
		return err
	}
	e.say(fmt.Sprintf("upgrading %s: indexing the techniques of %d puzzles (interrupt at any time; the next start resumes)", store.Redact(path), todo),
		"indexing the techniques of puzzles graded before (interrupt at any time; the next start resumes)",
		slog.String("db", store.Redact(path)), slog.Int64("puzzles", todo))
	bar := newCountBar(e.stderr, "indexing")
	start := time.Now()
	progress := e.phaseProgress("indexing the techniques of the puzzles graded before", bar.set)
	progress(0, todo)
	n, err := db.IndexTechniques(ctx, progress)
	bar.finish()
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("upgrade interrupted after indexing %d of %d puzzles: start again to resume", n, todo)
	}
	if err != nil {
		return err
	}
	e.say(fmt.Sprintf("indexed the techniques of %d puzzles in %.1fs", n, time.Since(start).Seconds()),
		"techniques indexed", slog.Int64("puzzles", n), slog.Float64("seconds", roundMS(time.Since(start))))
	return nil
}

// migratingPhase tells serve's port that the schema migrates (store's
// OpenOptions.Migrating), then runs the tests' hook.
func (e *env) migratingPhase(from, to int64) {
	if from == 0 {
		e.startPhase("creating the database schema")
	} else {
		e.startPhase(fmt.Sprintf("migrating the database schema from %d to %d", from, to))
	}
	if e.migrating != nil {
		e.migrating(from, to)
	}
}

// phaseProgress returns the progress function of an upgrade pass: it
// tells serve's port how far the pass is ("what: 1200 of 35000 puzzles"),
// and hands the count on to next (a progress bar).
func (e *env) phaseProgress(what string, next func(done, total int64)) func(done, total int64) {
	return func(done, total int64) {
		e.startPhase(fmt.Sprintf("%s: %d of %d puzzles", what, done, total))
		next(done, total)
	}
}

// log is where opening the archive reports (its migrations): serve's
// logger, else plain text lines on stderr.
func (e *env) log() *slog.Logger {
	if e.logger != nil {
		return e.logger
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{} // a command's lines need no time
			}
			return a
		},
	}))
}

// say reports one step of an upgrade: as the line plain on stderr for a
// command, as msg with attrs through serve's logger (its --log-format).
func (e *env) say(plain, msg string, attrs ...any) {
	if e.logger != nil {
		e.logger.Info(msg, attrs...)
		return
	}
	fmt.Fprintln(e.stderr, plain)
}

// envTrue reports whether the environment variable name says true (1,
// t, true, ...: strconv.ParseBool).
func envTrue(e *env, name string) bool {
	b, _ := strconv.ParseBool(e.getenv(name))
	return b
}

// roundMS is d in seconds, to the millisecond.
func roundMS(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }

// newGraders returns the server's grading pipeline over db: workers
// graders behind a gate that gives them only the cores requests leave idle.
func newGraders(db *store.DB, workers int, log *slog.Logger) *bulk.Graders {
	return &bulk.Graders{
		DB: db, Grade: logic.GradePuzzle, GradeCtx: logic.GradeDeep, Workers: workers, Gate: bulk.NewActivity(),
		// Once per back-off: the graders wait, then try again.
		OnError: func(err error) { log.Warn("grading paused", slog.Any("err", err)) },
	}
}

// regradeEvery is how often the background regrade logs its progress.
const regradeEvery = 30 * time.Second

// regradeInBackground grades again, beside the graders g and behind their
// gate, the rows an older solver graded (bulk.Regrader: each keeps its old
// grade until the new one is committed), logging its progress; the
// returned function stops it and waits for it.
func regradeInBackground(ctx context.Context, db *store.DB, g *bulk.Graders, every time.Duration, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	r := &bulk.Regrader{DB: db, Version: logic.Version, Grade: logic.GradePuzzle, GradeCtx: logic.GradeDeep,
		Workers: g.WorkerCount(), Gate: g.Gate, Log: log, Every: every}
	go func() {
		defer close(done)
		if _, err := r.Run(ctx); err != nil && ctx.Err() == nil {
			log.Warn("regrade", slog.Any("err", err))
		}
	}()
	return func() { cancel(); <-done }
}

// countBar is a progress bar over a count (of puzzles, of rows), shown
// only when its writer is a terminal; a nil *countBar does nothing. Its
// rate is always per second, counted from its start (progressbar's own
// jumped from "0 puzzles/hr" to "1518 puzzles/s"), and it ends with a
// line that stays: what was done, how many, in what time.
type countBar struct {
	bar          *progressbar.ProgressBar
	w            io.Writer
	what, units  string
	start        time.Time
	done         int64
	lastDescribe time.Time
}

// newCountBar is the bar of a count of puzzles, described by what.
func newCountBar(w io.Writer, what string) *countBar { return newUnitBar(w, what, "puzzles") }

// newUnitBar is the bar of a count of units ("rows" for sudoku copy,
// which counts the rows of every table), described by what: nil unless w
// is a terminal.
func newUnitBar(w io.Writer, what, units string) *countBar {
	if !isTerminal(w) {
		return nil
	}
	return countBarTo(w, what, units)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// countBarTo is the bar, written to w whatever it is.
func countBarTo(w io.Writer, what, units string) *countBar {
	return &countBar{bar: progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	), w: w, what: what, units: units, start: time.Now()}
}

// rate is the units per second since the bar began.
func (b *countBar) rate() float64 {
	s := time.Since(b.start).Seconds()
	if s < 0.001 {
		return 0
	}
	return float64(b.done) / s
}

func (b *countBar) set(done, total int64) {
	if b == nil {
		return
	}
	b.done = done
	if b.bar.GetMax64() != total {
		b.bar.ChangeMax64(total)
	}
	if time.Since(b.lastDescribe) >= 100*time.Millisecond || done == total {
		b.lastDescribe = time.Now()
		b.bar.Describe(fmt.Sprintf("%s (%.0f %s/s)", b.what, b.rate(), b.units))
	}
	_ = b.bar.Set64(done)
}

// finish clears the bar and leaves its final line: "grading: 400 puzzles
// in 2.31s (173 puzzles/s)".
func (b *countBar) finish() {
	if b == nil {
		return
	}
	_ = b.bar.Finish()
	_ = b.bar.Clear()
	fmt.Fprintf(b.w, "\r%s: %d %s in %.2fs (%.0f %s/s)\n", b.what, b.done, b.units, time.Since(b.start).Seconds(), b.rate(), b.units)
}
