package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/archive"
)

// TestEveryCommandRoadCounts archives puzzles by each command's road into
// the archive (`sudoku import`, `attempts import`, `generate --archive`)
// and checks that the command's archive counted them under its road; the
// server's roads are TestEveryWebRoadCounts' (internal/web).
func TestEveryCommandRoadCounts(t *testing.T) {
	dir := t.TempDir()
	db := sqliteArchive(t)
	puzzles := filepath.Join(dir, "puzzles.txt")
	plays := filepath.Join(dir, "plays.jsonl")
	if err := os.WriteFile(puzzles, []byte(easy+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := strings.NewReplacer("5", "3", "3", "5").Replace(easy) // another puzzle: 3 and 5 swapped
	line := `{"player": "ann", "puzzle": "` + other + `", "seconds": 300, "outcome": "solved", "hints": 0, "at": "2026-01-02T10:00:00Z"}` + "\n"
	if err := os.WriteFile(plays, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		road archive.Road
		args []string
	}{
		{archive.RoadImport, []string{"import", "--db", db, puzzles}},
		{archive.RoadAttempts, []string{"attempts", "import", "--create", "--db", db, plays}},
		{archive.RoadGenerate, []string{"generate", "--band", "easy", "--count", "2", "--seed", "7", "--archive", "--db", db}},
	} {
		var made []*archive.Archive
		var out, errOut bytes.Buffer
		e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
			archived: func(a *archive.Archive) { made = append(made, a) }}
		if err := dispatch(context.Background(), e, tc.args); err != nil {
			t.Fatalf("%s: %v\n%s", tc.args[0], err, errOut.String())
		}
		if len(made) != 1 {
			t.Fatalf("%s made %d archives, want one", tc.args[0], len(made))
		}
		for _, road := range archive.Roads {
			fresh, dup := made[0].Submitted(road)
			if got, want := fresh+dup > 0, road == tc.road; got != want {
				t.Errorf("%s: road %s counted %d new, %d duplicates\n%s%s", tc.args, road, fresh, dup, out.String(), errOut.String())
			}
		}
	}
}
