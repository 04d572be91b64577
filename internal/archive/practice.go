package archive

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TechniqueStore is what practice boards need of the store (*store.DB
// provides it): the technique index.
type TechniqueStore interface {
	// UsingTechnique returns up to limit puzzles whose path uses name.
	UsingTechnique(ctx context.Context, name string, limit int) ([]record.Puzzle, error)
}

// ErrNoTechniques is PracticeBoards on an archive whose store keeps no
// technique index (Options.Techniques nil).
var ErrNoTechniques = errors.New("this archive keeps no technique index")

// ErrPracticePending is a request for practice boards none of which is
// ready yet: their puzzles' paths are being walked (a 503 with
// Retry-After).
var ErrPracticePending error = practicePending{}

type practicePending struct{}

func (practicePending) Error() string {
	return "overloaded: the practice boards of this technique are being prepared; try again in a moment"
}
func (practicePending) Kind() record.Kind { return record.KindOverloaded }

// Practice boards come from a cache (issue 45): a request never walks a
// path. The graders record, as they grade a puzzle, the board before the
// first step of each technique of its path (GradeDeep), and so does an
// explanation; the puzzles a request finds in the technique index with no
// board yet (archived before this server started, or graded elsewhere)
// are handed to one background walker, in the read lane, and the request
// waits at most practiceWait for them before answering with the boards
// ready.
const (
	// MaxPracticeBoards is the most boards of a technique practice
	// offers: a request's limit, and the positions of the practice page.
	MaxPracticeBoards = 20
	// practiceList is how many puzzles using a technique are read from
	// the index: twice the boards offered, so that a hidden puzzle, or
	// one whose path no longer uses the technique, leaves enough.
	practiceList = 2 * MaxPracticeBoards
	// practiceKeep bounds the boards the graders record of a technique
	// (about a kilobyte each): the walker adds those asked for.
	practiceKeep = 64
	// practiceWait is how long a request waits for the walker.
	practiceWait = 2 * time.Second
	// practiceQueue bounds the puzzles waiting for the walker.
	practiceQueue = 1024
)

// PracticeBoard is a board at which a technique is the next step, and the
// puzzle it comes from.
type PracticeBoard struct {
	Puzzle record.Puzzle
	logic.Position
}

// practiceCache holds the practice boards: for each technique, the board
// of each puzzle whose path uses it, by puzzle id.
type practiceCache struct {
	mu      sync.Mutex
	boards  map[string]map[int64]logic.Position
	done    map[int64]bool // puzzles the walker has walked (boards or none)
	queue   []practiceJob
	queued  map[int64]bool
	running bool
	changed chan struct{} // closed, and replaced, when boards are added
}

// practiceJob is a puzzle for the walker, the technique it is wanted for
// (its board is kept whatever the bound), and whether a request waits for
// it (else it is the warming's, which takes only idle cores).
type practiceJob struct {
	p         record.Puzzle
	technique string
	asked     bool
}

// init makes the maps on first use.
func (pc *practiceCache) init() {
	if pc.boards == nil {
		pc.boards = map[string]map[int64]logic.Position{}
		pc.done = map[int64]bool{}
		pc.queued = map[int64]bool{}
		pc.changed = make(chan struct{})
	}
}

// walked records the positions of puzzle id's path: each technique's
// board while the technique has fewer than practiceKeep, and want's
// whatever the bound ("" for none).
func (pc *practiceCache) walked(id int64, path []logic.PathPosition, want string) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.init()
	added := false
	for _, pp := range path {
		m := pc.boards[pp.Technique]
		if m == nil {
			m = map[int64]logic.Position{}
			pc.boards[pp.Technique] = m
		}
		if _, ok := m[id]; ok || len(m) < practiceKeep || pp.Technique == want {
			m[id] = pp.Position
			added = true
		}
	}
	if want != "" {
		if len(pc.done) > 64*practiceQueue {
			clear(pc.done) // bounded: the walker walks again what it forgot
		}
		pc.done[id] = true
	}
	if added {
		close(pc.changed)
		pc.changed = make(chan struct{})
	}
}

