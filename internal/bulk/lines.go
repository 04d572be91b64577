package bulk

import "bytes"

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
