package bulk

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzImportLine checks the line reader against a plain reference: every
// line but blank and comment lines comes out once, numbered as a text
// editor would, too-long lines flagged and the rest intact; and reading a
// puzzle from any line never panics.
func FuzzImportLine(f *testing.F) {
	f.Add([]byte("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"))
	f.Add([]byte("# c\n\n  \t\n{\"puzzle\":\"1\"}\r\nx\n"))
	f.Add([]byte("id,puzzle,solution\n1,..3,\n2,\"a,b\",\n"))
	f.Add([]byte("\uFEFF1234\n" + strings.Repeat("9", 100)))
	f.Fuzz(func(t *testing.T, doc []byte) {
		const maxLine = 64
		type got struct {
			no      int64
			text    string
			tooLong bool
		}
		var gots []got
		err := readLines([]Input{{"f", bytes.NewReader(doc)}}, maxLine, func(c *chunk) bool {
			for _, l := range c.lines {
				gots = append(gots, got{l.no, l.text, errors.Is(l.err, ErrLineTooLong)})
				if l.err == nil {
					_, _ = l.puzzle() // must not panic
				}
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}

		var want []got
		header := false
		first := true
		rest := doc
		for no := int64(1); len(rest) > 0; no++ {
			// A line ends at "\n", "\r\n" or a lone "\r"; it is too long
			// when it holds maxLine bytes or more without its ending.
			b := rest
			if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
				eol := rest[i]
				b, rest = rest[:i], rest[i+1:]
				if eol == '\r' && len(rest) > 0 && rest[0] == '\n' {
					rest = rest[1:]
				}
			} else {
				rest = nil
			}
			if len(b) >= maxLine {
				want = append(want, got{no, "", true})
				continue
			}
			if no == 1 {
				b = bytes.TrimPrefix(b, []byte("\uFEFF"))
			}
			if skip(b) {
				continue
			}
			text := string(b)
			if first {
				first = false
				if _, header = csvHeader(text); header {
					continue
				}
			}
			want = append(want, got{no, text, false})
		}
		if len(gots) != len(want) {
			t.Fatalf("read %d lines %+v, want %d %+v", len(gots), gots, len(want), want)
		}
		for i := range want {
			if gots[i] != want[i] {
				t.Fatalf("line %d: read %+v, want %+v", i, gots[i], want[i])
			}
		}
	})
}
