// Package logic solves Sudoku the way a person does and grades the puzzle on
// the scale of Sudoku Explainer (SE): it repeatedly applies the easiest
// technique that makes progress, records each step as plain data (Step) and
// gives the puzzle the highest step grade on the path.
//
// # The ladder
//
// The techniques are tried in SE's order (Solver.java), and the first one
// that finds something gives the step; within a technique the easiest
// instance is taken (for chains: lowest grade, then shortest chain). The
// table is the variable ladder in solver.go.
//
//	technique                       grade     file
//	Full House                      1.0       singles.go
//	Hidden Single                   1.2 box, 1.5 row/column
//	Direct Pointing / Claiming      1.7 / 1.9 intersections.go (leaves a hidden single, placed)
//	Direct Hidden Pair              2.0       subsets.go (leaves a hidden single, placed)
//	Naked Single                    2.3       singles.go
//	Direct Hidden Triple            2.5       subsets.go
//	Pointing / Claiming             2.6 / 2.8 intersections.go
//	Naked Pair                      3.0       subsets.go
//	X-Wing                          3.2       fish.go
//	Hidden Pair                     3.4       subsets.go
//	Naked Triple                    3.6       subsets.go
//	Swordfish                       3.8       fish.go
//	Hidden Triple                   4.0       subsets.go
//	XY-Wing                         4.2       wings.go
//	XYZ-Wing                        4.4       wings.go
//	Unique Rectangle types 1, 2, 4  4.5       uniqueness.go
//	Unique Rectangle type 3         4.6-4.8   techniques2.go (naked set: 4.5 + 0.1 per value past the first)
//	Naked Quad                      5.0       subsets.go
//	Jellyfish                       5.2       fish.go
//	Hidden Quad                     5.4       subsets.go
//	WXYZ-Wing                       5.5-5.6   wings.go (Sukaku Explainer's rating)
//	BUG+1                           5.6       uniqueness.go
//	BUG types 2 and 4 / type 3      5.7 / 5.7-5.9 techniques2.go (type 3: 5.6 + 0.1 per value past the first)
//	VWXYZ-Wing                      6.2-6.4   wings.go (Sukaku Explainer's rating)
//	Aligned Pair Exclusion          6.2       techniques2.go
//	Bidirectional X- / Y-Cycle      6.5+      chains_unary.go
//	Forcing X-Chain                 6.6+      chains_unary.go
//	  named: Simple Colouring, X-Chain  6.6+  techniques2.go (nameChain; see below)
//	Bidirectional Cycle, Forcing Chain (X and Y links) 7.0+
//	  named: W-Wing (7.1), XY-Chain     7.0+  techniques2.go (nameChain; see below)
//	Nishio Forcing Chain            7.5+      chains.go (X-links, dynamic, contradictions)
//	Cell / Region Forcing Chains    8.0+      chains.go (static, every branch agrees)
//	Dynamic Forcing Chains          8.5+      chains.go
//	Dynamic Forcing Chains (+)      9.0+      chains.go (plus pointing, pairs, X-Wing inside)
//
// The WXYZ- and VWXYZ-Wings come from Sukaku Explainer, the SE fork that
// rated the Sudoku Exchange puzzles, which places them at those rungs. The
// type 3 and BUG grades follow SE's hint classes (UR type 3: 4.5 plus 0.1 per
// naked-set value past the first, as read in SE's UniqueLoopType3NakedHint;
// BUG types 2 and 4 at 5.7 and type 3 at 5.6 plus 0.1 per value past the
// first are SE's values as we recall them, not checked against its source).
//
// # Techniques Sudoku Explainer does not have
//
// Simple Colouring, X-Chain, XY-Chain and W-Wing are not rungs of their
// own: SE finds the same deductions as forcing chains, and grading them
// lower would grade puzzles below SE. A forcing chain Z=x → A≠x → … → B=x →
// Z≠x whose middle A≠x → … → B=x is an alternating inference chain (A or B
// is x) is named by that middle (nameChain): Simple Colouring when it uses
// one digit and conjugate pairs only, X-Chain for one digit, W-Wing for
// bivalue cells A and B joined by a conjugate pair of their other digit,
// XY-Chain when every strong link is inside a bivalue cell. The step keeps
// the chain's grade, which is SE's rating of that chain (a W-Wing is SE's
// eight-node forcing chain, 7.0 plus 0.1 = 7.1), so it is found exactly
// where SE would find it; it removes x from every cell seeing both A and B
// rather than only Z.
//
// # How chains are rated
//
// A chain step's grade is its type's base (above) plus SE's length bonus
// (ChainingHint.getLengthDifficulty): with L = complexity - 2, 0.1 for each
// threshold 4, 6, 8, 12, 16, 24, 32, 48, ... (alternately ×3/2 and ×4/3)
// that L exceeds. The complexity is the number of distinct nodes (candidate
// on or off) the conclusion rests on, summed over the branches of a
// multiple chain; dynamic chains count the removed candidates a single rests
// on as hidden parents, as SE does.
//
// # Budget and Floor
//
// Options.Budget (DefaultBudget, 20 million work units, a unit being one
// chain node taken up, about 25-50 ns) bounds one Solve or Next, and
// Options.MaxSteps (DefaultMaxSteps, 1000) the path. When the budget runs
// out, or no technique applies (the puzzle needs nested chains beyond
// Dynamic+), Solve stops and returns Floor=true with the grade proven so
// far raised to the base of the rung it could not finish (9.5 past the
// ladder): a lower bound. Puzzles with no or several solutions are errors
// (ErrNoSolution, ErrMultipleSolutions) and get no grade.
//
// # Agreement and speed (measured)
//
// Against the Sukaku Explainer ratings of the 19,860 puzzles of
// sudokuexchange_diabolical_even_rated.tsv:
//
//	go test ./internal/logic -run TestAgreement -v -logic.full -timeout 30m
//
// measured at commit 3e5aa56: all 19,860 puzzles, Spearman ρ 0.934 and
// 85.4% within ±0.2 of SE's rating, no Floor (6 min 55 s wall on the shared
// 2-core machine under a load of about 10).
//
// The default test run takes an even sample of 300: Spearman ρ 0.934, 80.3%
// within ±0.2 (first sample of 30: ρ 0.996, 96.7%). Most misses are
// forcing X-chains and Nishio chains whose length (hence bonus) differs
// from SE's by a tie-break. Speed, one core:
//
//	go test ./internal/logic -run XXX -bench BenchmarkGrade -benchtime 3x
//
// measured 70 puzzles/s (2.84 s for the first 200 rated puzzles, on a shared
// 2-core machine under load): the whole rated file takes about 280 s of one
// core, not yet the 20 s target. Most time goes to the forcing-chain and
// cycle searches (chains_unary.go), which try every candidate.
//
// The forum's hardest puzzles (SE 11+) stop on the budget in at most about
// 0.2 s each (TestBudget).
package logic
