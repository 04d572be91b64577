// Package archive is the one owner of every multi-step pipeline into the
// archive and of its background jobs: Submit (every road a puzzle comes in
// by: the API, the form, a collection's add, generate, the puzzle of the
// day, `sudoku import`, `attempts import`, `generate --archive`), the
// search gate and its budgets, the setter's background grades, the trace
// cache, the next puzzle's aim, practice boards, the ratings figures, and
// the start and stop of the graders and the daily keeper (docs/pipelines.md).
//
// It imports no echo, no database/sql and no store: it declares the store
// interfaces it needs (Store), and cmd/sudoku passes a *store.DB. Reads of
// one call and no policy stay direct store calls of their callers.
package archive

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/daily"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Store is what the archive's pipelines need of the puzzle store
// (store.DB). The value is also handed on to bulk's pipelines, which look
// for its optional parts (bulk.Adder, bulk.PartAdder, bulk.Moderated).
type Store interface {
	// Submit archives p (givens already solved and measured), or bumps
	// the submission count of its givens archived already (duplicate).
	// It returns once the change is durably committed.
	Submit(ctx context.Context, p record.Puzzle) (stored record.Puzzle, duplicate bool, err error)
	// SubmitMany archives ps in one durable transaction, like Submit for
	// each.
	SubmitMany(ctx context.Context, ps []record.Puzzle) (duplicate []bool, err error)
	// The puzzle of the day's reads, record and secret (daily.Archive
	// without Submit, which goes through the archive's road).
	daily.Reader
	SetDaily(ctx context.Context, date string, p record.Puzzle) (record.Puzzle, error)
	DailySecret(ctx context.Context) ([]byte, error)
	// ByCanonical returns the first archived puzzle whose canonical form
	// is c, or record.ErrNotFound (the setter's analysis, the keeper).
	ByCanonical(ctx context.Context, c sudoku.Grid) (record.Puzzle, error)
}

// Options are the archive's parts and budgets, by name. Store is required;
// the zero value of every other field is usable.
type Options struct {
	Store Store
	// Graders grade the puzzles archived, after they are acknowledged;
	// Submit wakes them. nil: the archive is graded elsewhere.
	Graders *bulk.Graders
	// RunGraders makes Start run Graders (serve); false leaves running
	// them to the caller, or to another process.
	RunGraders bool
	// MaxNodes is the node budget of every search (see sudoku.Options);
	// 0 means DefaultMaxNodes.
	MaxNodes int64
	// SearchSlots is how many searches run at once over all callers; 0
	// means one less than the cores (at least one).
	SearchSlots int
	// SearchQueueTimeout bounds the wait for a search slot (in either
	// lane); 0 means DefaultSearchQueueTimeout.
	SearchQueueTimeout time.Duration
	// ReadSlots is how many searches of reads run at once (the read lane,
	// lanes.go); 0 means DefaultReadSlots. ReadsPerClient is how many
	// turns or places in its queue one client holds; 0 means
	// DefaultReadsPerClient.
	ReadSlots, ReadsPerClient int
	// Rated gives the ratings figures their puzzles (*store.DB); nil: the
	// archive keeps no players' figures (Ratings: ErrNoRatings).
	Rated RatedStore
	// RatingsMaxAge is how old the ratings figures may be before they are
	// computed again; 0 means DefaultRatingsMaxAge, a negative value
	// computes them at every call.
	RatingsMaxAge time.Duration
	// Techniques gives practice boards their puzzles (*store.DB); nil:
	// the archive keeps no technique index.
	Techniques TechniqueStore
	// Leveller gives the next puzzle's aim the players' figures
	// (*store.DB); nil: the archive keeps none.
	Leveller Leveller
	// NoDaily leaves choosing the puzzles of the day ahead to another
	// server (daily.Keeper.OnDemand).
	NoDaily bool
	// Log receives what background jobs report; nil means slog.Default().
	Log *slog.Logger
}

// Archive owns the pipelines into the archive and its background jobs.
type Archive struct {
	store   Store
	graders *bulk.Graders
	run     bool // Start runs the graders
	log     *slog.Logger
	search  *Gate
	reads   *readLane // the searches of reads (lanes.go)
	budget  int64
	dailies *daily.Keeper
	counts  map[Road]*[2]atomic.Int64 // new, duplicate

	// bg is the context of the background jobs a request starts (the
	// setter's grades); Stop cancels it and waits for them.
	bg       context.Context
	stopBg   context.CancelFunc
	jobs     sync.WaitGroup
	setter   setterGrades
	traces   *flightCache[[]byte]
	explains *flightCache[Explanation] // explain.go
	practice practiceCache             // practice.go

	rated         RatedStore
	techniques    TechniqueStore
	leveller      Leveller
	ratingsMaxAge time.Duration
	ratings       ratingsCache
}