// collect returns the boards of technique name among ps (the index's
// list, in order) from the skip-th on, up to limit; the puzzles before
// the last of those that have not been walked yet (missing); and the
// channel closed at the next change.
func (pc *practiceCache) collect(name string, ps []record.Puzzle, skip, limit int) (out []PracticeBoard, missing []record.Puzzle, changed <-chan struct{}) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.init()
	m := pc.boards[name]
	n := 0
	for _, p := range ps {
		if n == skip+limit {
			break
		}
		pos, ok := m[p.ID]
		switch {
		case ok:
			if n >= skip {
				out = append(out, PracticeBoard{p, pos})
			}
			n++
		case p.Unique && !pc.done[p.ID]:
			missing = append(missing, p)
		}
	}
	return out, missing, pc.changed
}

// want queues ps for the walker, wanted for technique name: ahead of the
// others when a request waits for them (first), else behind (the warming
// at start). It reports whether a walker should be started.
func (pc *practiceCache) want(name string, ps []record.Puzzle, first bool) (start bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.init()
	var jobs []practiceJob
	for _, p := range ps {
		switch {
		case pc.queued[p.ID] && first:
			// Queued by the warming: a request now waits for it.
			pc.queue = slices.DeleteFunc(pc.queue, func(j practiceJob) bool { return j.p.ID == p.ID })
			jobs = append(jobs, practiceJob{p, name, true})
		case !pc.queued[p.ID] && len(pc.queue)+len(jobs) < practiceQueue:
			pc.queued[p.ID] = true
			jobs = append(jobs, practiceJob{p, name, first})
		}
	}
	if first {
		pc.queue = append(jobs, pc.queue...)
	} else {
		pc.queue = append(pc.queue, jobs...)
	}
	if pc.running || len(pc.queue) == 0 {
		return false
	}
	pc.running = true
	return true
}

// next takes the walker's next job; false when none is left (the walker
// then ends).
func (pc *practiceCache) next() (practiceJob, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if len(pc.queue) == 0 {
		pc.running = false
		return practiceJob{}, false
	}
	j := pc.queue[0]
	pc.queue = pc.queue[1:]
	delete(pc.queued, j.p.ID)
	return j, true
}

// stop lets the queue go and marks the walker ended: the archive stops.
func (pc *practiceCache) stop() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.queue, pc.running = nil, false
	clear(pc.queued)
}

// PracticeBoards returns up to limit boards of technique t, one a puzzle,
// from the skip-th on (GET /api/techniques/{slug}/practice, the practice
// page), from the practice cache: it never walks a path itself. When
// boards before the last asked are not ready, it has the walker prepare
// them and waits at most practiceWait (or ctx), then answers the boards
// ready; none ready while some are being prepared is ErrPracticePending.
func (a *Archive) PracticeBoards(ctx context.Context, t logic.Technique, skip, limit int) ([]PracticeBoard, error) {
	if a.techniques == nil {
		return nil, ErrNoTechniques
	}
	limit = min(limit, MaxPracticeBoards-skip)
	if limit <= 0 {
		return nil, nil
	}
	puzzles, err := a.techniques.UsingTechnique(ctx, t.Name, practiceList)
	if err != nil {
		return nil, fmt.Errorf("puzzles using %s: %w", t.Name, err)
	}
	timer := time.NewTimer(practiceWait)
	defer timer.Stop()
	for {
		out, missing, changed := a.practice.collect(t.Name, puzzles, skip, limit)
		if len(missing) == 0 {
			return out, nil
		}
		if a.practice.want(t.Name, missing, true) {
			a.startWalker()
		}
		select {
		case <-changed:
			continue
		case <-timer.C:
		case <-ctx.Done():
		case <-a.bg.Done(): // stopped: no walker will come
		}
		if len(out) == 0 {
			return nil, ErrPracticePending
		}
		return out, nil
	}
}

