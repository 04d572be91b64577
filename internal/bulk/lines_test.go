package bulk

import (
	"bufio"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func TestScanLines(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"unix", "a\nb\n", []string{"a", "b"}},
		{"windows", "a\r\nb\r\n", []string{"a", "b"}},
		{"old mac", "a\rb\r", []string{"a", "b"}},
		{"mixed", "a\rb\nc\r\nd", []string{"a", "b", "c", "d"}},
		{"blank lines kept", "a\r\rb\n\nc", []string{"a", "", "b", "", "c"}},
		{"cr last", "a\r", []string{"a"}},
		{"no end", "abc", []string{"abc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time too, so a "\r\n" split across reads is
			// still one line end.
			for _, r := range []func(string) *bufio.Scanner{
				func(s string) *bufio.Scanner { return bufio.NewScanner(strings.NewReader(s)) },
				func(s string) *bufio.Scanner { return bufio.NewScanner(iotest.OneByteReader(strings.NewReader(s))) },
			} {
				sc := r(tc.in)
				sc.Split(ScanLines)
				var got []string
				for sc.Scan() {
					got = append(got, sc.Text())
				}
				if err := sc.Err(); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tc.want, got); d != "" {
					t.Errorf("lines of %q (-want +got):\n%s", tc.in, d)
				}
			}
		})
	}
}
