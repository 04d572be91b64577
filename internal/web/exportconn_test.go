package web

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// pieceRecorder records the size of each write it is given.
type pieceRecorder struct {
	*httptest.ResponseRecorder
	pieces []int
}

func (p *pieceRecorder) Write(b []byte) (int, error) {
	p.pieces = append(p.pieces, len(b))
	return p.ResponseRecorder.Write(b)
}

// TestStallWriterPieces: an export's writes reach the client in pieces of
// at most exportPiece, each with its own deadline, so that a write never
// waits on more of a slow client's reading than one piece (exportconn.go),
// and nothing is lost or reordered.
func TestStallWriterPieces(t *testing.T) {
	rec := &pieceRecorder{ResponseRecorder: httptest.NewRecorder()}
	w := &stallWriter{w: rec, rc: http.NewResponseController(rec), stall: time.Second}
	data := bytes.Repeat([]byte("0123456789abcdef"), (64<<10)/16+3) // 64 KB and a bit: the export's buffer
	n, err := w.Write(data)
	if err != nil || n != len(data) || !bytes.Equal(rec.Body.Bytes(), data) {
		t.Fatalf("wrote %d of %d: %v", n, len(data), err)
	}
	for _, p := range rec.pieces {
		if p > exportPiece {
			t.Errorf("a write of %d bytes, over %d: %v", p, exportPiece, rec.pieces)
		}
	}
	if len(rec.pieces) != (len(data)+exportPiece-1)/exportPiece {
		t.Errorf("%d pieces: %v", len(rec.pieces), rec.pieces)
	}
}
