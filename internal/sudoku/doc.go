// Package sudoku is the engine: it reads, checks, solves, traces,
// generates, canonicalises, transforms and measures Sudoku puzzles (Grid,
// Parse, Solve, Rate and its Measures, Trace, Canonical, Transform, the
// bands). It is pure Go with no I/O and imports nothing of this module; the
// archive's record of a puzzle (its row, list queries, stats, errors) is
// package record's, the reader of typed numbers package userinput's.
//
// # Reading puzzles
//
// Parse reads any puzzle text: 81 cells row by row, '1'-'9' for givens, '0'
// or '.' for blanks, with white space and the grid drawing characters
// | - + = ignored, so a one-line puzzle and a 9-line drawn grid read the same.
// ParseLine reads one line of line-oriented input and ignores text after the
// 81st cell when it begins with white space. FromRows reads a 9x9 matrix.
// Errors are typed and say what and where: *ParseError ("expected 81 cells,
// got 80", "'x' at position 12"), *ShapeError and *CellError for matrices,
// and Grid.Validate's *ConflictError ("row 3 has two 7s", with both cells).
//
// # The search and what it counts
//
// Solve, Rate and Trace run one search, the same code for all three (Rate
// and Trace on presentations of the canonical form, below):
//
//  1. At each node, propagate to a fixpoint with naked singles (an empty cell
//     with one candidate left gets it) and hidden singles (a digit with one
//     place left in a row, column or box goes there). Every digit placed this
//     way is a forced placement; forced placements are not counted in the
//     measures (a trace shows them as "forced" steps).
//  2. A contradiction, an empty cell without a candidate or a digit without a
//     place in a unit, makes the node a dead end. A full grid is a solution:
//     Solutions is counted and the first one kept.
//  3. Otherwise the empty cell with the fewest candidates is chosen; among
//     equals the lowest numbered (cells are numbered 0-80 row by row). That
//     cell is a branch point: Guesses counts branch points. Each of its
//     candidates is tried in turn (from 1 up): placing it is a guess, and a
//     new node. After exploring it the search withdraws the guess and all
//     that was placed since: Backtracks counts withdrawn guesses.
//  4. The search stops as soon as it has found two solutions.
//
// So Nodes is 1 (the givens) plus the guessed digits placed, and for a puzzle
// with zero or one solution, where the whole tree is explored, Backtracks is
// the number of candidates tried over all branch points, which does not depend
// on the order in which the digits are tried; nor do Guesses and Nodes. For
// a puzzle with several solutions the search ends at the second one, so its
// counts depend on the order (1 up). Solve never counts the givens, and a
// puzzle solved by singles alone has 0 guesses, 0 backtracks and 1 node.
//
// Worked example (TestWorkedExample), the puzzle
//
//	.43.8.25.6.............1.949....4.7....6.8....1.2....382.5.............5.34.9.71.
//
// Singles place 10 digits at the root, then stop: every empty cell has two
// candidates or more, and cell 0 (row 1, column 1) is the first with the
// fewest, {1, 7}. It is the one branch point (guesses 1). The search guesses
// 1 there (nodes 2); singles place 44 more digits and then meet a
// contradiction, so the 44 and the guess are withdrawn (backtracks 1). It
// guesses 7 (nodes 3); singles place the last 21 digits: a solution. To prove
// there is no other, that branch is withdrawn too (backtracks 2), and cell 0
// has no candidate left. Result: solutions 1, guesses 1, backtracks 2,
// nodes 3; the trace has 10+1+44+45 + 1+21+22 = 144 steps.
//
// Solve runs the search on the grid as written. Rate and Trace run it on the
// canonical form instead (next section), so their counts belong to the
// puzzle. The budget Options.MaxNodes (DefaultMaxNodes) ends a search with
// ErrBudget, and closing Options.Done ends it with ErrCanceled (checked every
// few thousand nodes), so no input holds a CPU for long.
//
// # The same puzzle, written another way
//
// Swapping bands, stacks, rows within a band or columns within a stack,
// transposing and relabelling the digits turn a puzzle into the same puzzle
// written another way. A Transform is one such move (or several composed):
// Apply, Cell, Digit and Step move a grid, a cell, a digit and a trace step;
// Inverse and Then invert and compose. The search is not blind to these
// moves (it picks the lowest numbered cell among equals), so the counts of
// Solve change with the writing: puzzle 234 of top1465 needs 2,496
// backtracks as published and 98 turned half a turn.
//
// Canonical returns one form per puzzle, the same for every writing, exactly
// (no heuristic), and the Transform that gives it:
//
//   - A puzzle with a unique solution: among all 2 x 1,296 x 1,296 row and
//     column moves of the solution, with the digits relabelled in the order
//     they first appear, take the least grid cell by cell (the minlex form:
//     its first row is always 123456789). The first row is a row of the
//     solution or of its transpose (18 choices), the second another row of
//     the same band (2); the rest of the second row depends only on the
//     column order, and only 6 column orders per pair of top rows (18 when
//     the pair is pure: every digit of a stack of the second row in one
//     stack of the first) can make it least. The order of the first stack's
//     columns forces the rest: each digit read places its column at the
//     first place still open in its stack, anything else making the row
//     greater. Each such order is read once and left as soon as its row is
//     greater than the best so far; the third row, fixed by the first two,
//     breaks ties, and the last two bands are sorted. Every transform that ties for the least solution (the
//     solution's automorphisms) is kept, and among them the one that makes
//     the givens least, cell by cell with a blank before every digit, gives
//     the canonical puzzle. CanonicalSolved does this when the solution is
//     known; Canonical solves first.
//   - A puzzle with no solution or several: the minlex form of the givens
//     themselves, the least grid cell by cell (blank first) among all
//     transforms with the digits relabelled in order of appearance. It is
//     built row by row from every orientation and column order, keeping the
//     candidates whose rows are least so far and only one of those that see
//     the same rest of the grid. About 3 ms a puzzle: rare, and never hit
//     by an import of real puzzles.
//
// Canonical speed on one core, thread CPU time (go test -run '^$' -bench
// 'Canonical$' -cpu 1 ./internal/sudoku; a shared 2-core machine, so with
// some noise; the wall figures it prints are inflated by the other load):
//
//	                      CanonicalSolved     Canonical           its search
//	                      (solution known)    (solve included)    alone (Solve)
//	17_clue               5.2 µs  190,000/s    14 µs  73,000/s      8 µs
//	forum_hardest_1106    4.9 µs  200,000/s   290 µs   3,400/s    275 µs
//	magictour_top1465     5.8 µs  170,000/s    46 µs  22,000/s     34 µs
//
// Canonical must search the whole tree to know the solution is unique, so on
// forum_hardest_1106 it is bounded by that search: the canonical form is 2%
// of it, and no canonical form can take it past ~3,600 puzzles/s. The
// archive canonicalises from the solution (CanonicalSolved, or Rate's first
// solution), where the 1106 puzzles cost no more than the 17-clue ones.
//
// Rate (and Trace) search K = Presentations = 3 fixed ways of writing the
// canonical form: presentation 0 is the canonical form itself, the others
// fixed transforms of it (a seeded splitmix64 stream: they never change
// within an EngineVersion). The recorded run is the one with the median
// backtracks (the lowest numbered presentation among equals): Solutions,
// Backtracks, Guesses and Nodes are those of that run, the same for
// every writing of the puzzle, several-solution puzzles included (their
// counts come from the canonical form too). The three runs are the timed
// runs (more when Options.Runs asks), SolveNS their median. The singles at
// the root are the same placements in every writing, moved with it, so Rate
// finds them once, on the grid as written, and starts each presentation's
// search from them moved: the same search, counts and all, as from its
// givens (TestRootSingles), and each run's time includes that shared root.
//
// Why K = 3: the rank correlation (Spearman's rho) of the recorded
// backtracks with the Sukaku Explainer rating of all 19,860 rated puzzles
// (go test -run TestSpearman -spearman -v ./internal/sudoku):
//
//	measure                          rho
//	as written (engine 1)            0.325
//	canonical form alone (K = 1)     0.321
//	median of K = 3 presentations    0.338
//	median of K = 5                  0.341
//	median of K = 7                  0.359
//	median of K = 9                  0.356
//	median of K = 17                 0.385
//
// More presentations agree better with the human rating, but each costs a
// search: a 17-clue puzzle costs the archive, on one core, the singles at
// the root (~2.7 µs, found once), the rest of the search for its first
// solution (~2.7 µs), the canonical form (~5.4 µs) and K searches from the
// root (~5 µs each): Rate takes ~28 cpu-µs per 17-clue puzzle and ~1 ms per
// forum_hardest_1106 puzzle (go test -run '^$' -bench Rate -cpu 1
// ./internal/sudoku). The import budget is 40 µs a puzzle (49,158 17-clue
// puzzles in under 2 s on 2 cores, with the database writes). Three timed
// runs are needed anyway, so K = 3 is free where K = 1 is not better; K = 5
// would add ~10 µs, leaving no margin under that budget on a loaded machine.
//
// The search of a puzzle with several solutions stops at the second
// solution, so its counts depend on the order in which digits are tried,
// and are not a difficulty. The band a person reads comes from the grade
// of package logic, not from these counts (see Band).
//
// # Traces
//
// Trace records the steps of the search Rate records (the median
// presentation of the canonical form), moved back onto the grid as written:
// a "forced" or "guess" step for every placement and, when the search backs
// out of a guess, one "undo" step per digit removed, the last placed first.
// Replayed from the givens as written, a placement always goes into an empty
// cell without clashing with a digit on the board, and an undo always
// removes the digit that is there. For an untruncated trace of a puzzle with
// at most one solution, the number of guess steps equals Backtracks, the
// number of distinct branch points among them equals Guesses, and a replay
// passes through the solution. Traces are capped at DefaultMaxSteps steps
// unless the caller asks for another cap.
//
// # Representation
//
// The state is one bitboard per digit in the band layout of JCZSolve and
// tdoku (three uint32 of 27 cells each), plus a bitboard of empty cells.
// Naked singles are found for 27 cells at once by counting candidates across
// the nine boards; hidden singles per digit, only for digits whose board
// changed since they were last checked. A guess copies the 120-byte board
// instead of undoing, and a search allocates nothing.
package sudoku
