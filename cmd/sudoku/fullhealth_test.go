package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFullDiskHealthWithoutGraders: with `--graders 0` nothing but the
// requests writes, and a full disk left /healthz?verbose "ok" while every
// submission failed (issue 50). Now the refused writes turn it degraded,
// with the reason, and a write that succeeds once there is room turns it
// back; plain /healthz stays 200 (reads work).
func TestFullDiskHealthWithoutGraders(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	s, db := startServeOpened(t, dbPath, "--rate-limit", "0", "--graders", "0")
	ctx := context.Background()
	client := &http.Client{Timeout: 20 * time.Second}
	src := newPuzzleSource(t)
	if res, err := submit(ctx, client, s.url, src.next()); err != nil || res.status != http.StatusCreated {
		t.Fatalf("before the disk is full: %v, %+v", err, res)
	}
	if h := verboseHealth(t, client, s.url); h.Status != "ok" {
		t.Fatalf("before the disk is full: %+v", h)
	}
	orig, err := db.SetMaxPageCount(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetMaxPageCount(ctx, 1); err != nil { // clamped to the current size
		t.Fatal(err)
	}
	_, refused := submitUntilFull(t, client, s.url, src)
	h := verboseHealth(t, client, s.url)
	if h.Status != "degraded" || !strings.Contains(h.Reason, "full") || h.Since == "" {
		t.Errorf("/healthz?verbose on a full disk without graders: %+v, want degraded with the reason", h)
	}
	if res, err := client.Get(s.url + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("/healthz on a full disk: %v %v, want 200 (reads work)", res, err)
	} else {
		res.Body.Close()
	}
	if _, err := db.SetMaxPageCount(ctx, orig); err != nil {
		t.Fatal(err)
	}
	if res, err := submit(ctx, client, s.url, refused[0]); err != nil || res.status != http.StatusCreated {
		t.Fatalf("with room again: %v, %+v", err, res)
	}
	if h := verboseHealth(t, client, s.url); h.Status != "ok" {
		t.Errorf("/healthz?verbose after a write succeeded again: %+v, want ok", h)
	}
}

// health is /healthz?verbose's answer as a test reads it.
type health struct{ Status, Reason, Since string }

func verboseHealth(t *testing.T, client *http.Client, base string) health {
	t.Helper()
	res, err := client.Get(base + "/healthz?verbose")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var h health
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("/healthz?verbose: %d, %v", res.StatusCode, err)
	}
	return h
}
