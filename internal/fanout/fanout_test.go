package fanout_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/fanout"
)

// gauge counts fetches running at once and the most it has seen.
type gauge struct {
	mu        sync.Mutex
	now, peak int
	started   []int
	cancelled int
}

func (g *gauge) enter(i int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.now++
	g.peak = max(g.peak, g.now)
	g.started = append(g.started, i)
}

func (g *gauge) leave(ctx context.Context) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.now--
	if ctx.Err() != nil {
		g.cancelled++
	}
}

func upTo(n int) func(context.Context, func(int) bool) error {
	return func(_ context.Context, yield func(int) bool) error {
		for i := range n {
			if !yield(i) {
				return nil
			}
		}
		return nil
	}
}

// TestOrderedWidth: the answers come in the order asked, whatever order
// the fetches end in, and no more than width run at once, yet width do
// (each fetch waits until width of them have started, or all have).
func TestOrderedWidth(t *testing.T) {
	t.Parallel()
	for _, width := range []int{1, 3, 10} {
		const n = 25
		var g gauge
		var ready sync.WaitGroup
		ready.Add(n)
		// Fetch i waits for the fetches of its window to have started, so a
		// window narrower than width would wait forever: the test would
		// time out rather than pass.
		started := make([]chan struct{}, n)
		for i := range started {
			started[i] = make(chan struct{})
		}
		fetch := func(_ context.Context, i int) (int, error) {
			g.enter(i)
			close(started[i])
			for j := i - i%width; j < min(i-i%width+width, n); j++ {
				<-started[j]
			}
			g.leave(context.Background())
			return i * i, nil
		}
		var got []int
		for a := range fanout.Ordered(context.Background(), width, upTo(n), fetch) {
			if a.Err != nil || a.Value != a.Item*a.Item {
				t.Fatalf("width %d: answer %+v", width, a)
			}
			got = append(got, a.Item)
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("width %d: order (-want +got):\n%s", width, diff)
		}
		if g.peak != width {
			t.Errorf("width %d: at most %d fetches ran at once, want %d", width, g.peak, width)
		}
	}
}

// TestOrderedStopsEarly: a consumer that stops leaves at most width-1
// fetches past the last answer it took, cancelled, and none still running.
func TestOrderedStopsEarly(t *testing.T) {
	t.Parallel()
	const width = 4
	var g gauge
	fetch := func(ctx context.Context, i int) (int, error) {
		g.enter(i)
		defer g.leave(ctx)
		if i > 0 {
			<-ctx.Done() // only the first answer comes before the stop
		}
		return i, ctx.Err()
	}
	for a := range fanout.Ordered(context.Background(), width, upTo(1000), fetch) {
		if a.Item != 0 || a.Err != nil {
			t.Fatalf("first answer %+v", a)
		}
		break
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.now != 0 {
		t.Errorf("%d fetches still running after the stop", g.now)
	}
	if len(g.started) > width || g.cancelled != len(g.started)-1 {
		t.Errorf("started %v, %d cancelled; want at most %d started, all but the first cancelled", g.started, g.cancelled, width)
	}
}

// TestOrderedWalkError: the walk's error comes after every answer of what
// it walked before failing.
func TestOrderedWalkError(t *testing.T) {
	t.Parallel()
	boom := errors.New("ListUsers failed")
	items := func(_ context.Context, yield func(int) bool) error {
		for i := range 5 {
			if !yield(i) {
				return nil
			}
		}
		return boom
	}
	var items2 []int
	var last error
	for a := range fanout.Ordered(context.Background(), 2, items, func(_ context.Context, i int) (int, error) { return i, nil }) {
		if a.WalkErr != nil {
			last = a.WalkErr
			continue
		}
		if last != nil {
			t.Fatalf("answer %d after the walk's error", a.Item)
		}
		items2 = append(items2, a.Item)
	}
	if !errors.Is(last, boom) || !slices.Equal(items2, []int{0, 1, 2, 3, 4}) {
		t.Errorf("got %v then %v; want 0..4 then the walk's error", items2, last)
	}
}
