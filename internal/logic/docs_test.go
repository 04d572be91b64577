package logic

import (
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
