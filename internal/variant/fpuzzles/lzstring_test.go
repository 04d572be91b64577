package fpuzzles

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

type lzVectors struct {
	Generator string `json:"generator"`
	Vectors   []struct {
		Input  string `json:"input"`
		Base64 string `json:"base64"`
	} `json:"vectors"`
	Decodes []struct {
		Base64 string  `json:"base64"`
		Output *string `json:"output"`
	} `json:"decodes"`
}

func readVectors(t testing.TB) lzVectors {
	b, err := os.ReadFile("testdata/lzstring_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v lzVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestLZVectors: compression gives the reference's text, character for
// character, and decompression gives the input back.
func TestLZVectors(t *testing.T) {
	v := readVectors(t)
	if len(v.Vectors) < 50 {
		t.Fatalf("%d vectors", len(v.Vectors))
	}
	for i, vec := range v.Vectors {
		if got := CompressToBase64(vec.Input); got != vec.Base64 {
			t.Errorf("vector %d (%.30q): compress\n got %s\nwant %s", i, vec.Input, got, vec.Base64)
		}
		if vec.Input == "" {
			continue // the reference's decoder reads its own "" back as corrupt
		}
		if got, err := DecompressFromBase64(vec.Base64); err != nil || got != vec.Input {
			t.Errorf("vector %d: decompress %.30q, %v; want %.30q", i, got, err, vec.Input)
		}
	}
	for _, d := range v.Decodes {
		got, err := DecompressFromBase64(d.Base64)
		if d.Output == nil || *d.Output == "" {
			if err == nil {
				t.Errorf("%s: decoded %q, want an error (the reference: %v)", d.Base64, got, d.Output)
			}
		} else if err != nil || got != *d.Output {
			t.Errorf("%s: %q, %v; want %q", d.Base64, got, err, *d.Output)
		}
	}
}

// TestLZErrors: characters outside base64 and oversized output.
func TestLZErrors(t *testing.T) {
	good := CompressToBase64("abcabc")
	for _, s := range []string{"", good[:1] + "!" + good[2:], good[:1] + " " + good[2:]} {
		if _, err := DecompressFromBase64(s); !errors.Is(err, ErrLZCorrupt) {
			t.Errorf("%q: %v, want ErrLZCorrupt", s, err)
		}
	}
	big := CompressToBase64(strings.Repeat("a", MaxDecoded+1))
	if _, err := DecompressFromBase64(big); !errors.Is(err, ErrLZTooLarge) {
		t.Errorf("oversized: %v", err)
	}
}

// FuzzLZ: the decoder never panics, keeps to its bound, and what the
// encoder writes reads back. Corpus: testdata/fuzz/FuzzLZ; the vectors
// are seeds.
func FuzzLZ(f *testing.F) {
	for _, vec := range readVectors(f).Vectors {
		f.Add(vec.Base64)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := DecompressFromBase64(s)
		if err == nil && len(out) > 3*MaxDecoded {
			t.Fatalf("decoded %d bytes", len(out))
		}
		if utf8.ValidString(s) && len(s) < 4096 {
			back, err := DecompressFromBase64(CompressToBase64(s))
			if s != "" && (err != nil || back != s) {
				t.Fatalf("%q does not read back: %q, %v", s, back, err)
			}
		}
	})
}
