package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestFrontStarting: the port answers from the moment it is bound, 503 at
// once with Retry-After and what start-up is doing, JSON on /readyz and
// the API, plain text on the pages; once the Server takes over, the same
// listener answers through it (issue 50).
func TestFrontStarting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := StartFront(ln, Config{})
	defer f.Close()
	base := "http://" + ln.Addr().String()
	client := &http.Client{Timeout: 5 * time.Second}
	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	f.Starting("migrating the database schema from 17 to 25")
	for _, tc := range []struct{ path, ctype, body string }{
		{"/readyz", "application/json", `{"error":"the server is starting: migrating the database schema from 17 to 25"}`},
		{"/api/puzzles", "application/json", `"the server is starting: migrating`},
		{"/puzzles", "text/plain", "the server is starting: migrating the database schema from 17 to 25"},
	} {
		res, body := get(tc.path)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" ||
			!strings.HasPrefix(res.Header.Get("Content-Type"), tc.ctype) || !strings.Contains(body, tc.body) {
			t.Errorf("GET %s while starting: %d, Retry-After %q, %s %q; want 503, 5, %s with %q", tc.path, res.StatusCode,
				res.Header.Get("Retry-After"), res.Header.Get("Content-Type"), body, tc.ctype, tc.body)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	s := New(partsOf(&schemaArchive{&fakeArchive{}, 25, 25}), Config{})
	go func() { served <- s.ServeFront(ctx, f) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, body := get("/readyz")
		if res.StatusCode == http.StatusOK && body == "ready" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz after the hand-over: %d %q", res.StatusCode, body)
		}
		time.Sleep(10 * time.Millisecond) // polls for the hand-over
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
