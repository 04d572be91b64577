package version

import (
	"runtime/debug"
	"testing"
)

func TestRead(t *testing.T) {
	bi := func(ver string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{GoVersion: "go1.99.0", Main: debug.Module{Version: ver}, Settings: settings}, true
		}
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	dirty := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	for _, tc := range []struct {
		name         string
		ldVer, ldRev string
		bi           func() (*debug.BuildInfo, bool)
		want         Info
	}{
		{"module version", "", "", bi("v1.2.3", rev), Info{"v1.2.3", "0123456789ab", "go1.99.0"}},
		{"work tree", "", "", bi("(devel)", rev, dirty), Info{"devel", "0123456789ab+dirty", "go1.99.0"}},
		{"ldflags win", "v9.0.0", "feed", bi("v1.2.3", rev), Info{"v9.0.0", "feed", "go1.99.0"}},
		{"no build info", "", "", none, Info{Version: "devel"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			version, commit = tc.ldVer, tc.ldRev
			defer func() { version, commit = "", "" }()
			got := read(tc.bi)
			if tc.want.Go == "" {
				tc.want.Go = got.Go // the running toolchain's
			}
			if got != tc.want {
				t.Errorf("read = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestShort(t *testing.T) {
	if got := (Info{Version: "devel", Commit: "abc+dirty"}).Short(); got != "devel-abc" {
		t.Errorf("Short = %q", got)
	}
	if got := (Info{Version: "v1.0.0", Commit: "abc"}).Short(); got != "v1.0.0" {
		t.Errorf("Short = %q", got)
	}
}
