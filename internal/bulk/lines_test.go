package bulk

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func TestScanLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"unix", "a\nb\n", []string{"a", "b"}},
		{"windows", "a\r\nb\r\n", []string{"a", "b"}},
		{"old mac", "a\rb\r", []string{"a", "b"}},
		{"mixed", "a\r\nb\rc\nd", []string{"a", "b", "c", "d"}},
		{"no final ending", "a\nb", []string{"a", "b"}},
		{"blank lines kept", "a\n\r\n\rb", []string{"a", "", "", "b"}},
		{"final lone cr", "a\r", []string{"a"}},
		{"lf cr is two endings", "a\n\rb", []string{"a", "", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Also one byte at a time, so every '\r' arrives without what
			// follows it.
			for _, oneByte := range []bool{false, true} {
				var r io.Reader = strings.NewReader(tc.in)
				if oneByte {
					r = iotest.OneByteReader(r)
				}
				sc := bufio.NewScanner(r)
				sc.Split(ScanLines)
				var got []string
				for sc.Scan() {
					got = append(got, sc.Text())
				}
				if err := sc.Err(); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("one byte at a time: %v (-want +got):\n%s", oneByte, diff)
				}
			}
		})
	}
}
