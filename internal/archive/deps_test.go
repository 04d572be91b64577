package archive

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoHTTPNoSQL holds the package to its rule: the archive's pipelines
// import no HTTP framework, no database/sql, no store and no page
// templates, directly or through what they import (CONTRIBUTING.md,
// Layout).
func TestNoHTTPNoSQL(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/labstack/echo", "database/sql", "/internal/store", "/internal/web", "/templates"} {
			if strings.Contains(dep, banned) {
				t.Errorf("package archive depends on %s", dep)
			}
		}
	}
}
