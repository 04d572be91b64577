package templates

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// docPictures is where docs/variants.md's pictures of the rules are: one
// standalone SVG a rule type, drawn by the board's own code (DrawVariant,
// variantShape) so the docs show what a solver sees.
const docPictures = "../docs/img/variants"

// TestDocPictures draws each rule type's first example of
// internal/variant/testdata/puzzles.txt as a standalone SVG and compares
// it with docs/img/variants/<type>.svg, so the docs never drift from the
// board's drawing or its colours (go test ./templates -run DocPictures
// -update rewrites them). The rules drawn as nothing (anti-knight,
// anti-king, non-consecutive: words alone) get no picture.
func TestDocPictures(t *testing.T) {
	style, err := docStyle("../static/css/variant.css")
	if err != nil {
		t.Fatal(err)
	}
	examples := firstExamples(t)
	want := map[string]bool{}
	for _, ty := range variant.Types {
		p, ok := examples[ty]
		if !ok {
			t.Errorf("no example of %s in puzzles.txt", ty)
			continue
		}
		d := DrawVariant(p)
		if len(d.Under) == 0 && len(d.Over) == 0 && !d.Jigsaw {
			continue
		}
		name := string(ty) + ".svg"
		want[name] = true
		got, err := docSVG(p, d, style)
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(got); err != nil {
			t.Errorf("%s is not well-formed XML: %v", name, err)
		}
		if len(got) > 20<<10 {
			t.Errorf("%s is %d bytes, over 20 KiB", name, len(got))
		}
		checkGolden(t, filepath.Join(docPictures, name), got)
	}
	// Every picture is shown in the docs.
	doc, err := os.ReadFile("../docs/variants.md")
	if err != nil {
		t.Fatal(err)
	}
	for name := range want {
		if !bytes.Contains(doc, []byte("(img/variants/"+name+")")) {
			t.Errorf("docs/variants.md does not show img/variants/%s", name)
		}
	}
	// A picture of a rule no longer drawn is stale.
	files, _ := filepath.Glob(filepath.Join(docPictures, "*.svg"))
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s draws no rule type with a drawing; remove it", f)
		}
	}
}

// checkGolden compares got with the file at path, rewriting it first
// with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(have, got) {
		t.Errorf("%s differs from the board's drawing (go test ./templates -run DocPictures -update rewrites it)", path)
	}
}

