package archive

import (
	"context"
	"errors"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletext"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// Road is the way a puzzle came into the archive: the label "via" of
// sudoku_submissions_total (docs/metrics.md).
type Road string

// The roads into the archive.
const (
	RoadAPI        Road = "api"        // POST /api/puzzles
	RoadForm       Road = "form"       // POST /puzzles
	RoadBatch      Road = "batch"      // POST /api/puzzles/batch and the upload form
	RoadCollection Road = "collection" // a puzzle's text added to a collection
	RoadGenerate   Road = "generate"   // /generate, POST /api/generate, `sudoku generate --archive`
	RoadDaily      Road = "daily"      // the puzzle of the day, chosen by the keeper
	RoadImport     Road = "import"     // `sudoku import`
	RoadAttempts   Road = "attempts"   // `sudoku attempts import`: the puzzles of the attempts
)

// Roads lists every road, in the order the metrics show them.
var Roads = []Road{RoadAPI, RoadForm, RoadBatch, RoadCollection, RoadGenerate, RoadDaily, RoadImport, RoadAttempts}

// Submission is one puzzle on its way in: its givens and rules, read by
// the road (puzzletext reads every form), what the setter called it, who
// submits it, and by which road.
type Submission struct {
	Road Road
	Grid sudoku.Grid
	// Rules are a variant's rules (docs/variants.md); none for a classic
	// puzzle, which keeps the classic path exactly.
	Rules []variant.Rule
	// Title and Author are what the setter called the puzzle and
	// themself (f-puzzles carries them); "" for none.
	Title, Author string
	// Submitter is the account submitting (submitted_by), 0 for none.
	Submitter int64
}

// Puzzle returns s's givens and rules as the variant engine's puzzle.
func (s Submission) Puzzle() variant.Puzzle {
	return variant.Puzzle{Givens: s.Grid, Rules: s.Rules}
}

// FromText returns the submission of a puzzle puzzletext read.
func FromText(road Road, p puzzletext.Puzzle, submitter int64) Submission {
	return Submission{Road: road, Grid: p.Givens, Rules: p.Rules, Title: p.Title, Author: p.Author, Submitter: submitter}
}

// Submit is the one pipeline of a single puzzle into the archive: it
// refuses an empty classic grid (a variant may have no givens: a killer),
// and a title or author the text rule refuses, rates the puzzle (a
// classic one as ever, a variant with record.RateVariant) in a turn of
// the search gate,
// sets the submitter, archives the puzzle durably, wakes the graders and
// counts it under its road. A puzzle is not graded here: the graders grade
// it after it is acknowledged (bulk.Graders), so a hard puzzle costs a
// submission no more than an easy one. An error of the rating is returned
// as it is (it is about the input); one of the store is wrapped.
func (a *Archive) Submit(ctx context.Context, s Submission) (stored record.Puzzle, duplicate bool, err error) {
	if len(s.Rules) == 0 && s.Grid.Clues() == 0 {
		return record.Puzzle{}, false, record.ErrNoGivens
	}
	p, err := a.RateSubmission(ctx, s, false)
	if err != nil {
		return record.Puzzle{}, false, err
	}
	p.SubmitterID = s.Submitter
	return a.SubmitRated(ctx, s.Road, p)
}

// SubmitRated archives p, solved and measured already (a generated
// puzzle), by road: the steps of Submit after the rating.
func (a *Archive) SubmitRated(ctx context.Context, road Road, p record.Puzzle) (record.Puzzle, bool, error) {
	stored, dup, err := a.store.Submit(ctx, p)
	if err != nil {
		return record.Puzzle{}, false, errArchive(p.Givens, err)
	}
	a.wake()
	a.count(road, dup, 1)
	return stored, dup, nil
}

// Rate solves and measures g in a turn of the search gate within the
// archive's node budget and ctx, and with grade grades it too, within
// logic.RequestBudget (a solve that stores nothing).
func (a *Archive) Rate(ctx context.Context, g sudoku.Grid, grade bool) (record.Puzzle, error) {
	var p record.Puzzle
	err := a.Searching(ctx, func() error {
		var err error
		if p, err = record.Rate(g, a.SolveOptions(ctx)); err == nil && grade {
			logic.GradeWithin(&p, logic.RequestBudget)
		}
		return err
	})
	return p, err
}

// RateSubmission solves and measures s as Rate does, without storing it:
// a classic puzzle on the classic path (an empty grid has several
// solutions), a variant with record.RateVariant (not graded yet:
// package logic grades classic puzzles only), the title and author held
// to the text rule and set, with the links that carry them.
func (a *Archive) RateSubmission(ctx context.Context, s Submission, grade bool) (record.Puzzle, error) {
	title, author := strings.TrimSpace(s.Title), strings.TrimSpace(s.Author)
	if err := puzzletext.CheckMeta(title, author); err != nil {
		return record.Puzzle{}, err
	}
	var (
		p   record.Puzzle
		err error
	)
	if len(s.Rules) == 0 {
		p, err = a.Rate(ctx, s.Grid, grade)
	} else {
		err = a.Searching(ctx, func() error {
			var err error
			p, err = record.RateVariant(s.Puzzle(), a.SolveOptions(ctx))
			return err
		})
		if err == nil && grade {
			// A request that asks for the grade gets none: the
			// human-style solver does not grade variants yet, and
			// nothing will grade a puzzle that is not stored.
			p.GradeStatus = record.GradeNone
		}
	}
	if err != nil {
		return record.Puzzle{}, err
	}
	if title != "" || author != "" {
		p.Title, p.Author = title, author
		p.SetLinks() // the links carry the title and author
	}
	return p, nil
}

// SubmitMany archives ps, solved and measured already, in one durable
// transaction (a bulk road: `sudoku generate --archive`), wakes the
// graders and counts them under road. duplicate[i] tells which were
// archived already (their submission count bumped).
func (a *Archive) SubmitMany(ctx context.Context, road Road, ps []record.Puzzle) (duplicate []bool, err error) {
	dup, err := a.store.SubmitMany(ctx, ps)
	if err != nil {
		return nil, err
	}
	a.countAll(road, dup)
	return dup, nil
}

// AddMany is SubmitMany for a road that adds what the archive lacks and
// leaves a puzzle archived already as it was (bulk.Adder: `attempts
// import`); a store without AddMany cannot serve it.
func (a *Archive) AddMany(ctx context.Context, road Road, ps []record.Puzzle) (duplicate []bool, err error) {
	add, ok := a.store.(bulk.Adder)
	if !ok {
		return nil, errors.New("this archive cannot add puzzles without counting a submission")
	}
	dup, err := add.AddMany(ctx, ps)
	if err != nil {
		return nil, err
	}
	a.countAll(road, dup)
	return dup, nil
}

// countAll counts a batch's puzzles by duplicate and wakes the graders.
func (a *Archive) countAll(road Road, dup []bool) {
	var d int64
	for _, x := range dup {
		if x {
			d++
		}
	}
	a.wake()
	a.count(road, false, int64(len(dup))-d)
	a.count(road, true, d)
}

// Import archives the lines of inputs through bulk.Import (`sudoku
// import`), counted under RoadImport, the graders woken.
func (a *Archive) Import(ctx context.Context, inputs []bulk.Input, opt bulk.Options) (bulk.Summary, error) {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = a.budget
	}
	sum, err := bulk.Import(ctx, a.store, inputs, opt)
	a.counted(RoadImport, sum)
	return sum, err
}

