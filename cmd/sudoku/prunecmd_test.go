package main

import (
	"strings"
	"testing"
)

// TestPruneSaysReports: `players prune` says what it does with the pruned
// players' moderation reports (deleted with them, the open ones counted),
// as its audit entry does (store's testPruneAnonymous).
func TestPruneSaysReports(t *testing.T) {
	path := sqliteArchive(t)
	if _, _, err := runCmd(t, easy+"\n", "import", "--db", path, "-"); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCmd(t, "", "players", "prune", "--anonymous", "--older-than", "90d", "--db", path)
	if err != nil || !strings.Contains(out, "0 moderation reports (0 open, deleted with them)") {
		t.Errorf("prune: %v, %q %q", err, out, stderr)
	}
}