// wellFormed reports whether data reads as XML to its end: a viewer
// shows nothing of an SVG that does not.
func wellFormed(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := dec.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// firstExamples returns each rule type's first test puzzle (named
// "<type>-1" in the variant test set).
func firstExamples(t *testing.T) map[variant.Type]variant.Puzzle {
	t.Helper()
	out := map[variant.Type]variant.Puzzle{}
	for name, p := range varianttest.Puzzles(t) {
		if ty, ok := strings.CutSuffix(name, "-1"); ok {
			out[variant.Type(ty)] = p
		}
	}
	return out
}

// docSVG writes puzzle p with its drawing d as one SVG: white paper, the
// blended layer (nothing under it but the paper, so no blending is
// needed), the grid's thin and thick lines (the regions' for a jigsaw),
// the givens, then the opaque layer. A margin holds clues outside the
// grid, as the board's does.
func docSVG(p variant.Puzzle, d *VariantDrawing, style string) ([]byte, error) {
	lo, side := -4.0, 908.0
	if d.Outside {
		lo, side = -80, 1060
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s %s %s %s" width="%s" height="%s">`+"\n",
		unit(lo), unit(lo), unit(side), unit(side), unit(side*0.4), unit(side*0.4))
	b.WriteString("<style>\n" + style + "</style>\n")
	fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="#fff"/>`+"\n", unit(lo), unit(lo), unit(side), unit(side))
	ctx := context.Background()
	for _, s := range d.Under {
		if err := variantShape(s).Render(ctx, &b); err != nil {
			return nil, err
		}
		b.WriteString("\n")
	}
	b.WriteString(gridLines(d))
	b.WriteString(`<g class="given">`)
	for i, v := range p.Givens {
		if v != 0 {
			c := centre(variant.Cell(i))
			fmt.Fprintf(&b, `<text x="%s" y="%s">%d</text>`, unit(c.X), unit(c.Y+21), v)
		}
	}
	b.WriteString("</g>\n")
	for _, s := range d.Over {
		if err := variantShape(s).Render(ctx, &b); err != nil {
			return nil, err
		}
		b.WriteString("\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// gridLines is the grid's lines: thin between every two cells, thick
// round the grid and where two boxes (or a jigsaw's regions) meet, as the
// board draws its cells' borders (data-edge).
func gridLines(d *VariantDrawing) string {
	var thin, thick strings.Builder
	for k := 1; k < 9; k++ {
		fmt.Fprintf(&thin, "M%d 0V900M0 %dH900", k*cellUnits, k*cellUnits)
	}
	for i := range 81 {
		edge := ""
		if attrs := cellEdge(d, i); attrs != nil {
			edge, _ = attrs["data-edge"].(string)
		}
		x, y := i%9*cellUnits, i/9*cellUnits
		for _, side := range strings.Fields(edge) {
			if side == "r" {
				fmt.Fprintf(&thick, "M%d %dv%d", x+cellUnits, y, cellUnits)
			} else {
				fmt.Fprintf(&thick, "M%d %dh%d", x, y+cellUnits, cellUnits)
			}
		}
	}
	return `<path class="thin" d="` + thin.String() + `"/>` + "\n" +
		`<path class="thick" d="` + thick.String() + `"/>` + "\n" +
		`<rect class="thick" x="0" y="0" width="900" height="900"/>` + "\n"
}

var (
	cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	cssVar     = regexp.MustCompile(`var\((--[a-z0-9-]+)\)`)
	cssDecl    = regexp.MustCompile(`(--v-[a-z0-9-]+):\s*([^;]+);`)
)

// docStyle is the drawing's style for a standalone SVG: the rules of
// static/css/variant.css for the shapes (the classes that begin ".v-"),
// with the light theme's colours (the first .variant-overlay block's)
// written in, since an SVG shown as an image in a Markdown viewer has
// neither the page's stylesheet nor, in every viewer, custom properties.
// Then the grid and the givens, in the board's light colours.
func docStyle(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	css := cssComment.ReplaceAllString(string(data), "")
	vars := map[string]string{}
	var rules strings.Builder
	for _, blk := range cssBlocks(css) {
		sel, body := blk[0], blk[1]
		if sel == ".variant-overlay" && len(vars) == 0 {
			for _, m := range cssDecl.FindAllStringSubmatch(body, -1) {
				vars[m[1]] = strings.TrimSpace(m[2])
			}
		}
		if shapeRule(sel) {
			rules.WriteString(sel + " {" + body + "}\n")
		}
	}
	var missing []string
	out := cssVar.ReplaceAllStringFunc(rules.String(), func(v string) string {
		name := cssVar.FindStringSubmatch(v)[1]
		if val, ok := vars[name]; ok {
			return val
		}
		missing = append(missing, name)
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("%s: no light colour for %v", path, missing)
	}
	return out + `text { font-family: sans-serif; }
.thin { stroke: #999; stroke-width: 2; fill: none; }
.thick { stroke: #111; stroke-width: 6; fill: none; stroke-linecap: square; }
.given text { fill: #111; font-size: 60px; text-anchor: middle; }
`, nil
}

// shapeRule reports whether a selector list names shape classes alone.
func shapeRule(sel string) bool {
	for _, s := range strings.Split(sel, ",") {
		if !strings.HasPrefix(strings.TrimSpace(s), ".v-") {
			return false
		}
	}
	return true
}

// cssBlocks splits a stylesheet without comments into its top-level
// blocks, each its selector and its body (an at-rule's body holds blocks
// of its own and is kept whole, its selector beginning "@").
func cssBlocks(css string) [][2]string {
	var out [][2]string
	depth, start, open := 0, 0, 0
	for i, ch := range css {
		switch ch {
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			depth--
			if depth == 0 {
				sel := strings.Join(strings.Fields(css[start:open]), " ")
				out = append(out, [2]string{sel, css[open+1 : i]})
				start = i + 1
			}
		}
	}
	return out
}

// TestDocStyle checks the light colours reach the shapes' rules.
func TestDocStyle(t *testing.T) {
	style, err := docStyle("../static/css/variant.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".v-thermo-bulb {", "fill: #c8c8c8;", ".v-odd, .v-even {"} {
		if !strings.Contains(style, want) {
			t.Errorf("style lacks %q:\n%s", want, style)
		}
	}
	if strings.Contains(style, "var(") || strings.Contains(style, "#363b47") {
		t.Errorf("style keeps a custom property or a dark colour:\n%s", style)
	}
}
