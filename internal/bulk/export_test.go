package bulk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// filled returns an archive holding the first n norvig_easy50 puzzles (49
// distinct) with submission times set, as the store would.
func filled(t *testing.T, n int) *fakeArchive {
	t.Helper()
	text, _ := collection(t, puzzletest.Norvig, n)
	a := newFakeArchive()
	if _, err := Import(context.Background(), a, []Input{{"n", strings.NewReader(text)}}, Options{}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 10, 0, 0, 123456789, time.UTC)
	for i := range a.puzzles {
		a.puzzles[i].SubmittedAt = at.Add(time.Duration(i) * time.Second)
	}
	return a
}

// TestExportRoundTrip exports in each format, imports the export into a
// fresh archive and compares: same puzzles, same solutions, same measures
// (but solve_ns, which is timed anew, and the submission time and count).
func TestExportRoundTrip(t *testing.T) {
	src := filled(t, 50)
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			var out bytes.Buffer
			q := record.ListQuery{Sort: record.SortSubmitted}
			n, err := Export(context.Background(), src, &out, f, q)
			if err != nil {
				t.Fatal(err)
			}
			if n != 49 {
				t.Errorf("exported %d puzzles, want 49", n)
			}
			dst := newFakeArchive()
			var rej rejected
			sum, err := Import(context.Background(), dst, []Input{{"export" + f.Ext(), &out}}, Options{Reject: rej.add})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Imported != 49 || sum.Duplicates != 0 || sum.Rejected != 0 {
				t.Errorf("re-import summary %v (rejections %q), want 49 imported", sum, rej.lines)
			}
			// Submission time and count belong to the new archive.
			ignore := cmpopts.IgnoreFields(record.Puzzle{}, "SolveNS", "SubmittedAt", "Submissions")
			if diff := cmp.Diff(src.puzzles, dst.puzzles, ignore); diff != "" {
				t.Errorf("round trip (-exported +imported):\n%s", diff)
			}
		})
	}
}

func TestExportFormats(t *testing.T) {
	src := filled(t, 2)
	ps := src.puzzles
	t.Run("txt", func(t *testing.T) {
		var out bytes.Buffer
		if _, err := Export(context.Background(), src, &out, TXT, record.ListQuery{Sort: record.SortSubmitted}); err != nil {
			t.Fatal(err)
		}
		want := ps[0].Givens.String() + "\n" + ps[1].Givens.String() + "\n"
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("txt (-want +got):\n%s", diff)
		}
	})
	t.Run("csv", func(t *testing.T) {
		var out bytes.Buffer
		if _, err := Export(context.Background(), src, &out, CSV, record.ListQuery{Sort: record.SortSubmitted}); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		p := ps[1]
		want := [][]string{CSVHeader, nil, {
			"2", p.Givens.String(), p.Solution.String(), itoa(int64(p.Clues)), "1", "true", string(p.Band),
			itoa(p.Backtracks), itoa(p.Guesses), itoa(p.Nodes), itoa(p.SolveNS), sudoku.EngineVersion,
			"2026-11-21T10:00:01.123456789Z", "1", p.Canonical.String(), "", "", "false", "", "", "", "", "pending", "0", "", "", "", "", "", "", "", "", "", "", "",
		}}
		if len(recs) != 3 {
			t.Fatalf("csv has %d records, want a header and 2 rows", len(recs))
		}
		recs[1] = nil
		if diff := cmp.Diff(want, recs); diff != "" {
			t.Errorf("csv (-want +got):\n%s", diff)
		}
	})
	t.Run("json", func(t *testing.T) {
		var out bytes.Buffer
		if _, err := Export(context.Background(), src, &out, JSON, record.ListQuery{Sort: record.SortSubmitted}); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(&out)
		var got []record.Puzzle
		for sc.Scan() {
			var p record.Puzzle
			if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
				t.Fatalf("line %q: %v", sc.Text(), err)
			}
			got = append(got, p)
		}
		if diff := cmp.Diff(ps, got); diff != "" {
			t.Errorf("json lines (-want +got):\n%s", diff)
		}
	})
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// queryRecorder checks that Export asks for the caller's order and keeps
// the order it is given.
type queryRecorder struct {
	q  record.ListQuery
	ps []record.Puzzle
}

