// Package sudoku reads, checks, solves and measures Sudoku puzzles, and holds
// the archive's domain types. It is pure Go with no I/O.
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
// Solve, Rate and Trace run one search, the same code for all three:
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
// Rate runs the search at least three times and records the median wall time
// as SolveNS. The budget Options.MaxNodes (DefaultMaxNodes) ends a search
// with ErrBudget, and closing Options.Done ends it with ErrCanceled (checked
// every few thousand nodes), so no input holds a CPU for long.
//
// # Traces
//
// Trace records the search's steps: a "forced" or "guess" step for every
// placement and, when the search backs out of a guess, one "undo" step per
// digit removed, the last placed first. Replayed from the givens, a placement
// always goes into an empty cell without clashing with a digit on the board,
// and an undo always removes the digit that is there. For an untruncated trace
// of a puzzle with at most one solution, the number of guess steps equals
// Backtracks, the number of distinct branch points among them equals
// Guesses, and a replay passes through the solution. Traces are capped at
// DefaultMaxSteps steps unless the caller asks for another cap.
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
