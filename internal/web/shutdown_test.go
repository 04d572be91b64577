package web

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// endlessArchive exports the same puzzle for as long as it is read.
type endlessArchive struct {
	fakeArchive
	started chan struct{}
}

func (a *endlessArchive) Export(ctx context.Context, _ record.ListQuery, fn func(record.Puzzle) error) error {
	return endless(ctx, a.started, fn)
}

// endless is an export of the same puzzle for as long as it is read;
// started is closed once it begins.
func endless(ctx context.Context, started chan struct{}, fn func(record.Puzzle) error) error {
	g, _ := sudoku.Parse(easy)
	p := record.Puzzle{ID: 1, Givens: g}
	if started != nil {
		close(started)
	}
	for ctx.Err() == nil {
		if err := fn(p); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// TestServeCutsStreamingExport: a download still streaming when the
// shutdown's grace period ends is cut, and Serve still returns nil (the
// command exits 0): nothing acknowledged depended on it.
func TestServeCutsStreamingExport(t *testing.T) {
	arch := &endlessArchive{started: make(chan struct{})}
	s := New(partsOf(arch), Config{Logger: slog.New(slog.DiscardHandler), NoDaily: true, ShutdownTimeout: 200 * time.Millisecond})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()

	// A client that reads the status line and then nothing more: the
	// export blocks on a full socket, as under a slow download.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET /api/export?format=json HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	status, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if want := "HTTP/1.1 200"; len(status) < len(want) || status[:len(want)] != want {
		t.Fatalf("status line %q", status)
	}
	<-arch.started
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve after cutting a download: %v, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after cutting the download")
	}
}