func (r *queryRecorder) Export(_ context.Context, q record.ListQuery, fn func(record.Puzzle) error) error {
	r.q = q
	for _, p := range r.ps {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func TestExportKeepsOrder(t *testing.T) {
	src := filled(t, 50)
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			q := record.ListQuery{Sort: s, Desc: desc}
			var want bytes.Buffer
			rec := &queryRecorder{}
			src.Export(context.Background(), q, func(p record.Puzzle) error {
				rec.ps = append(rec.ps, p)
				want.WriteString(p.Givens.String() + "\n")
				return nil
			})
			var out bytes.Buffer
			if _, err := Export(context.Background(), rec, &out, TXT, q); err != nil {
				t.Fatal(err)
			}
			if rec.q != q {
				t.Errorf("asked the source for %+v, want %+v", rec.q, q)
			}
			if out.String() != want.String() {
				t.Errorf("sort %s desc %v: export changed the source's order", s, desc)
			}
		}
	}
}

type failWriter struct{}

var errDiskFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestExportWriteFails(t *testing.T) {
	src := filled(t, 50)
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			_, err := Export(context.Background(), src, failWriter{}, f, record.ListQuery{})
			if !errors.Is(err, errDiskFull) {
				t.Errorf("err = %v, want the writer's error", err)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("ParseFormat(xml) succeeded")
	}
}

// TestAppendJSON checks the export's JSON lines against json.Marshal of
// the puzzle object: the same values under the same keys, and the keys
// the object leaves out when zero (id, technique, ...) at their zero.
func TestAppendJSON(t *testing.T) {
	for name, p := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			want, wantErr := json.Marshal(p)
			got, err := appendJSON([]byte("x"), p)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("err = %v, json.Marshal's = %v", err, wantErr)
			}
			if err != nil {
				return
			}
			var gotMap, wantMap map[string]any
			if err := json.Unmarshal(got[1:], &gotMap); err != nil {
				t.Fatalf("appendJSON wrote %s: %v", got[1:], err)
			}
			if err := json.Unmarshal(want, &wantMap); err != nil {
				t.Fatal(err)
			}
			for k, v := range wantMap {
				if !reflect.DeepEqual(gotMap[k], v) {
					t.Errorf("%s: appendJSON %v, json.Marshal %v", k, gotMap[k], v)
				}
			}
			for k, v := range gotMap {
				if _, ok := wantMap[k]; !ok && v != "" && v != float64(0) {
					t.Errorf("%s: appendJSON %v where json.Marshal leaves it out as zero", k, v)
				}
			}
		})
	}
}

// exportCases are puzzles with every kind of value the writers meet.
func exportCases(t *testing.T) map[string]record.Puzzle {
	g, _ := sudoku.Parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	full, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ann := "Ann"
	full.ID, full.Submissions = 42, 3
	full.SubmittedAt = time.Date(2026, 11, 21, 10, 0, 0, 120000000, time.UTC)
	full.Collections, full.SubmittedBy = record.IDsOf(3, 12), &ann
	with := func(f func(p *record.Puzzle)) record.Puzzle { p := full; f(&p); return p }
	version := func(v string) record.Puzzle { return with(func(p *record.Puzzle) { p.EngineVersion = v }) }
	odd := func(v string) record.Puzzle { return with(func(p *record.Puzzle) { p.SubmittedBy = &v }) }
	return map[string]record.Puzzle{
		"zero":             {},
		"full":             full,
		"no id":            with(func(p *record.Puzzle) { p.ID, p.Submissions, p.SubmittedAt = 0, 0, time.Time{} }),
		"negative numbers": with(func(p *record.Puzzle) { p.ID, p.Backtracks, p.SolveNS = -1, -2, -3 }),
		"not unique":       with(func(p *record.Puzzle) { p.Unique, p.Solutions = false, 2 }),
		"escaped version":  version("<\"x\">\n\u00e9"),
		"zone":             with(func(p *record.Puzzle) { p.SubmittedAt = p.SubmittedAt.In(time.FixedZone("x", -5*3600-30*60)) }),
		"whole second":     with(func(p *record.Puzzle) { p.SubmittedAt = p.SubmittedAt.Truncate(time.Second) }),
		"year 10000":       with(func(p *record.Puzzle) { p.SubmittedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }),
		"no collections":   with(func(p *record.Puzzle) { p.Collections, p.SubmittedBy = "", nil }),
		"empty version":    version(""),
		"inner space":      version("v 1"),
		"comma":            version("1,2"),
		"quote":            version(`say "x"`),
		"newline":          version("a\nb"),
		"carriage return":  version("a\rb"),
		"leading space":    version(" v1"),
		"leading tab":      version("\tv1"),
		"backslash dot":    version(`\.`),
		"non-ascii":        version("\u00e9"),
		"unicode space":    version("\u00a0v1"),
		"odd band":         with(func(p *record.Puzzle) { p.Band = "a,b" }),
		"odd name":         odd("O'Brien, \"the\" setter"),
		"html name":        odd("<b>&</b>"),
	}
}

