package web

import (
	"context"
	"net"
	"time"

	"github.com/labstack/echo/v4"
)

// Why steady slow downloads were cut (issue 50: every JSON export read at
// 20-40 KB/s, cut after about 30 s): an export gave each write to the
// client ExportStall to finish, but a write that finds the socket's send
// buffer full waits until the kernel reports room, which it does only
// once about a third of that buffer has drained. Linux grows the send
// buffer of a busy connection to megabytes, and at 20 KB/s a third of 4 MB
// takes over a minute to drain: the write timed out while the client read
// on, steadily. An export therefore fixes its connection's send buffer at
// exportSendBuffer (the room a blocked write waits for is then a few tens
// of kilobytes) and writes at most exportPiece at a time, each with its
// own deadline: a client reading at a few KB/s always makes a write finish
// within ExportStall, and one that stops reading still fails it.
const (
	exportSendBuffer = 64 << 10
	exportPiece      = 8 << 10
)

// connKey is the request context's key of its connection (withConn).
type connKey struct{}

// withConn keeps each connection in its requests' context
// (http.Server.ConnContext), for the handlers that tune it (the export).
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// boundSendBuffer fixes the send buffer of the request's connection at
// exportSendBuffer (see above); it does nothing where the connection is not
// TCP (tests' recorders, a Unix socket). The connection keeps the bound for
// its later requests: they are small answers.
func boundSendBuffer(c echo.Context) {
	if tc, ok := c.Request().Context().Value(connKey{}).(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(exportSendBuffer)
	}
}

// write writes p in pieces of at most exportPiece, each given stall from
// its start.
func (s *stallWriter) Write(p []byte) (n int, err error) {
	for len(p) > 0 {
		piece := p[:min(len(p), exportPiece)]
		_ = s.rc.SetWriteDeadline(time.Now().Add(s.stall)) // not supported by test recorders
		k, err := s.writePiece(piece)
		n += k
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

// writePiece writes one piece. While it waits for the client the export
// takes no core, so it leaves its place in the graders' gate (the write
// returns at once while the send buffer has room; a slow client's export
// spends nearly all its time here).
func (s *stallWriter) writePiece(p []byte) (int, error) {
	if s.gate == nil {
		return s.w.Write(p)
	}
	s.gate.Waiting()
	defer s.gate.Resumed()
	return s.w.Write(p)
}
