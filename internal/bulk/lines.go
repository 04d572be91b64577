package bulk

import (
	"bufio"
	"bytes"
)

// ScanLines is a bufio.SplitFunc like bufio.ScanLines, except that a lone
// carriage return also ends a line: "\n", "\r\n" and "\r" (old Mac files)
// each end one line, and the token never holds the line end. With
// bufio.ScanLines a file with "\r" endings reads as a single line.
func ScanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		switch {
		case i+1 < len(data) && data[i+1] == '\n':
			return i + 2, data[:i], nil
		case i+1 < len(data) || atEOF:
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // a "\r" last in data: is a "\n" next?
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// Lines splits a body held in memory into lines at "\n", "\r\n" or "\r"
// (ScanLines), without the line ends: the lines Import numbers.
func Lines(body []byte) []string {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), len(body)+1)
	sc.Split(ScanLines)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines // body is in memory: no read error
}

// Skipped reports whether Import skips a line: blank, or a # comment.
func Skipped(line string) bool { return skip([]byte(line)) }
