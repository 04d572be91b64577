package bulk

import "bytes"

// ScanLines is a bufio.SplitFunc like bufio.ScanLines that also ends a
// line at a lone '\r', so text with Unix ("\n"), Windows ("\r\n") and old
// Mac ("\r") line endings all reads line by line. The token holds no line
// ending.
func ScanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		// A '\r': the line ends here, and a '\n' right after it belongs
		// to the same ending; to know, the next byte must be in.
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