// ImportText archives body, one puzzle per line, through bulk.ImportText
// (the batch import and the upload form: one transaction), its ratings
// taking turns at the search gate, counted under RoadBatch.
func (a *Archive) ImportText(ctx context.Context, name string, body []byte) (bulk.Summary, []bulk.Rejection, error) {
	sum, rejected, err := bulk.ImportText(ctx, a.store, name, body, bulk.TextOptions{MaxNodes: a.budget, Slot: a.Searching})
	a.counted(RoadBatch, sum)
	return sum, rejected, err
}

// counted counts a bulk summary's puzzles and wakes the graders, which
// take the new rows from the store.
func (a *Archive) counted(road Road, sum bulk.Summary) {
	a.wake()
	a.count(road, false, sum.Imported)
	a.count(road, true, sum.Duplicates)
}

// count adds n puzzles durably archived by road, new or duplicate.
func (a *Archive) count(road Road, duplicate bool, n int64) {
	c, ok := a.counts[road]
	if !ok || n == 0 {
		return
	}
	i := 0
	if duplicate {
		i = 1
	}
	c[i].Add(n)
}

// Submitted returns how many puzzles road archived durably since New:
// new ones, and duplicates (givens archived already).
func (a *Archive) Submitted(road Road) (fresh, duplicates int64) {
	c, ok := a.counts[road]
	if !ok {
		return 0, 0
	}
	return c[0].Load(), c[1].Load()
}
