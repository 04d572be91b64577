package fpuzzles

import (
	"net/url"
	"slices"
	"strings"
)

// The links written: f-puzzles' own, and SudokuPad's for an f-puzzles
// puzzle. Both carry the JSON compressed with LZ-string, base64.
const (
	FPuzzlesPrefix  = "https://www.f-puzzles.com/?load="
	SudokuPadPrefix = "https://sudokupad.app/fpuzzles"
)

// MaxLink bounds a link ReadLink accepts, in bytes.
const MaxLink = 128 << 10

// Link returns p's f-puzzles link.
func Link(p Puzzle) (string, error) {
	b, err := Write(p)
	if err != nil {
		return "", err
	}
	return FPuzzlesPrefix + CompressToBase64(string(b)), nil
}

// SudokuPadLink returns a SudokuPad link that opens p.
func SudokuPadLink(p Puzzle) (string, error) {
	b, err := Write(p)
	if err != nil {
		return "", err
	}
	return SudokuPadPrefix + CompressToBase64(string(b)), nil
}

// sudokuPadHosts serve SudokuPad.
var sudokuPadHosts = []string{
	"sudokupad.app", "www.sudokupad.app", "beta.sudokupad.app",
	"app.crackingthecryptic.com", "crackingthecryptic.com", "www.crackingthecryptic.com",
}

// IsLink reports whether text (white space around it aside) is a link to
// f-puzzles or SudokuPad, with or without its scheme: what ReadLink
// reads, or fails on with its reason, rather than a grid's text.
func IsLink(text string) bool {
	u, err := url.Parse(withScheme(strings.TrimSpace(text)))
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	return host == "f-puzzles.com" || host == "www.f-puzzles.com" || slices.Contains(sudokuPadHosts, host)
}

// withScheme puts https:// before a link written without its scheme
// ("www.f-puzzles.com/?load=…", as people copy it from an address bar).
func withScheme(link string) string {
	lower := strings.ToLower(link[:min(len(link), 40)])
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return link
	}
	for _, h := range append([]string{"f-puzzles.com", "www.f-puzzles.com"}, sudokuPadHosts...) {
		if strings.HasPrefix(lower, h+"/") || strings.HasPrefix(lower, h+"?") {
			return "https://" + link
		}
	}
	return link
}

// ReadLink reads a puzzle from a link: f-puzzles' (?load=…) or
// SudokuPad's carrying an f-puzzles puzzle (/fpuzzles…, /sudoku/fpuzzles…
// or ?puzzleid=fpuzzles…). SudokuPad's own format and short ids are not
// f-puzzles and fail.
func ReadLink(link string) (Puzzle, error) {
	if len(link) > MaxLink {
		return Puzzle{}, errAt("", 0, "", "link of %d bytes, over the limit of %d", len(link), MaxLink)
	}
	data, err := linkData(withScheme(strings.TrimSpace(link)))
	if err != nil {
		return Puzzle{}, err
	}
	// A '+' of base64 may come back as a space from a form or a query.
	data = strings.ReplaceAll(data, " ", "+")
	text, lzErr := DecompressFromBase64(data)
	if lzErr != nil {
		return Puzzle{}, &Error{Msg: "the link's puzzle does not decompress: " + lzErr.Error(), Err: lzErr}
	}
	return Read([]byte(text))
}

// linkData returns the compressed puzzle a link carries.
func linkData(link string) (string, error) {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" {
		return "", errAt("", 0, "", "not a link")
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "f-puzzles.com" || host == "www.f-puzzles.com":
		if v, ok := queryValue(u.RawQuery, "load"); ok {
			return v, nil
		}
		return "", errAt("", 0, "", "an f-puzzles link without a puzzle (?load=)")
	case slices.Contains(sudokuPadHosts, host):
		if v, ok := queryValue(u.RawQuery, "puzzleid"); ok {
			if rest, ok := strings.CutPrefix(v, "fpuzzles"); ok {
				return rest, nil
			}
			return "", unsupported("", 0, "", "SudokuPad puzzle %q is not an f-puzzles puzzle", truncate(v))
		}
		path := u.EscapedPath()
		if i := strings.Index(path, "/fpuzzles"); i >= 0 {
			return url.PathUnescape(path[i+len("/fpuzzles"):])
		}
		return "", unsupported("", 0, "", "SudokuPad link %q does not carry an f-puzzles puzzle", truncate(path))
	}
	return "", errAt("", 0, "", "not an f-puzzles or SudokuPad link (host %q)", truncate(host))
}

// queryValue returns a query parameter unescaped as a path is, so that
// base64's '+' stays a '+'.
func queryValue(raw, key string) (string, bool) {
	for part := range strings.SplitSeq(raw, "&") {
		if v, ok := strings.CutPrefix(part, key+"="); ok {
			s, err := url.PathUnescape(v)
			if err != nil {
				return v, true
			}
			return s, true
		}
	}
	return "", false
}