// TestAppendCSV checks the export's CSV rows against encoding/csv writing
// each field's text: the same bytes, quoted where encoding/csv quotes.
func TestAppendCSV(t *testing.T) {
	for name, p := range exportCases(t) {
		if p.SubmittedAt.Year() > 9999 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			row := make([]string, len(Fields))
			for i, f := range Fields {
				row[i] = string(f.text(nil, &p))
			}
			var want bytes.Buffer
			cw := csv.NewWriter(&want)
			if err := cw.Write(row); err != nil {
				t.Fatal(err)
			}
			cw.Flush()
			if got := appendCSV([]byte("x"), p); string(got) != "x"+want.String() {
				t.Errorf("appendCSV:\n%q\nencoding/csv:\n%q", got[1:], want.String())
			}
			var out bytes.Buffer
			if _, err := Export(context.Background(), sliceSource{p}, &out, CSV, record.ListQuery{}); err != nil {
				t.Fatal(err)
			}
			header := strings.Join(CSVHeader, ",") + "\n"
			if out.String() != header+want.String() {
				t.Errorf("Export:\n%q\nwant:\n%q", out.String(), header+want.String())
			}
		})
	}
}

// TestFieldsArePuzzleObject: the export carries every figure of the
// puzzle object, and nothing else, so a figure added to record.Puzzle
// without its row in Fields fails here.
func TestFieldsArePuzzleObject(t *testing.T) {
	name := "x"
	g := 1.0
	id := int64(1)
	p := record.Puzzle{ID: 1, EngineVersion: "1", SubmittedAt: time.Now(), Submissions: 1, Technique: "t", SameAs: &id,
		Grade: &g, GradeEP: &g, GradeED: &g, SubmittedBy: &name, Collections: "1",
		Title: "t", Author: "a", FPuzzles: "f", SudokuPad: "s"}
	j, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(j, &m); err != nil {
		t.Fatal(err)
	}
	var object []string
	for k := range m {
		object = append(object, k)
	}
	slices.Sort(object)
	fields := slices.Clone(CSVHeader)
	slices.Sort(fields)
	if diff := cmp.Diff(object, fields); diff != "" {
		t.Errorf("the puzzle object's keys (-) and the export's Fields (+) differ:\n%s", diff)
	}
	for _, f := range Fields {
		if f.Type == "" || f.Doc == "" {
			t.Errorf("field %s has no type or description for /data", f.Name)
		}
	}
}

// sliceSource is a Source holding the puzzles given, in that order.
type sliceSource []record.Puzzle

func (s sliceSource) Export(_ context.Context, _ record.ListQuery, fn func(record.Puzzle) error) error {
	for _, p := range s {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func BenchmarkAppendCSV(b *testing.B) {
	g, _ := sudoku.Parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	p, _ := record.Rate(g, sudoku.Options{})
	p.ID, p.SubmittedAt, p.Submissions = 123456, time.Now().UTC(), 1
	var buf []byte
	for b.Loop() {
		buf = appendCSV(buf[:0], p)
	}
}

func BenchmarkAppendJSON(b *testing.B) {
	g, _ := sudoku.Parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	p, _ := record.Rate(g, sudoku.Options{})
	p.ID, p.SubmittedAt, p.Submissions = 123456, time.Now().UTC(), 1
	var buf []byte
	for b.Loop() {
		buf, _ = appendJSON(buf[:0], p)
	}
}
