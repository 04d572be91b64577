package bulk

import (
	"context"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Ordered runs work on every item that read sends, on workers goroutines
// (0 means runtime.GOMAXPROCS(0)), and hands the results to emit one at a
// time in the order read sent the items. So a slow item holds back the
// output but not the work on the items after it. At most 4×workers items
// are between read and emit at once, however slow one item is, so memory
// stays flat whatever the length of the input.
//
// send reports false once the pipeline is stopping; read should then
// return. A read error ends the reading only: the items sent before it are
// still worked on and emitted, and then Ordered returns it. An error from
// emit, or ctx ending, stops every stage and is returned; work is passed a
// context that ends then.
func Ordered[T any](ctx context.Context, workers int,
	read func(ctx context.Context, send func(T) bool) error,
	work func(ctx context.Context, item T) T,
	emit func(item T) error,
) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parent := ctx
	g, ctx := errgroup.WithContext(ctx)
	// A token is taken before an item is sent and given back once it is
	// emitted, so neither channel ever holds more than inflight items and
	// no send on them blocks.
	inflight := 4 * workers
	tokens := make(chan struct{}, inflight)
	todo := make(chan numbered[T], inflight)
	done := make(chan numbered[T], inflight)

	var readErr error
	g.Go(func() error {
		defer close(todo)
		var seq int64
		readErr = read(ctx, func(v T) bool {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return false
			}
			todo <- numbered[T]{seq, v}
			seq++
			return true
		})
		return nil
	})

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for it := range todo {
				it.v = work(ctx, it.v)
				done <- it
			}
		})
	}
	g.Go(func() error {
		wg.Wait()
		close(done)
		return nil
	})

	g.Go(func() error { return emitInOrder(ctx, done, tokens, emit) })
	if err := g.Wait(); err != nil {
		return err
	}
	if err := parent.Err(); err != nil {
		return err // ended before the first item, or between the last two
	}
	return readErr
}

// emitInOrder is Ordered's last stage: it hands the worked items of done to
// emit in the order they were read, holding back the ones that come early,
// and gives back a token for each item emitted.
func emitInOrder[T any](ctx context.Context, done <-chan numbered[T], tokens <-chan struct{}, emit func(item T) error) error {
	pending := map[int64]T{}
	var next int64
	for it := range done {
		pending[it.seq] = it.v
		for {
			v, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-tokens
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := emit(v); err != nil {
				return err
			}
		}
	}
	return nil
}

// numbered is an item with its place in the input.
type numbered[T any] struct {
	seq int64
	v   T
}