// New returns the archive over o.Store with o's budgets.
func New(o Options) *Archive {
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.SearchSlots <= 0 {
		o.SearchSlots = max(1, runtime.GOMAXPROCS(0)-1)
	}
	if o.SearchQueueTimeout <= 0 {
		o.SearchQueueTimeout = DefaultSearchQueueTimeout
	}
	if o.ReadSlots <= 0 {
		o.ReadSlots = DefaultReadSlots
	}
	if o.ReadsPerClient <= 0 {
		o.ReadsPerClient = DefaultReadsPerClient
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.RatingsMaxAge == 0 {
		o.RatingsMaxAge = DefaultRatingsMaxAge
	}
	a := &Archive{
		store: o.Store, graders: o.Graders, run: o.RunGraders, log: o.Log,
		search: NewGate(o.SearchSlots, o.SearchQueueTimeout), budget: o.MaxNodes,
		reads:    newReadLane(NewGate(o.ReadSlots, o.SearchQueueTimeout), o.ReadsPerClient),
		counts:   map[Road]*[2]atomic.Int64{},
		traces:   newFlightCache(traceCacheBytes, func(gz []byte) int { return len(gz) }),
		explains: newFlightCache(explainCacheBytes, Explanation.size),
		rated:    o.Rated, ratingsMaxAge: o.RatingsMaxAge, techniques: o.Techniques,
		leveller: o.Leveller,
	}
	for _, r := range Roads {
		a.counts[r] = new([2]atomic.Int64)
	}
	a.bg, a.stopBg = context.WithCancel(context.Background())
	a.dailies = &daily.Keeper{Archive: dailyRoad{o.Store, a}, Slot: a.Searching, Log: o.Log, OnDemand: o.NoDaily}
	return a
}

// Store returns the store the archive was made over, for the reads of
// one call that need no pipeline.
func (a *Archive) Store() Store { return a.store }

// Graders returns the graders Submit wakes, nil when there are none.
func (a *Archive) Graders() *bulk.Graders { return a.graders }

// Dailies returns the keeper of the puzzles of the day (Start runs it).
func (a *Archive) Dailies() *daily.Keeper { return a.dailies }

// Start runs the archive's background jobs until ctx is done: the keeper
// of the puzzles of the day, the warming of the practice boards, and with
// Options.RunGraders the graders. It
// returns a function that stops them (once ctx is done) and waits for
// them, and for the setter's background grades, to end: nothing runs on
// the store after it returns.
func (a *Archive) Start(ctx context.Context) (wait func()) {
	kept := a.dailies.Start(ctx)
	a.jobs.Add(1)
	go func() {
		defer a.jobs.Done()
		// The boards of the puzzles graded before this start, in the
		// background: a request for practice never walks a path.
		a.warmPractice(a.bg)
	}()
	graded := make(chan struct{})
	if a.run && a.graders != nil {
		go func() {
			defer close(graded)
			_ = a.graders.Run(ctx)
		}()
	} else {
		close(graded)
	}
	return func() {
		kept()
		<-graded
		a.Stop()
	}
}

// Stop cancels the setter's background grades and waits for them.
func (a *Archive) Stop() {
	a.stopBg()
	a.jobs.Wait()
}

// wake wakes the graders after puzzles were archived, so a new puzzle's
// grade follows at once when the cores are idle.
func (a *Archive) wake() {
	if a.graders != nil {
		a.graders.Wake()
	}
}

// dailyRoad is the store as the daily keeper sees it: its Submit is the
// archive's road "daily" (counted, the graders woken).
type dailyRoad struct {
	Store
	a *Archive
}

func (d dailyRoad) Submit(ctx context.Context, p record.Puzzle) (record.Puzzle, bool, error) {
	return d.a.SubmitRated(ctx, RoadDaily, p)
}

// errArchive wraps a store's error of archiving g.
func errArchive(g sudoku.Grid, err error) error {
	return fmt.Errorf("archive puzzle %s: %w", g, err)
}
