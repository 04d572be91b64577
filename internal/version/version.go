// Package version says which build of sudoku is running: its version, the
// commit it was built from and the Go toolchain, read from the binary's
// build information (runtime/debug.ReadBuildInfo) unless the build set
// them with -ldflags:
//
//	go build -ldflags "-X github.com/sudoku-archive/sudoku/internal/version.version=v1.4.0 \
//	  -X github.com/sudoku-archive/sudoku/internal/version.commit=0123abc" ./cmd/sudoku
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Set by -ldflags -X; empty means "from the build information".
var (
	version string
	commit  string
)

// Info is one build's identity.
type Info struct {
	Version string `json:"version"` // module version, "devel" for a build from a work tree
	Commit  string `json:"commit"`  // VCS revision (12 hex digits), "+dirty" when the tree had changes; "" when unknown
	Go      string `json:"go"`      // the Go toolchain, e.g. go1.26.8
}

// String is the one-line form `sudoku version` prints.
func (i Info) String() string {
	s := "sudoku " + i.Version
	if i.Commit != "" {
		s += " (commit " + i.Commit + ")"
	}
	return s + " " + i.Go
}

var (
	once sync.Once
	info Info
)

// Get returns the running build's identity.
func Get() Info {
	once.Do(func() { info = read(debug.ReadBuildInfo) })
	return info
}

// read builds the Info from the ldflags values and, for what they leave
// unset, the build information.
func read(buildInfo func() (*debug.BuildInfo, bool)) Info {
	i := Info{Version: version, Commit: commit, Go: runtime.Version()}
	bi, ok := buildInfo()
	if ok {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		if i.Commit == "" {
			i.Commit = revision(bi.Settings)
		}
		if bi.GoVersion != "" {
			i.Go = bi.GoVersion
		}
	}
	if i.Version == "" {
		i.Version = "devel"
	}
	return i
}

// revision is the VCS revision of the build settings, shortened to 12
// digits, with "+dirty" for a modified tree.
func revision(settings []debug.BuildSetting) string {
	var rev string
	var dirty bool
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && dirty {
		rev += "+dirty"
	}
	return rev
}

// Short is the version with the commit when the version alone does not
// name the build ("devel"): for application_name and the servers table.
func (i Info) Short() string {
	if i.Version == "devel" && i.Commit != "" {
		return "devel-" + strings.TrimSuffix(i.Commit, "+dirty")
	}
	return i.Version
}
