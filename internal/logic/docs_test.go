package logic

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The generated tables sit between these marks in their files.
const (
	docsBegin = "<!-- techniques: generated from the technique table (internal/logic/techniques.go); go test ./internal/logic -run TestTechniqueDocs -update -->\n"
	docsEnd   = "<!-- end of techniques -->\n"
	codeBegin = "// The table (generated from techniques.go; go test -run TestTechniqueDocs -update):\n//\n"
	codeEnd   = "//\n// (end of the table)\n"
)

// TestTechniqueDocs checks that the technique tables of docs/engine.md and
// doc.go are the technique table's (-update rewrites them).
func TestTechniqueDocs(t *testing.T) {
	for _, f := range []struct {
		path, begin, end, table string
	}{
		{"../../docs/engine.md", docsBegin, docsEnd, techniqueMarkdown()},
		{"doc.go", codeBegin, codeEnd, techniqueText()},
	} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		i := strings.Index(text, f.begin)
		j := strings.Index(text, f.end)
		if i < 0 || j < i {
			t.Fatalf("%s: no generated table between %q and %q", f.path, f.begin, f.end)
		}
		got := text[i+len(f.begin) : j]
		if got == f.table {
			continue
		}
		if !*update {
			t.Errorf("%s: the technique table differs from techniques.go (-update rewrites it); want:\n%s", f.path, f.table)
			continue
		}
		text = text[:i+len(f.begin)] + f.table + text[j:]
		if err := os.WriteFile(f.path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gradeText writes a technique's grade as the docs show it: "2.6",
// "4.6–4.8", or "6.5+" for a chain.
func (t technique) gradeText() string {
	switch {
	case t.chain:
		return fmt.Sprintf("%.1f+", t.grade)
	case t.top != 0:
		return fmt.Sprintf("%.1f–%.1f", t.grade, t.top)
	}
	return fmt.Sprintf("%.1f", t.grade)
}

// techniqueMarkdown is the table of docs/engine.md: one row per technique.
func techniqueMarkdown() string {
	var b strings.Builder
	b.WriteString("| technique | grade | note | file |\n| --- | --- | --- | --- |\n")
	for _, r := range ladder {
		for _, t := range r.techniques {
			fmt.Fprintf(&b, "| %s | %s | %s | `%s` |\n", t.name, t.gradeText(), t.note, r.file)
		}
	}
	return b.String()
}

// techniqueText is the table of the package documentation (doc.go).
func techniqueText() string {
	var b strings.Builder
	b.WriteString("//\ttechnique                     grade      file\n")
	for _, r := range ladder {
		for _, t := range r.techniques {
			line := fmt.Sprintf("//\t%-29s %-10s %s", t.name, t.gradeText(), r.file)
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	return b.String()
}
