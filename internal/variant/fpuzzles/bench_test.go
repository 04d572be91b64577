package fpuzzles

import (
	"os"
	"testing"
)

// BenchmarkRead reads a killer f-puzzles file; BenchmarkReadLink the
// same puzzle from an f-puzzles link (LZ-string decoding, then Read).
func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile("testdata/read/killercage.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadLink(b *testing.B) {
	data, err := os.ReadFile("testdata/read/killercage.json")
	if err != nil {
		b.Fatal(err)
	}
	link := FPuzzlesPrefix + CompressToBase64(string(data))
	b.SetBytes(int64(len(link)))
	for b.Loop() {
		if _, err := ReadLink(link); err != nil {
			b.Fatal(err)
		}
	}
}
