package templates

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/logic"
)

// drawnSteps are steps as the solver writes them: an X-Chain (a chain of
// nodes: strong, weak, strong links), a 2-String Kite (a chain of strong
// links, one node grouped over two cells) and an XY-Wing (no links: its
// digits ringed in its cells).
func drawnSteps() []logic.Step {
	node := func(c, d int, on bool) logic.Node {
		return logic.Node{Candidate: logic.Candidate{Cell: c, Digit: d}, On: on}
	}
	xchain := logic.Step{Technique: logic.XChain, Cells: []int{0, 8, 72, 80}, Digits: []int{5},
		Chain:        []logic.Node{node(0, 5, false), node(8, 5, true), node(80, 5, false), node(72, 5, true)},
		Eliminations: []logic.Candidate{{Cell: 36, Digit: 5}}}
	kite := logic.Step{Technique: logic.TwoStringKite, Cells: []int{1, 2, 7, 70}, Digits: []int{3},
		Chain:        []logic.Node{node(1, 3, false), node(2, 3, false), node(7, 3, true), node(70, 3, false), node(61, 3, true)},
		Eliminations: []logic.Candidate{{Cell: 64, Digit: 3}}}
	wing := logic.Step{Technique: logic.XYWing, Cells: []int{10, 13, 37}, Digits: []int{4, 7},
		Eliminations: []logic.Candidate{{Cell: 40, Digit: 7}}}
	return []logic.Step{xchain, kite, wing}
}

// drawnCands: every digit a candidate of every cell.
func drawnCands() [81]uint16 {
	var c [81]uint16
	for i := range c {
		c[i] = 0x3FE
	}
	return c
}

// TestStepOverlayGolden renders the drawings of drawnSteps and compares
// them with testdata/step_overlay.golden (go test ./templates -run Golden
// -update rewrites it).
func TestStepOverlayGolden(t *testing.T) {
	var buf bytes.Buffer
	for _, st := range drawnSteps() {
		if err := stepOverlay(DrawStep(st, drawnCands())).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		buf.WriteString("\n")
	}
	got := strings.ReplaceAll(buf.String(), "><", ">\n<")
	path := filepath.Join("testdata", "step_overlay.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("drawings differ from %s (-want +got):\n%s", path, d)
	}
}

// TestStepOverlayDOM: the X-Chain draws three links between its four
// candidates, strong, weak, strong, ring to ring, and crosses out its
// elimination; the kite draws its grouped node from its first cell; the
// wing rings its two digits in its three cells and draws no line.
func TestStepOverlayDOM(t *testing.T) {
	steps := drawnSteps()
	doc, _ := render(t, stepOverlay(DrawStep(steps[0], drawnCands())))
	lines := doc.Find("line.chain-link")
	if lines.Length() != 3 {
		t.Fatalf("%d links drawn, want 3", lines.Length())
	}
	for i, want := range []struct{ class, from, to string }{{"chain-strong", "0-5", "8-5"}, {"chain-weak", "8-5", "80-5"}, {"chain-strong", "80-5", "72-5"}} {
		l := lines.Eq(i)
		if !l.HasClass(want.class) || l.AttrOr("data-from", "") != want.from || l.AttrOr("data-to", "") != want.to {
			t.Errorf("link %d: class %q from %s to %s, want %+v", i, l.AttrOr("class", ""), l.AttrOr("data-from", ""), l.AttrOr("data-to", ""), want)
		}
	}
	// A 5 sits in the middle of its cell: r1c1's at (50, 50), and the
	// first link starts a ring's radius to its right.
	if x1 := lines.Eq(0).AttrOr("x1", ""); x1 != "64.0" {
		t.Errorf("first link starts at x %s, want 64.0 (ring to ring)", x1)
	}
	if n := doc.Find("circle.chain-node").Length(); n != 4 {
		t.Errorf("%d candidates ringed, want 4", n)
	}
	if doc.Find("path.chain-cross").AttrOr("data-cand", "") != "36-5" {
		t.Error("the elimination is not crossed out")
	}
	doc, _ = render(t, stepOverlay(DrawStep(steps[1], drawnCands())))
	if got := doc.Find("line.chain-link").First().AttrOr("data-from", ""); got != "1-3" {
		t.Errorf("kite's first link from %s, want the group's first cell 1-3", got)
	}
	doc, _ = render(t, stepOverlay(DrawStep(steps[2], drawnCands())))
	if doc.Find("line").Length() != 0 || doc.Find("circle.chain-node").Length() != 6 {
		t.Errorf("wing: %d lines, %d rings; want 0 and 6", doc.Find("line").Length(), doc.Find("circle.chain-node").Length())
	}
}
