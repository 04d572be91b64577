package record

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestTechniquesJSON(t *testing.T) {
	for _, names := range [][]string{nil, {"Full House"}, {"Hidden Single", "X-Wing", "Forcing Chain (cell)"}} {
		ts := JoinTechniques(names)
		b, err := json.Marshal(ts)
		if err != nil {
			t.Fatal(err)
		}
		want := names
		if want == nil {
			want = []string{}
		}
		wantJSON, _ := json.Marshal(want)
		if string(b) != string(wantJSON) {
			t.Errorf("%q marshals to %s, want %s", names, b, wantJSON)
		}
		var back Techniques
		if err := json.Unmarshal(b, &back); err != nil || back != ts || !slices.Equal(back.Names(), names) {
			t.Errorf("%s reads back as %q (%v), want %q", b, back, err, ts)
		}
	}
	for _, bad := range []string{`["a|b"]`, `[""]`, `"x"`, `[1]`} {
		var ts Techniques
		if err := json.Unmarshal([]byte(bad), &ts); err == nil {
			t.Errorf("%s read as %q, want an error", bad, ts)
		}
	}
}

func TestSetGradeStatus(t *testing.T) {
	g := 7.2
	for _, tc := range []struct {
		p    Puzzle
		want GradeStatus
	}{
		{Puzzle{Solutions: 1, Unique: true}, GradePending},
		{Puzzle{Solutions: 1, Unique: true, GradeVersion: "2", Grade: &g}, GradeDone},
		{Puzzle{Solutions: 2}, GradeNone},
		{Puzzle{Solutions: 2, GradeVersion: "2"}, GradeNone},
		{Puzzle{Solutions: 1, Unique: true, GradeVersion: "2"}, GradeNone}, // a full grid
	} {
		tc.p.SetGradeStatus()
		if tc.p.GradeStatus != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, tc.p.GradeStatus, tc.want)
		}
	}
}
