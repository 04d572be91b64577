package generate

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// BenchmarkGenerate reports, per band, puzzles/s on one goroutine and the
// candidates measured per kept puzzle. Extreme takes seconds a puzzle:
//
//	go test -run '^$' -bench Generate -benchtime 5x ./internal/generate
func BenchmarkGenerate(b *testing.B) {
	for _, bi := range sudoku.Bands {
		b.Run(string(bi.Band), func(b *testing.B) {
			cands := 0
			start := time.Now()
			for i := range b.N {
				_, st, err := Generate(context.Background(), Request{Target: Target{Band: bi.Band}, Seed: SeedFor(1, i)})
				if err != nil {
					b.Fatal(err)
				}
				cands += st.Candidates
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "puzzles/s")
			b.ReportMetric(float64(cands)/float64(b.N), "candidates/puzzle")
		})
	}
}

func TestTargetValidate(t *testing.T) {
	for _, tc := range []struct {
		t  Target
		ok bool
	}{
		{Target{Band: "hard"}, true},
		{Target{Band: "brutal"}, false},
		{Target{MinGrade: 2, MaxGrade: 4}, true},
		{Target{MinGrade: 4, MaxGrade: 2}, false},
		{Target{}, false},
		{Target{Band: "hard", MinGrade: 1, MaxGrade: 2}, false},
		{Target{MinGrade: 0.5, MaxGrade: 2}, false},
		{Target{MinGrade: math.NaN(), MaxGrade: 8}, false},
		{Target{MinGrade: 2, MaxGrade: math.NaN()}, false},
		{Target{MinGrade: math.NaN(), MaxGrade: math.NaN()}, false},
		{Target{MinGrade: 2, MaxGrade: math.Inf(1)}, false},
	} {
		if err := tc.t.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: %v", tc.t, err)
		}
	}
	if got, err := ParseGrade("--grade", "7-8.5"); err != nil || got.MinGrade != 7 || got.MaxGrade != 8.5 {
		t.Errorf("ParseGrade: %+v %v", got, err)
	}
	for _, bad := range []string{"nan-8", "NaN", "2-inf", "-Inf-3", "1e1", "0x8", "+7", "7.", "8-7", "0.5-2", "2-12.1"} {
		if got, err := ParseGrade("--grade", bad); err == nil {
			t.Errorf("ParseGrade(%q) = %+v, want an error", bad, got)
		}
	}
}

// TestGenerateSeed: the same request gives the same puzzle.
func TestGenerateSeed(t *testing.T) {
	r := Request{Target: Target{MinGrade: 3, MaxGrade: 5}, Seed: 9}
	a, _, err := Generate(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Generate(t.Context(), r)
	if a.Givens != b.Givens || a.Grade == nil || *a.Grade < 3 || *a.Grade > 5 {
		t.Errorf("%s grade %v, then %s", a.Givens, a.Grade, b.Givens)
	}
}

func TestGenerateMaxCandidates(t *testing.T) {
	_, st, err := Generate(t.Context(), Request{Target: Target{Band: "extreme"}, Seed: 1, MaxCandidates: 5})
	if _, ok := err.(*MissError); !ok || st.Candidates != 5 {
		t.Errorf("err %v after %d candidates", err, st.Candidates)
	}
}

// TestGenerateBandGrades: a band target gives puzzles whose grade lies in
// the band's range (sudoku.Bands), so an extreme puzzle is graded above
// 6.6, hard for a person, whatever its backtracks.
func TestGenerateBandGrades(t *testing.T) {
	n := 3
	if testing.Short() {
		n = 1
	}
	for _, bi := range sudoku.Bands {
		for i := range n {
			p, _, err := Generate(t.Context(), Request{Target: Target{Band: bi.Band}, Seed: SeedFor(11, i)})
			if err != nil {
				t.Fatalf("%s: %v", bi.Band, err)
			}
			g := p.GradeTenths()
			if p.Grade == nil || g < bi.Min || g > bi.Max || p.Band != bi.Band || !p.Unique {
				t.Errorf("%s puzzle %s: grade %v (band %q, %d backtracks), want %s", bi.Band, p.Givens, p.Grade, p.Band, p.Backtracks, bi.Range())
			}
			if bi.Band == sudoku.BandExtreme && *p.Grade <= 6.6 {
				t.Errorf("extreme puzzle %s graded %.1f", p.Givens, *p.Grade)
			}
		}
	}
}
