package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
)

// Issue 50: every JSON export read steadily at 20-40 KB/s was cut after
// about 30 s, against docs/storage.md's promise that a client reading
// steadily, however slowly, gets the whole archive.
const (
	slowRate = 10 << 10 // bytes per second the client reads
	slowRows = 900      // puzzles: about 60 s of JSON at slowRate
)

// TestExportSlowSteadyReader reads a whole JSON export at 10 KB/s, a
// download of about a minute, on both stores, through a small receive
// window and Internet-sized segments so that the server's writes wait on
// the client as they would across the Internet (on loopback the kernel's
// buffers would swallow the export), and checks every row arrived, once.
// It paces its reads; it asserts nothing about time. (The cut itself
// needs a send buffer of megabytes, and an export larger still, to show:
// `curl --limit-rate 40k` of a 20,000-puzzle export cut at 31 s before
// the fix, exportconn.go.)
func TestExportSlowSteadyReader(t *testing.T) {
	if testing.Short() {
		t.Skip("a download of about 60 s at 10 KB/s: skipped with -short")
	}
	// A minute of paced reading each: eachArchive runs the stores side by
	// side.
	eachArchive(t, func(t *testing.T, dbPath string) {
		db, err := store.Open(context.Background(), dbPath)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		if err := storetest.BuildArchive(dbPath, slowRows); err != nil {
			t.Fatal(err)
		}
		s := startServe(t, dbPath, "--rate-limit", "0", "--graders", "0")
		rows, bytes, took, err := slowExport(s.url, slowRate)
		t.Logf("%d rows, %d bytes in %v (%.1f KB/s)", len(rows), bytes, took.Round(time.Second), float64(bytes)/took.Seconds()/1024)
		if err != nil {
			t.Fatalf("the download broke after %d rows, %d bytes, %v: %v\n%s", len(rows), bytes, took.Round(time.Second), err, s.logs)
		}
		for id := int64(1); id <= slowRows; id++ {
			if rows[id] != 1 {
				t.Errorf("puzzle %d came %d times", id, rows[id])
			}
		}
		if len(rows) != slowRows {
			t.Errorf("%d distinct rows, want %d", len(rows), slowRows)
		}
	})
}

// slowExport downloads GET /api/export?format=json uncompressed at rate
// bytes per second, counting each row's id.
func slowExport(base string, rate int) (rows map[int64]int, n int64, took time.Duration, err error) {
	client := &http.Client{Transport: &http.Transport{DialContext: slowDialer().DialContext, DisableCompression: true}}
	res, err := client.Get(base + "/api/export?format=json&sort=submitted&order=asc")
	if err != nil {
		return nil, 0, 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, 0, 0, &url500{res.StatusCode}
	}
	start := time.Now()
	paced := &pacedReader{r: res.Body, rate: rate, start: start}
	rows = map[int64]int{}
	sc := bufio.NewScanner(paced)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var row struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return rows, paced.n, time.Since(start), err
		}
		rows[row.ID]++
	}
	return rows, paced.n, time.Since(start), sc.Err()
}

// slowDialer dials with a small receive window and an Internet-sized
// segment: on loopback (64 KB segments) the server's send buffer grows to
// megabytes and takes the whole export at once.
func slowDialer() *net.Dialer {
	return &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = errors.Join(syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10),
				syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_MAXSEG, 1000))
		}); err != nil {
			return err
		}
		return serr
	}}
}

// url500 is a status other than 200.
type url500 struct{ status int }

func (u *url500) Error() string { return http.StatusText(u.status) }

// pacedReader reads r at rate bytes per second at most, 1 KB at a time.
type pacedReader struct {
	r     io.Reader
	rate  int
	start time.Time
	n     int64
}

func (p *pacedReader) Read(b []byte) (int, error) {
	if ahead := time.Duration(float64(p.n)/float64(p.rate)*float64(time.Second)) - time.Since(p.start); ahead > 0 {
		time.Sleep(ahead)
	}
	k, err := p.r.Read(b[:min(len(b), 1<<10)])
	p.n += int64(k)
	return k, err
}
