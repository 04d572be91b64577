package bulk

import (
	"context"
	"strings"
	"testing"
)

// TestImportText: a text held in memory goes through Import's own reading
// (comments, blank lines, "\r" ends, a CSV export's header row), repeats
// are rated once and counted as duplicates, rejected lines are numbered as
// in the text, and everything is stored in one SubmitMany. Each chunk is
// rated in a turn of Slot.
func TestImportText(t *testing.T) {
	const (
		a = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
		b = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	)
	body := "# a comment\r\n" + a + "\r" + "nonsense\n\n" + b + "\n" + a + "\n" + "nonsense\n"
	sink := newFakeArchive()
	turns := 0
	slot := func(_ context.Context, fn func() error) error { turns++; return fn() }
	sum, rej, err := ImportText(t.Context(), sink, "upload.txt", []byte(body), TextOptions{Slot: slot, Chunk: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 2 || sum.Duplicates != 1 || sum.Rejected != 2 {
		t.Errorf("summary %+v", sum)
	}
	if len(rej) != 2 || rej[0].Line != 3 || rej[1].Line != 7 || rej[0].Input != "upload.txt" {
		t.Errorf("rejections %v", rej)
	}
	if turns != 3 { // lines 1-2, 3-4, 5-6 have lines to rate; 7 repeats line 3's text
		t.Errorf("%d turns of the slot, want 3", turns)
	}

	csv := "id,puzzle,clues\n1," + a + ",28\n2,\"" + b + "\",30\n3,xyz,1\n"
	sink = newFakeArchive()
	sum, rej, err = ImportText(t.Context(), sink, "export.csv", []byte(csv), TextOptions{Chunk: 1})
	if err != nil || sum.Imported != 2 || len(rej) != 1 || rej[0].Line != 4 || !strings.Contains(rej[0].Err.Error(), "position") {
		t.Errorf("CSV export: %+v %v %v", sum, rej, err)
	}
}
