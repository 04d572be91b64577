package bulk

import (
	"context"
	"log/slog"
	"math"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// StaleGrades is what Regrader needs of the archive: the rows graded by
// another solver version, and a way to store their new grades (store.DB).
type StaleGrades interface {
	CountStaleGrades(ctx context.Context, version string) (int64, error)
	StaleGrades(ctx context.Context, version string, after int64, n int) ([]record.Puzzle, error)
	LastID(ctx context.Context) (int64, error)
	SetGrades(ctx context.Context, ps []record.Puzzle) error
}

// staleQueue shows the rows graded by another solver version as a grading
// queue, so that the graders' pipeline (Graders.Drain) grades them again.
type staleQueue struct {
	db      StaleGrades
	version string
}

func (q staleQueue) CountUngraded(ctx context.Context) (int64, error) {
	return q.db.CountStaleGrades(ctx, q.version)
}

func (q staleQueue) LastID(ctx context.Context) (int64, error) { return q.db.LastID(ctx) }

func (q staleQueue) Ungraded(ctx context.Context, after int64, n int) ([]record.Puzzle, error) {
	return q.db.StaleGrades(ctx, q.version, after, n)
}

func (q staleQueue) SetGrades(ctx context.Context, ps []record.Puzzle) error {
	return q.db.SetGrades(ctx, ps)
}

// Regrader grades again, in the background, the rows an older solver
// version graded, after an upgrade that brought a new one: each row keeps
// its old grade (and so its band, its place in the band lists and the
// technique index) until its new grade is committed over it. It runs the
// graders' pipeline over those rows, behind the same gate (Gate), so it
// takes only the cores requests leave idle, and logs its progress every
// Every: done, left, the rate.
type Regrader struct {
	DB       StaleGrades
	Version  string // the current solver version (logic.Version)
	Grade    func(*record.Puzzle)
	GradeCtx func(context.Context, *record.Puzzle) bool
	Workers  int
	Gate     *Activity
	Log      *slog.Logger
	Every    time.Duration // between two progress lines; 0 means 30 s
	// Retry is the pause after a failed pass before the next; 0 means 10 s.
	Retry time.Duration
}

// Run grades again every row graded by another solver version than
// r.Version, until none is left or ctx is done, and returns how many it
// graded. A failed pass (the archive refusing writes) is logged and
// tried again after r.Retry; rows already graded stay graded.
func (r *Regrader) Run(ctx context.Context) (int64, error) {
	total, err := r.DB.CountStaleGrades(ctx, r.Version)
	if err != nil || total == 0 {
		return 0, err
	}
	log := r.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log.Info("regrading the puzzles an older solver graded: each keeps its old grade, and its band, until the new one is committed",
		slog.Int64("puzzles", total), slog.String("solver", r.Version))
	g := &Graders{DB: staleQueue{r.DB, r.Version}, Grade: r.Grade, GradeCtx: r.GradeCtx, Workers: r.Workers, Gate: r.Gate,
		OnError: func(err error) { log.Warn("regrade paused", slog.Any("err", err)) }}
	start := time.Now()
	stop := r.progress(g, total, log)
	defer stop()
	for {
		_, err := g.Drain(ctx)
		if ctx.Err() != nil {
			log.Info("regrade stopped: the next start goes on with the rest", slog.Int64("done", g.Graded()), slog.Int64("left", max(total-g.Graded(), 0)))
			return g.Graded(), ctx.Err()
		}
		if err == nil {
			break
		}
		log.Warn("regrade failed: trying again", slog.Any("err", err), slog.Duration("retry_in", r.retry()))
		sleep(ctx, r.retry())
	}
	took := time.Since(start)
	log.Info("regrade done", slog.Int64("puzzles", g.Graded()), seconds(took), perSecond(g.Graded(), took))
	return g.Graded(), nil
}

func (r *Regrader) retry() time.Duration {
	if r.Retry > 0 {
		return r.Retry
	}
	return 10 * time.Second
}

// progress logs a line every r.Every while g regrades: done, left, the
// rate since the last line and the time left at it. It returns the
// function that stops it.
func (r *Regrader) progress(g *Graders, total int64, log *slog.Logger) (stop func()) {
	every := r.Every
	if every <= 0 {
		every = 30 * time.Second
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(every)
		defer t.Stop()
		last, at := int64(0), time.Now()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				n := g.Graded()
				left := max(total-n, 0)
				rate := float64(n-last) / now.Sub(at).Seconds()
				attrs := []any{slog.Int64("done", n), slog.Int64("left", left), slog.Float64("per_second", math.Round(rate*10)/10)}
				if rate > 0 {
					attrs = append(attrs, slog.Duration("eta", time.Duration(float64(left)/rate*float64(time.Second)).Round(time.Second)))
				}
				log.Info("regrading", attrs...)
				last, at = n, now
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// seconds is d as the attribute "seconds", to the millisecond.
func seconds(d time.Duration) slog.Attr {
	return slog.Float64("seconds", math.Round(d.Seconds()*1000)/1000)
}

// perSecond is n in d as the attribute "per_second", to a tenth.
func perSecond(n int64, d time.Duration) slog.Attr {
	return slog.Float64("per_second", math.Round(float64(n)/d.Seconds()*10)/10)
}