// PracticeCount returns how many boards of technique t practice offers
// now, at most MaxPracticeBoards (the technique's page says so, and
// offers practice only when there are some): what PracticeBoards finds.
func (a *Archive) PracticeCount(ctx context.Context, t logic.Technique) (int, error) {
	ps, err := a.PracticeBoards(ctx, t, 0, MaxPracticeBoards)
	if errors.Is(err, ErrPracticePending) || errors.Is(err, ErrNoTechniques) {
		return 0, nil // none ready, or no index: no practice offered
	}
	return len(ps), err
}

// warmPractice has the walker prepare, behind the requests' puzzles, the
// boards of every technique that the graders of this process did not
// record: the puzzles graded before the start (Start runs it).
func (a *Archive) warmPractice(ctx context.Context) {
	if a.techniques == nil {
		return
	}
	for _, t := range logic.Techniques() {
		ps, err := a.techniques.UsingTechnique(ctx, t.Name, practiceList)
		if err != nil {
			if ctx.Err() == nil {
				a.log.Warn("practice boards: reading the technique index", "technique", t.Name, "err", err)
			}
			return
		}
		_, missing, _ := a.practice.collect(t.Name, ps, 0, MaxPracticeBoards)
		if a.practice.want(t.Name, missing, false) {
			a.startWalker()
		}
	}
}

// PracticeWalking reports whether the walker has puzzles in hand or
// queued: while it has, the boards practice offers may grow.
func (a *Archive) PracticeWalking() bool {
	a.practice.mu.Lock()
	defer a.practice.mu.Unlock()
	return a.practice.running || len(a.practice.queue) > 0
}

// startWalker runs the walker of the practice cache's queue, unless the
// archive is stopping.
func (a *Archive) startWalker() {
	if a.bg.Err() != nil {
		a.practice.stop()
		return
	}
	a.jobs.Add(1)
	go func() {
		defer a.jobs.Done()
		a.walkPractice()
	}()
}

// practiceReader is the walker's name in the read lane.
const practiceReader = "archive: practice boards"

// walkPractice walks the queued puzzles' paths, one at a time in the read
// lane, and records their boards, until the queue is empty or the archive
// stops.
func (a *Archive) walkPractice() {
	ctx := ForReader(a.bg, practiceReader)
	for {
		j, ok := a.practice.next()
		if !ok {
			return
		}
		path, err := a.walkOne(ctx, j)
		switch {
		case err == nil:
			a.practice.walked(j.p.ID, path, j.technique)
		case a.bg.Err() != nil:
			a.practice.stop()
			return
		default:
			// Left unwalked: the next request asks again.
			a.log.Debug("practice boards", "puzzle", j.p.ID, "err", err)
		}
	}
}

// walkOne walks j's puzzle's path in a turn of the read lane; the
// warming's jobs first wait for the cores requests leave idle, counted as
// a grader (bulk.Activity), when the archive has graders.
func (a *Archive) walkOne(ctx context.Context, j practiceJob) ([]logic.PathPosition, error) {
	if !j.asked && a.graders != nil && a.graders.Gate != nil {
		end, err := a.graders.Gate.Turn(ctx)
		if err != nil {
			return nil, err
		}
		defer end()
	}
	var path []logic.PathPosition
	err := a.Searching(ctx, func() error {
		var err error
		_, path, err = logic.ExplainContext(ctx, j.p)
		return err
	})
	return path, err
}

// GradeDeep grades p as logic.GradeDeep does, for the graders
// (bulk.Graders.GradeCtx), and records the practice boards of its path.
func (a *Archive) GradeDeep(ctx context.Context, p *record.Puzzle) bool {
	ok, path := logic.GradeDeepPositions(ctx, p)
	if ok && p.ID != 0 {
		a.practice.walked(p.ID, path, "")
	}
	return ok
}
