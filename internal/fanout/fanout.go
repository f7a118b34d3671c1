// Package fanout runs independent reads side by side, a bounded number at
// once, and hands their answers back in the order they were asked for.
package fanout

import (
	"context"
	"iter"
	"sync"
)

// DefaultWidth is how many reads run at once unless told otherwise:
// Terraform's own parallelism, so a list of users is read as fast as a
// plan of them.
const DefaultWidth = 10

// Answer is what fetch returned for one item, or how the walk of the
// items failed.
type Answer[T, R any] struct {
	Item  T
	Value R
	Err   error
	// WalkErr, when set, is the last answer: the walk of the items failed
	// (Item, Value and Err are zero).
	WalkErr error
}

// Ordered calls fetch for each item of items, at most width calls at
// once, and yields the answers in the order of items. It never reads more
// than width items ahead of the one it yields, so a consumer that stops
// early (a list's limit reached) leaves at most width-1 extra calls, whose
// context is then cancelled. items is walked on its own goroutine with
// that context (it may make calls itself, such as the pages of a
// listing); a walk that ends in an error yields that error last
// (WalkErr).
//
// A width below 1 is 1: one call after another.
func Ordered[T, R any](ctx context.Context, width int, items func(context.Context, func(T) bool) error, fetch func(context.Context, T) (R, error)) iter.Seq[Answer[T, R]] {
	width = max(width, 1)
	return func(yield func(Answer[T, R]) bool) {
		ctx, cancel := context.WithCancel(ctx)
		// slots bounds the answers asked for and not yet yielded; queue
		// holds them in order, each one a channel its fetch fills once.
		slots := make(chan struct{}, width)
		queue := make(chan chan Answer[T, R], width)
		var fetches sync.WaitGroup
		defer func() {
			// No goroutine outlives the call: the walk and the fetches
			// still running see the cancelled context and end.
			cancel()
			for range queue {
			}
			fetches.Wait()
		}()
		go func() {
			defer close(queue)
			err := items(ctx, func(item T) bool {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return false
				}
				answer := make(chan Answer[T, R], 1)
				queue <- answer
				fetches.Go(func() {
					v, err := fetch(ctx, item)
					answer <- Answer[T, R]{Item: item, Value: v, Err: err}
				})
				return true
			})
			if err == nil {
				return
			}
			select {
			case slots <- struct{}{}:
				answer := make(chan Answer[T, R], 1)
				answer <- Answer[T, R]{WalkErr: err}
				queue <- answer
			case <-ctx.Done():
			}
		}()
		for answer := range queue {
			// The slot is freed once the answer has been taken, so a stop
			// leaves no more than width-1 calls behind it.
			if !yield(<-answer) {
				return
			}
			<-slots
		}
	}
}
