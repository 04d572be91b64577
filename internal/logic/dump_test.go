package logic

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

var (
	dumpPath = flag.String("logic.dump", "", "write each puzzle's grade and a hash of its path to this file")
	dumpN    = flag.Int("logic.dumpn", 2000, "puzzles of each collection -logic.dump covers (0: all)")
	dumpSets = flag.String("logic.dumpsets", "", "comma-separated collections -logic.dump covers (default: every one)")
)

// pathSample is a puzzle of a collection at its line number (0-based).
type pathSample struct {
	collection string
	line       int
	puzzle     string
}

// evenSample takes n lines of a collection evenly spread over it (all of
// them when n is 0 or the collection is smaller).
func evenSample(tb testing.TB, collection string, n int) []pathSample {
	lines := puzzletest.Lines(tb, collection, 0)
	step := 1
	if n > 0 && len(lines) > n {
		step = len(lines) / n
	}
	var out []pathSample
	for i := 0; i < len(lines) && (n <= 0 || len(out) < n); i += step {
		p, _, _ := strings.Cut(lines[i], "\t") // the rated table: puzzle TAB rating
		out = append(out, pathSample{collection, i, p})
	}
	return out
}

// pathLine solves one puzzle and writes its grade, technique, step count and
// a hash of every field of every step: two builds that give the same line
// took the same path.
func pathLine(tb testing.TB, p pathSample) string {
	r, err := Solve(parse(tb, p.puzzle), Options{})
	if err != nil {
		tb.Errorf("%s line %d: %v", p.collection, p.line+1, err)
		return ""
	}
	h := fnv.New64a()
	for _, st := range r.Steps {
		fmt.Fprintf(h, "%s|%.1f|%v|%v|%v|%v|%v|%v|%d|%d|%v|%v|%v|%s\n", st.Technique, st.Grade, st.Cells,
			st.Placements, st.Eliminations, st.Units, st.Digits, st.Chain, st.Branches, st.Length,
			st.roof, st.set, st.setDigits, st.Text)
	}
	return fmt.Sprintf("%s %d %.1f %v %d %016x %s", p.collection, p.line+1, r.Grade, r.Floor, len(r.Steps), h.Sum64(), r.Technique)
}

// pathLines runs pathLine over the samples on every core, in order.
func pathLines(tb testing.TB, samples []pathSample) []string {
	lines := make([]string, len(samples))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				lines[i] = pathLine(tb, samples[i])
			}
		})
	}
	for i := range samples {
		next <- i
	}
	close(next)
	wg.Wait()
	return lines
}

// TestDump writes, for comparing two builds of the solver, a path line
// (pathLine) for -logic.dumpn puzzles, evenly spread, of every collection
// (or of those -logic.dumpsets names) to -logic.dump FILE; diff the files
// of the two builds. The whole rated file (the Sudoku Exchange puzzles):
//
//	go test ./internal/logic -run TestDump -logic.dump /tmp/a.txt -logic.dumpn 0 \
//		-logic.dumpsets sudokuexchange_diabolical_even.txt
func TestDump(t *testing.T) {
	if *dumpPath == "" {
		t.Skip("no -logic.dump")
	}
	sets := puzzletest.Collections
	if *dumpSets != "" {
		sets = strings.Split(*dumpSets, ",")
	}
	var samples []pathSample
	for _, c := range sets {
		samples = append(samples, evenSample(t, c, *dumpN)...)
	}
	lines := pathLines(t, samples)
	if err := os.WriteFile(*dumpPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
