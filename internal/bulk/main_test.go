package bulk

import (
	"os"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
)

// TestMain stops the shared PostgreSQL cluster the tests' databases live
// on.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}
