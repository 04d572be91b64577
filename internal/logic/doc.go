// Package logic solves Sudoku the way a person does and grades the puzzle on
// the scale of Sudoku Explainer (SE): it repeatedly applies the easiest
// technique that makes progress, records each step as plain data (Step) and
// gives the puzzle the highest step grade on the path.
//
// # The ladder
//
// The techniques are tried in SE's order (Solver.java), and the first one
// that finds something gives the step; within a technique the easiest
// instance is taken (for chains: lowest grade, then shortest chain). Every
// technique's name, grade, finder and sentence are declared once, in the
// technique table (ladder, techniques.go); the table below and the one of
// docs/engine.md are generated from it. A grade with + is a chain's base,
// to which the length bonus is added (see below).
//
// The table (generated from techniques.go; go test -run TestTechniqueDocs -update):
//
//	technique                     grade      file
//	Full House                    1.0        singles.go
//	Hidden Single                 1.2–1.5    singles.go
//	Direct Pointing               1.7        intersections.go
//	Direct Claiming               1.9        intersections.go
//	Direct Hidden Pair            2.0        subsets.go
//	Naked Single                  2.3        singles.go
//	Direct Hidden Triple          2.5        subsets.go
//	Pointing                      2.6        intersections.go
//	Claiming                      2.8        intersections.go
//	Generalized Intersections     2.9        intersections.go
//	Naked Pair                    3.0        subsets.go
//	Generalized Naked Pair        3.0        subsets.go
//	X-Wing                        3.2        fish.go
//	Hidden Pair                   3.4        subsets.go
//	Naked Triple                  3.6        subsets.go
//	Generalized Naked Triplet     3.6        subsets.go
//	Swordfish                     3.8        fish.go
//	Hidden Triple                 4.0        subsets.go
//	Skyscraper                    4.0        strong.go
//	2-String Kite                 4.1        strong.go
//	Turbot Fish                   4.1        strong.go
//	Grouped Turbot Fish           4.3        strong.go
//	XY-Wing                       4.2        wings.go
//	XYZ-Wing                      4.4        wings.go
//	Unique Rectangle Type 1       4.5        uniqueness.go
//	Unique Rectangle Type 2       4.5        uniqueness.go
//	Unique Rectangle Type 4       4.5        uniqueness.go
//	Unique Rectangle Type 3       4.6–4.8    uniqueness.go
//	Naked Quad                    5.0        subsets.go
//	Generalized Naked Quad        5.0        subsets.go
//	Jellyfish                     5.2        fish.go
//	Hidden Quad                   5.4        subsets.go
//	3 Strong Links                5.4–5.7    strong.go
//	WXYZ-Wing                     5.5–5.6    wings.go
//	BUG+1                         5.6        uniqueness.go
//	BUG Type 2                    5.7        uniqueness.go
//	BUG Type 3                    5.8–6.2    uniqueness.go
//	BUG Type 4                    5.7        uniqueness.go
//	4 Strong Links                5.8–6.1    strong.go
//	VWXYZ-Wing                    6.2–6.4    wings.go
//	Aligned Pair Exclusion        6.2        exclusion.go
//	UVWXYZ-Wing                   6.6        wings.go
//	Bidirectional X-Cycle         6.5+       chains_unary.go
//	Bidirectional Y-Cycle         6.5+       chains_unary.go
//	Forcing X-Chain               6.6+       chains_unary.go
//	Simple Colouring              6.6+       chains_unary.go
//	X-Chain                       6.6+       chains_unary.go
//	Bidirectional Cycle           7.0+       chains_unary.go
//	Forcing Chain                 7.0+       chains_unary.go
//	XY-Chain                      7.0+       chains_unary.go
//	W-Wing                        7.0+       chains_unary.go
//	Nishio Forcing Chain          7.5+       chains_multi.go
//	Cell Forcing Chains           8.0+       chains_multi.go
//	Region Forcing Chains         8.0+       chains_multi.go
//	Dynamic Forcing Chains        8.5+       chains_multi.go
//	Dynamic Forcing Chains (+)    9.0+       chains_multi.go
//	Dynamic Forcing Chains (+ Forcing Chains) 9.5+       chains_nested.go
//	Dynamic Forcing Chains (+ Multiple Forcing Chains) 10.0+      chains_nested.go
//	Dynamic Forcing Chains (+ Dynamic Forcing Chains) 10.5+      chains_nested.go
//
// (end of the table)
//
// The ladder is Sukaku Explainer's current default technique set, the SE
// fork that rated the Sudoku Exchange puzzles (serate with no options), at
// its ratings. Its additions to SE are the WXYZ- and VWXYZ-Wings and the
// strong-link rungs (strong.go): two strong links (Skyscraper 4.0,
// 2-String Kite and Turbot Fish 4.1, any of them with a grouped link 4.3)
// before the XY-Wing, three links (5.4-5.7) after the Hidden Quad, four
// (5.8-6.1) after the BUG, graded by the kinds of their links as its
// StrongLinksHint does. Like SE's direct hints, Direct Pointing, Direct
// Claiming and the Direct Hidden Pair and Triple only place their single:
// the pattern's eliminations are left for the ordinary rung (Pointing 2.6,
// Hidden Pair 3.4), which is where SE's grades of easy puzzles come from.
// The UVWXYZ-Wing (6.6, after the APE) is its too, and like it the wings
// take the doubly linked case (both digits of the yz cell restricted) at
// the same grade, removing every digit the pattern locks. Not yet here: its
// TUVWXYZ-Wing and Aligned Triplet Exclusion, which it tries among the
// chains. The
// type 3 and BUG grades follow SE's hint classes (UR type 3: 4.5 plus 0.1 per
// naked-set value past the first, UniqueLoopType3NakedHint; BUG type 1 5.6,
// types 2 and 4 5.7, type 3 5.7 plus 0.1 per naked-set value past the
// first, so 5.8 for a pair: Bug1Hint to Bug4Hint, read in Sukaku
// Explainer's source).
//
// # Techniques Sudoku Explainer does not have
//
// Simple Colouring, X-Chain, XY-Chain and W-Wing are not rungs of their
// own: SE finds the same deductions as forcing chains (or, for one digit
// and up to four strong links, as strong-linked fishes, which come first),
// and grading them lower would grade puzzles below SE. A forcing chain Z=x → A≠x → … → B=x →
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
// # Nested forcing chains
//
// Above Dynamic+ (SE's chaining level 1) come SE's levels 2, 3 and 4
// (chains_nested.go), rated 9.5, 10.0 and 10.5 plus the length bonus: a
// dynamic forcing chain whose implications run dry, and on whose board the
// simple rules of Dynamic+ find nothing, searches that board (the
// candidates its assumption has left) for whole chains of a lower kind:
// forcing chains (level 2), then cell and region forcing chains (level 3),
// or dynamic forcing chains (level 4). Their eliminations that rest on a
// candidate the assumption removed become off nodes of the outer chain,
// whose parents are those candidates, and each nested chain's complexity is
// added once to that of every conclusion resting on it. A level is tried
// only when the one before finds nothing on the whole board. SE's deeper
// experimental levels (level 4 with nested Dynamic+ and beyond) are not
// rungs: a puzzle that needs them stops at a floor of 10.5.
//
// # Budget and Floor
//
// Options.Budget (DefaultBudget, 20 million work units, a unit being one
// chain node taken up by one search, bit-parallel searches counting each
// of their searches) bounds one Solve or NextSolved, and Options.MaxSteps
// (DefaultMaxSteps, 1000) the path. The archive's graders, `sudoku solve`,
// the setter and Explain use DeepBudget (4 billion units, seconds at most
// for the hardest known puzzles; Options.Stop ends a grade early). When the
// budget runs out, or no technique applies (the puzzle needs chains nested
// deeper than level 4), Solve stops and returns Floor=true with the grade
// proven so far raised to the base of the rung it could not finish (10.5
// past the ladder): a lower bound. Puzzles with no or several solutions are errors (ErrNoSolution,
// ErrMultipleSolutions) and get no grade.
//
// # How the chain searches are kept fast
//
// The chosen step is the one SE's exhaustive search would choose: every
// shortcut below only skips searches that provably cannot give a better
// hint, and a hint carries its place in SE's search order so that ties
// break the same way whatever order the searches run in (TestDump compares
// the grade and the hash of every step text of two builds; each speed
// change was checked to leave them unchanged on 2,000 rated puzzles, and
// the final build on all 19,860).
//
//   - Forcing chains run 64 at a time, one bit per search, over a compact
//     table of the static links, layer by layer from every start, and stop
//     at the first layer where a chain closes (forcingAll); only the chains
//     chosen are rebuilt node by node for their paths. Without Y-links a
//     search stays on one digit and walks only that digit's candidates.
//   - A cycle that removes Z implies a forcing chain from Z=x to Z≠x at most
//     two nodes longer over the same links, so when no forcing chain exists
//     (or the shortest one, less two, cannot beat the best hint) the cycle
//     searches are skipped; Y-cycles get the bound from an on-only
//     bit-parallel search over Y-links.
//   - The shortest cycle each start can close is computed bit-parallel
//     (cycleLengths); a start whose shortest cycle cannot beat the best hint
//     is not searched, and searches stop at the longest useful length.
//   - Cell and region forcing chains run only where the branches' static
//     closures (bit-parallel) share a node.
//   - A cycle search stops after the layer in which one of its cycles gave
//     the best hint: its later cycles are longer, so they rate higher (it
//     spends less work than before, so a puzzle that meets the budget may
//     get further than with d15542e).
//   - Nishio runs (X-links only) read one digit's candidates, so their
//     outcome is kept per digit while those stay (nishioRuns), and their
//     work counted again; strong links are kept per digit likewise.
//   - Per step, the board keeps each unit's digit positions, each digit's
//     cells and the bivalue cells, updated for the cells that lost
//     candidates only; a chainer run keeps the places of each digit in
//     each unit with its working candidates; chain pools are reused across
//     solves.
//
// # How the simple rungs are kept fast
//
// The ladder runs again from the top after every step, so each rung below
// the chains keeps the candidates of the last board it found nothing on
// (solver.memos, since). A step found now and not then rests on a cell that
// lost a candidate since (the eliminations of a pattern only shrink), so a
// rung searches only there: hidden and naked sets the units holding a
// changed cell, fish and pointing/claiming the digits that lost one,
// rectangles with a cell in a changed unit, wings and aligned pair
// exclusions with a changed cell among their own, strong links the digits
// that lost one (their links and joins are built once per board for the
// three rungs, solver.strongs). Singles keep per unit the change count at
// which it held none. The order of what is searched is
// unchanged, so the first (or best) step found is the same.
//
// # Agreement and speed (measured)
//
// Against Sukaku Explainer's own ratings of puzzles the grade was never
// tuned on (testdata/puzzles/se_heldout_rated.tsv: generated, 17-clue and
// easy puzzles rated by the current serate; go test ./internal/logic -run
// TestHeldOutAgreement -v), the share within ±0.2 of its rating, by
// integer band of the rating, grade version 3 (before: grade version 2, on
// the first 460 of them):
//
//	band      1     2     3     4     5     6     7     8
//	puzzles   158   142   22    191   71    32    63    11
//	now       100%  100%  100%  99.5% 98.6% 96.9% 100%  100%
//	before    100%  97.0% 83.3% 53.7% 70.0% 83.3% 96.9% 100%
//
// and on its last 230, made after the ladder was done: 100, 100, 100,
// 98.5, 97.6, 92.9, 100 and 100%. TestHeldOutAgreement fails when a band
// falls below these (heldOutFloors).
//
// Against the Sukaku Explainer ratings of the 19,860 puzzles of
// sudokuexchange_diabolical_even_rated.tsv (rated by an older Explainer,
// without the UVWXYZ-Wing):
//
//	go test ./internal/logic -run TestAgreement -v -logic.full -timeout 40m
//
// grade version 3: Spearman ρ 0.9907 and 97.52% within ±0.2, no Floor;
// 386 of its 492 misses are UVWXYZ-Wings the file rates 7.1 (without the
// UVWXYZ-Wing: ρ 0.9951, 99.17%; grade version 2: ρ 0.9386, 86.08%). The default
// run takes an even sample of 300 (ρ 0.9955, 98.0%: five of its six misses
// are UVWXYZ-Wings the file rates 7.1 and the current Explainer 6.6),
// -short 30 (ρ 0.988, 93.3%, its two misses UVWXYZ-Wings too);
// TestAgreement fails when a figure falls below these (agreementFloors).
//
// Grade version 3 costs about 1.35x the CPU of grade version 2: the test
// binaries of e7b0233 and of the strong-link ladder, run alternately with
// -test.bench 'BenchmarkGrade$' -test.benchtime 5x -test.cpu 1 under a
// load of about 21, took 1.70-1.98 s against 2.42-2.48 s of user time;
// the strong-link searches (strong.go) are about a third of the profile.
// The figures below are grade version 2's.
//
// Speed, one core, the first 200 rated puzzles:
//
//	go test ./internal/logic -run XXX -bench BenchmarkGrade -benchtime 3x -cpu 1
//
// measured 0.32 s per 200 puzzles (618-620 puzzles/s, about 1.6 ms a
// puzzle), against 0.45-0.46 s (436-448 puzzles/s) for d15542e run
// alternately with it under the same load (about 3 on 2 cores): 1.4x.
// The whole file on both cores:
//
//	go test ./internal/logic -run TestDump -logic.dump /tmp/grades.txt -logic.dumpn 0 \
//		-logic.dumpsets sudokuexchange_diabolical_even.txt
//
// takes 31.5 s of CPU (25 s wall under a load of about 3.4), against
// 46.3 s of CPU (42 s wall) for d15542e measured right before it under the
// same load, and 205 s for 846bd9b: 1.47x over d15542e. (d15542e measured
// 57-61 s of CPU under a heavier load; figures on this shared machine move
// by 10-20% with the load, so compare builds run back to back.) On one
// core, 2,000 puzzles (the same command with -logic.dumpn 2000, which now
// spreads them evenly over the file, and GOMAXPROCS=1, best of 3 alternating runs) take 2.95 s against
// 4.28 s (1.45x). Half of what is left is the unary chain searches (the
// bit-parallel forcing searches and the node-by-node cycle searches, which
// must keep SE's first-parent paths), 15% the Nishio, cell/region and
// dynamic chains, and most of the rest the first full run of each simple
// rung on a puzzle.
//
// The forum's hardest puzzles (SE 11+) stop on the budget in at most about
// 0.4 s each under that load (TestBudget).
package logic
