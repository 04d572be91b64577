package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// swapDigits writes p with the digits a and b exchanged: other givens.
func swapDigits(p string, a, b rune) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case a:
			return b
		case b:
			return a
		}
		return r
	}, p)
}

func TestImportCollection(t *testing.T) { eachArchive(t, testImportCollection) }

// testImportCollection: import --collection files every puzzle of the
// import under the collection (made with its credits when new), archived
// already or not; a second import adds to it without counting twice.
func testImportCollection(t *testing.T, db string) {
	dir := t.TempDir()
	one, two, three := easy, swapDigits(easy, '1', '2'), swapDigits(easy, '3', '4')
	first := filepath.Join(dir, "first.txt")
	second := filepath.Join(dir, "second.txt")
	os.WriteFile(first, []byte(one+"\n"+two+"\n"), 0o644)
	os.WriteFile(second, []byte("https://www.sudokuwiki.org/sudoku.htm?bd="+strings.ReplaceAll(two, ".", "0")+"\n"+three+"\n"), 0o644)
	// one is archived before, outside the collection.
	if _, errOut, err := runCmd(t, one+"\n", "import", "--db", db, "-"); err != nil {
		t.Fatalf("import: %v %s", err, errOut)
	}
	out, errOut, err := runCmd(t, "", "import", "--db", db, "--collection", "Pearls", "--author", "Tarek", "--source", "forum", "--licence", "CC BY 4.0", first)
	if err != nil || !strings.HasPrefix(out, "imported 1, duplicates 1, rejected 0 ") || !strings.Contains(errOut, "made collection 1: Pearls") {
		t.Fatalf("import into a new collection: %v, %q, %q", err, out, errOut)
	}
	out, errOut, err = runCmd(t, "", "import", "--db", db, "--collection", "pearls", "--author", "ignored", second)
	if err != nil || !strings.HasPrefix(out, "imported 1, duplicates 1, rejected 0 ") || strings.Contains(errOut, "made collection") {
		t.Fatalf("import into it again: %v, %q, %q", err, out, errOut)
	}

	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.CollectionNamed(ctx, "Pearls")
	if err != nil || c.Puzzles != 3 || c.Author != "Tarek" || c.Source != "forum" || c.Licence != "CC BY 4.0" || c.Owner != nil {
		t.Fatalf("collection %+v, %v", c, err)
	}
	page, err := s.List(ctx, record.ListQuery{Collection: c.ID, Sort: record.SortSubmitted})
	s.Close()
	if err != nil || page.Total != 3 {
		t.Fatalf("listing: %+v, %v", page, err)
	}

	// The export carries each puzzle's collections.
	out, _, err = runCmd(t, "", "export", "--db", db, "--format", "json", "--sort", "submitted", "--order", "asc")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var p struct {
			Collections []int64 `json:"collections"`
			SubmittedBy *string `json:"submitted_by"`
		}
		if err := json.Unmarshal([]byte(line), &p); err != nil || len(p.Collections) != 1 || p.Collections[0] != c.ID || p.SubmittedBy != nil {
			t.Errorf("export line %d: %s (%v)", i+1, line, err)
		}
	}
}

func TestImportCollectionErrors(t *testing.T) {
	// An archive already there (a migrated copy): the refusals are of the
	// flags, not of a first run, and the export below then proves nothing
	// was archived instead of failing on a missing file.
	db := sqliteArchive(t)
	f := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(f, []byte(easy+"\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"credits without a name", []string{"import", "--db", db, "--author", "A", f}, "give its name"},
		{"name too long", []string{"import", "--db", db, "--collection", strings.Repeat("n", 101), f}, "at most 100"},
		{"control character", []string{"import", "--db", db, "--collection", "a\x01b", f}, "control character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCmd(t, "", tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
				t.Errorf("err = %v (exit %d), want exit 2 with %q", err, exitCode(err), tc.want)
			}
		})
	}
	// Nothing was archived by the refused imports.
	if out, _, err := runCmd(t, "", "export", "--db", db); err != nil || out != "" {
		t.Errorf("archive holds %q (%v)", out, err)
	}
}
