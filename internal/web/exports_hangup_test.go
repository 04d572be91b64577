package web

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestExportHangUpIsNoServerError (issue 45): a client that hangs up
// part way through an export is logged at INFO, not as an ERROR, and the
// request is counted as 499 (the client closed it), never as a 5xx.
func TestExportHangUpIsNoServerError(t *testing.T) {
	var logs logSink
	a := &slowArchive{rows: 1_000_000, pause: time.Millisecond}
	s := New(partsOf(a), Config{Logger: logs.logger()})
	ts := httptest.NewServer(s)
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET /api/export HTTP/1.1\r\nHost: x\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("export: %v, %v", res, err)
	}
	if _, err := io.ReadFull(res.Body, make([]byte, 4096)); err != nil {
		t.Fatal(err)
	}
	conn.Close() // hang up mid-export
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(logs.String(), "hung up") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	l := logs.String()
	if !strings.Contains(l, "level=INFO msg=\"export ended early: the client hung up\"") || strings.Contains(l, "level=ERROR") {
		t.Errorf("a hang-up mid-export, logged:\n%s", l)
	}
	m := scrape(t, s)
	for k, v := range m {
		if strings.HasPrefix(k, "sudoku_http_requests_total{") && strings.Contains(k, `code="5`) {
			t.Errorf("a hang-up counted as a server error: %s %g", k, v)
		}
	}
	if got := m[`sudoku_http_requests_total{code="499",method="GET",route="/api/export"}`]; got != 1 {
		t.Errorf("hang-ups counted as 499: %g, want 1", got)
	}
}
