package sudoku

import "fmt"

// StepKind says what a trace step did.
type StepKind uint8

// The kinds of trace step.
const (
	Forced StepKind = iota // a digit placed by propagation (a naked or hidden single)
	Guess                  // a digit tried at a branch point
	Undo                   // a digit removed when the search backs out
)

// String returns "forced", "guess" or "undo".
func (k StepKind) String() string {
	switch k {
	case Forced:
		return "forced"
	case Guess:
		return "guess"
	case Undo:
		return "undo"
	}
	return fmt.Sprintf("StepKind(%d)", uint8(k))
}

// MarshalText encodes the kind as "forced", "guess" or "undo".
func (k StepKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes "forced", "guess" or "undo".
func (k *StepKind) UnmarshalText(b []byte) error {
	for _, v := range []StepKind{Forced, Guess, Undo} {
		if string(b) == v.String() {
			*k = v
			return nil
		}
	}
	return fmt.Errorf("unknown step kind %q", b)
}

// Step is one move of a traced search: Cell is 0-80 row by row, Digit 1-9.
type Step struct {
	Kind  StepKind `json:"kind"`
	Cell  uint8    `json:"cell"`
	Digit uint8    `json:"digit"`
}

// DefaultMaxSteps caps a trace that sets no cap. A step is at most 37 bytes
// of JSON ({"kind":"forced","cell":80,"digit":9},), so a capped trace stays
// under 3.7 MB. Every puzzle of the test collections fits whole: the longest
// trace among them (17_clue, line 10,646) has 85,191 steps.
const DefaultMaxSteps = 100_000

// Trace returns the steps of the search that Rate records for g: the run on
// the presentation of g's canonical form with the median backtracks, with
// every step moved back onto g as written (cell and digit), at most maxSteps
// of them (0 or less means DefaultMaxSteps); truncated is true when the
// search went on past the cap. The search itself always runs to its end, so
// res is exactly that run's Result (Solution moved back onto g), whose counts
// are Rate's measures. The steps replay from g's givens: every placement
// goes into an empty cell without clashing, and every undo removes the digit
// last placed and not yet removed (see the package documentation). It fails
// as Solve does; a puzzle without solution has a trace too.
func Trace(g Grid, maxSteps int, opt Options) (steps []Step, truncated bool, res Result, err error) {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	if err := g.Validate(); err != nil {
		return nil, false, Result{}, err
	}
	var times [Presentations]int64
	m, err := measure(g, opt, 0, times[:])
	if err != nil {
		return nil, false, Result{}, err
	}
	to := m.toRecorded()
	tr := &tracer{max: maxSteps}
	res, err = solve(to.Apply(g), opt, tr, false)
	if err != nil {
		return nil, false, Result{}, err
	}
	back := to.Inverse()
	for i, s := range tr.steps {
		tr.steps[i] = back.Step(s)
	}
	res.Solution = back.Apply(res.Solution)
	return tr.steps, tr.truncated, res, nil
}

// tracer records the steps of a search.
type tracer struct {
	steps     []Step
	max       int
	truncated bool
	path      []Step // placements since the root still on the board, for undo
}

func (t *tracer) add(s Step) {
	if len(t.steps) < t.max {
		t.steps = append(t.steps, s)
	} else {
		t.truncated = true
	}
}

func (t *tracer) place(kind StepKind, c, digit int) {
	s := Step{Kind: kind, Cell: uint8(c), Digit: uint8(digit)}
	t.path = append(t.path, s)
	t.add(s)
}

// undo removes, last first, every placement made since the path was mark long.
func (t *tracer) undo(mark int) {
	for i := len(t.path) - 1; i >= mark; i-- {
		t.add(Step{Kind: Undo, Cell: t.path[i].Cell, Digit: t.path[i].Digit})
	}
	t.path = t.path[:mark]
}
