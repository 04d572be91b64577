package bulk

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestOrdered checks that items come out in the order they went in however
// long each takes, that a read error comes back after the items before
// it, and that an emit error stops the pipeline.
func TestOrdered(t *testing.T) {
	errRead, errEmit := errors.New("read failed"), errors.New("emit failed")
	read := func(n int, err error) func(context.Context, func(int) bool) error {
		return func(_ context.Context, send func(int) bool) error {
			for i := range n {
				if !send(i) {
					return nil
				}
			}
			return err
		}
	}
	slow := func(_ context.Context, i int) int {
		time.Sleep(time.Duration((i*7919)%5) * time.Millisecond) // later items often finish first
		return i
	}
	tests := []struct {
		name    string
		n       int
		readErr error
		failAt  int // emit fails on this item; -1: never
		want    int // items emitted
		wantErr error
	}{
		{"all in order", 200, nil, -1, 200, nil},
		{"read error after its items", 50, errRead, -1, 50, errRead},
		{"emit error stops", 200, nil, 10, 10, errEmit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			emit := func(i int) error {
				if i == tc.failAt {
					return errEmit
				}
				got = append(got, i)
				return nil
			}
			err := Ordered(context.Background(), 4, read(tc.n, tc.readErr), slow, emit)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			if len(got) != tc.want {
				t.Errorf("emitted %d items, want %d", len(got), tc.want)
			}
			for i, v := range got {
				if v != i {
					t.Fatalf("item %d emitted as number %d", v, i)
				}
			}
		})
	}
	t.Run("canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := Ordered(ctx, 2, read(10, nil), slow, func(int) error { return nil })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}
