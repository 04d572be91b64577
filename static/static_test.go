package static

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestStylesheetsListed: every file of css/ is a part of the stylesheet,
// listed once, and every listed part exists, so a new file cannot be left
// out of the page unseen.
func TestStylesheetsListed(t *testing.T) {
	files, err := fs.Glob(FS, "css/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimPrefix(f, "css/")
		n := 0
		for _, s := range Stylesheets {
			if s == name {
				n++
			}
		}
		if n != 1 {
			t.Errorf("css/%s is listed %d times in Stylesheets, want once", name, n)
		}
	}
	for _, name := range Stylesheets {
		if !slices.Contains(files, "css/"+name) {
			t.Errorf("Stylesheets lists %s, which css/ does not hold", name)
		}
	}
	css, err := Stylesheet()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(css), "/*") || !strings.Contains(string(css), "--band-easy") {
		t.Errorf("the joined stylesheet does not start with the design tokens: %.80q", css)
	}
}
