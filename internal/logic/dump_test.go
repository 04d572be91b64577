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
	dumpPath = flag.String("logic.dump", "", "write each rated puzzle's grade and a hash of its path to this file")
	dumpN    = flag.Int("logic.dumpn", 2000, "rated puzzles -logic.dump covers (0: all)")
)

// TestDump writes, for comparing two versions of the solver, each rated
// puzzle's grade, technique and a hash of its step texts (-logic.dump).
func TestDump(t *testing.T) {
	if *dumpPath == "" {
		t.Skip("no -logic.dump")
	}
	rated := puzzletest.RatedPuzzles(t, *dumpN)
	lines := make([]string, len(rated))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				r, err := Solve(parse(t, rated[i].Puzzle), Options{})
				if err != nil {
					t.Error(err)
					continue
				}
				h := fnv.New64a()
				for _, st := range r.Steps {
					fmt.Fprintf(h, "%.1f %s\n", st.Grade, st.Text)
				}
				lines[i] = fmt.Sprintf("%d %.1f %.1f %v %d %x %s", i, rated[i].Rating, r.Grade, r.Floor, len(r.Steps), h.Sum64(), r.Technique)
			}
		})
	}
	for i := range rated {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := os.WriteFile(*dumpPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
