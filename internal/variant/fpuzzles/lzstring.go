package fpuzzles

import (
	"errors"
	"strings"
	"unicode/utf16"
)

// LZ-string's base64 form (pieroxy/lz-string, compressToBase64 and
// decompressFromBase64), which f-puzzles and SudokuPad links carry. No Go
// module of it is served here, so this is a small one written from the
// algorithm, checked against vectors the reference JavaScript made
// (testdata/lzstring_vectors.json, testdata/README.md). It works on UTF-16
// code units, as JavaScript strings do, so non-ASCII titles compress to the
// same text as in a browser.

const lzAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// lzValue maps a base64 character to its value; -1 for a character
// outside the alphabet. '=' (padding) reads as 0, as in the reference.
var lzValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(lzAlphabet) {
		t[lzAlphabet[i]] = int8(i)
	}
	t['='] = 0
	return t
}()

// MaxDecoded bounds what DecompressFromBase64 returns, in UTF-16 units:
// a link's puzzle is at most MaxJSON bytes anyway, and the bound keeps a
// hostile link from making the decoder's output (quadratic in the input at
// worst) large.
const MaxDecoded = 256 << 10

// CompressToBase64 is LZ-string's compressToBase64 of s.
func CompressToBase64(s string) string {
	w := lzWriter{}
	dict := map[string]int{}
	toCreate := map[string]bool{}
	enlargeIn, dictSize, numBits := 2, 3, 2
	grow := func() {
		enlargeIn--
		if enlargeIn == 0 {
			enlargeIn = 1 << numBits
			numBits++
		}
	}
	emit := func(word string) {
		if toCreate[word] {
			u := int(word[0])<<8 | int(word[1]) // its one UTF-16 unit
			if u < 256 {
				w.bits(0, numBits)
				w.bits(u, 8)
			} else {
				w.bits(1, numBits)
				w.bits(u, 16)
			}
			grow()
			delete(toCreate, word)
		} else {
			w.bits(dict[word], numBits)
		}
	}
	cur := ""
	for _, u := range utf16.Encode([]rune(s)) {
		c := string([]byte{byte(u >> 8), byte(u)}) // a unit as a map key: two bytes, so lone surrogates stay apart
		if _, ok := dict[c]; !ok {
			dict[c] = dictSize
			dictSize++
			toCreate[c] = true
		}
		if _, ok := dict[cur+c]; ok {
			cur += c
			continue
		}
		emit(cur)
		grow()
		dict[cur+c] = dictSize
		dictSize++
		cur = c
	}
	if cur != "" {
		emit(cur)
		grow()
	}
	w.bits(2, numBits)
	out := w.flush()
	return out + "==="[:(4-len(out)%4)%4]
}

// lzWriter packs bits, each value lowest bit first, into base64
// characters of six bits, first bit highest.
type lzWriter struct {
	out strings.Builder
	val int
	pos int
}

func (w *lzWriter) bits(v, n int) {
	for range n {
		w.val = w.val<<1 | v&1
		v >>= 1
		if w.pos == 5 {
			w.out.WriteByte(lzAlphabet[w.val])
			w.pos, w.val = 0, 0
		} else {
			w.pos++
		}
	}
}

func (w *lzWriter) flush() string {
	for {
		w.val <<= 1
		if w.pos == 5 {
			w.out.WriteByte(lzAlphabet[w.val])
			return w.out.String()
		}
		w.pos++
	}
}

// lzReader reads bits back, each base64 character highest bit first;
// past the end it reads zeros, as the reference does.
type lzReader struct {
	in    string
	index int // the next character to load
	val   int
	pos   int // the mask of the next bit in val
	bad   bool
}

func (r *lzReader) load() {
	r.val, r.pos = 0, 32
	if r.index < len(r.in) {
		v := lzValue[r.in[r.index]]
		if v < 0 {
			r.bad = true
			v = 0
		}
		r.val = int(v)
	}
	r.index++
}

func (r *lzReader) bits(n int) int {
	out := 0
	for k := range n {
		if r.val&r.pos != 0 {
			out |= 1 << k
		}
		r.pos >>= 1
		if r.pos == 0 {
			r.load()
		}
	}
	return out
}

// Errors of DecompressFromBase64.
var (
	ErrLZCorrupt  = errors.New("LZ-string data is corrupt")
	ErrLZTooLarge = errors.New("LZ-string data decodes to more than the limit")
)

// DecompressFromBase64 is LZ-string's decompressFromBase64 of s. Where the
// reference returns null or "" for corrupt data (a code past the
// dictionary, input that ends before the end mark) this returns
// ErrLZCorrupt, and also for a character outside base64, which the
// reference reads as zero bits; whitespace is not skipped.
func DecompressFromBase64(s string) (string, error) {
	if s == "" {
		return "", ErrLZCorrupt
	}
	r := &lzReader{in: s}
	r.load()
	dict := [][]uint16{nil, nil, nil}
	enlargeIn, numBits := 4, 3
	var out []uint16
	var w []uint16
	literal := func(code int) ([]uint16, bool) {
		switch code {
		case 0:
			return []uint16{uint16(r.bits(8))}, true
		case 1:
			return []uint16{uint16(r.bits(16))}, true
		}
		return nil, false
	}
	first, ok := literal(r.bits(2))
	if !ok {
		return "", ErrLZCorrupt // the end mark at once: the reference's ""
	}
	dict = append(dict, first)
	w = first
	out = append(out, first...)
	for {
		if r.index > len(s) {
			return "", ErrLZCorrupt
		}
		c := r.bits(numBits)
		if entry, ok := literal(c); ok {
			dict = append(dict, entry)
			c = len(dict) - 1
			enlargeIn--
		} else if c == 2 {
			break
		}
		if enlargeIn == 0 {
			enlargeIn = 1 << numBits
			numBits++
		}
		var entry []uint16
		switch {
		case c < len(dict) && c > 2:
			entry = dict[c]
		case c == len(dict):
			entry = append(append([]uint16(nil), w...), w[0])
		default:
			return "", ErrLZCorrupt
		}
		if len(out)+len(entry) > MaxDecoded {
			return "", ErrLZTooLarge
		}
		out = append(out, entry...)
		dict = append(dict, append(append([]uint16(nil), w...), entry[0]))
		enlargeIn--
		w = entry
		if enlargeIn == 0 {
			enlargeIn = 1 << numBits
			numBits++
		}
	}
	if r.bad {
		return "", ErrLZCorrupt
	}
	return string(utf16.Decode(out)), nil
}
