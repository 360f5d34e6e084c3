package semantic

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// job is a text to embed, and the tables waiting for its vector.
type job struct {
	key  Key
	text string
	tabs []*table
}

// worker embeds the queued texts in the background, a batch at a time, on
// one goroutine that runs while there is work (see Strategy, Ownership).
type worker struct {
	s      *Strategy
	ctx    context.Context // cancelled by close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the goroutine

	mu       sync.Mutex   // taken before a table's mu when both are held
	pending  map[Key]*job // queued or being embedded
	queue    []*job       // queued, first in first out
	busy     bool         // the goroutine runs
	closed   bool
	changed  chan struct{} // closed and replaced when the state changes, for wait
	failures int           // batches failed so far
	lastErr  error

	closeWait time.Duration // how long close waits for the goroutine; tests shorten it
}

// closeWait is how long Close waits for a batch whose Embedder ignores
// the cancelled context (Strategy.Close documents it).
const closeWait = 5 * time.Second

func newWorker(s *Strategy) *worker {
	ctx, cancel := context.WithCancel(context.Background())
	return &worker{s: s, ctx: ctx, cancel: cancel, pending: map[Key]*job{}, changed: make(chan struct{}), closeWait: closeWait}
}

// signal wakes the waiters. w.mu must be held.
func (w *worker) signal() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// enqueue queues the texts of jobs for tab (a text already queued is
// queued once, for every table waiting for it) and starts the goroutine
// if it is not running. A job whose vector tab got since its index looked
// (a batch delivered meanwhile, before it left pending) is dropped, so
// that no text is embedded twice.
func (w *worker) enqueue(tab *table, jobs []job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	tab.mu.Lock()
	defer tab.mu.Unlock()
	for _, j := range jobs {
		if _, has := tab.rowOf[j.key]; has {
			continue
		}
		if p := w.pending[j.key]; p != nil {
			if !slices.Contains(p.tabs, tab) {
				p.tabs = append(p.tabs, tab)
			}
			continue
		}
		p := &job{key: j.key, text: j.text, tabs: []*table{tab}}
		w.pending[j.key] = p
		w.queue = append(w.queue, p)
	}
	if !w.busy && len(w.queue) > 0 {
		w.busy = true
		w.wg.Add(1)
		go w.run()
	}
}

// run embeds batches until the queue is empty or the worker is closed,
// then flushes the Store.
func (w *worker) run() {
	defer w.wg.Done()
	s := w.s
	var retry time.Duration
	dirty := false // vectors put in the Store since the last flush
	for {
		w.mu.Lock()
		if w.closed || len(w.queue) == 0 {
			if dirty && !w.closed {
				w.mu.Unlock()
				w.report(w.flush())
				dirty = false
				continue // more may have been queued meanwhile
			}
			w.busy = false
			w.signal()
			w.mu.Unlock()
			return
		}
		n := min(len(w.queue), s.opts.BatchSize)
		batch := slices.Clone(w.queue[:n])
		clear(w.queue[:n])
		w.queue = w.queue[n:]
		w.mu.Unlock()

		texts := make([]string, len(batch))
		for i, j := range batch {
			texts[i] = j.text
		}
		ctx, cancel := context.WithTimeout(w.ctx, batchTimeout)
		vecs, err := embed(ctx, s.emb, texts)
		cancel()
		if w.ctx.Err() != nil {
			continue // closed: Close may have given up waiting for this batch
		}
		if err == nil && len(vecs) != len(texts) {
			err = fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
		}
		if err != nil {
			err = fmt.Errorf("semantic: embedding %d tool texts: %w", len(texts), err)
			w.mu.Lock()
			w.queue = append(batch, w.queue...)
			w.failures++
			w.lastErr = err
			w.signal()
			w.mu.Unlock()
			w.report(err)
			retry = min(max(2*retry, retryMin), retryMax)
			t := time.NewTimer(retry)
			select {
			case <-t.C:
			case <-w.ctx.Done():
				t.Stop()
			}
			continue
		}
		retry = 0
		if w.deliver(batch, vecs) {
			dirty = true
		}
		w.mu.Lock()
		for _, j := range batch {
			delete(w.pending, j.key)
		}
		w.signal()
		w.mu.Unlock()
	}
}

// deliver puts the vectors of batch in the Store and in the tables
// waiting for them, and reports whether the Store got any.
func (w *worker) deliver(batch []*job, vecs [][]float32) (stored bool) {
	s := w.s
	byTab := map[*table][]int{}
	var tabs []*table
	for i, j := range batch {
		if _, err := check(vecs[i], s.dims); err != nil {
			w.report(fmt.Errorf("semantic: the Embedder's vector for %q: %w", clip(j.text), err))
			continue
		}
		if st := s.opts.Store; st != nil {
			if err := guarded("the Store's Put", func() error { return st.Put(j.key, vecs[i]) }); err != nil {
				w.report(fmt.Errorf("semantic: storing a vector: %w", err))
			} else {
				stored = true
			}
		}
		for _, t := range j.tabs {
			if _, ok := byTab[t]; !ok {
				tabs = append(tabs, t)
			}
			byTab[t] = append(byTab[t], i)
		}
	}
	for _, t := range tabs {
		keys := make([]Key, 0, len(byTab[t]))
		vs := make([][]float32, 0, len(byTab[t]))
		for _, i := range byTab[t] {
			keys, vs = append(keys, batch[i].key), append(vs, vecs[i])
		}
		t.mu.Lock()
		t.add(keys, vs) // checked above
		t.mu.Unlock()
	}
	return stored
}

// flush flushes the Store, if any.
func (w *worker) flush() error {
	if st := w.s.opts.Store; st != nil {
		if err := guarded("the Store's Flush", st.Flush); err != nil {
			return fmt.Errorf("semantic: flushing the Store: %w", err)
		}
	}
	return nil
}

func (w *worker) close() error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		clear(w.queue)
		w.queue = nil
		w.pending = map[Key]*job{}
		w.cancel()
		w.signal()
	}
	w.mu.Unlock()
	stopped := make(chan struct{})
	go func() {
		w.wg.Wait()
		close(stopped)
	}()
	t := time.NewTimer(w.closeWait)
	defer t.Stop()
	select {
	case <-stopped:
		return w.flush()
	case <-t.C:
		return errors.Join(fmt.Errorf("semantic: Close: the Embedder did not return within %v of its context's end; its batch is abandoned", w.closeWait), w.flush())
	}
}

// report reports err to OnError (see Strategy.report); a panic of
// OnError, which has nowhere to be reported, is dropped.
func (w *worker) report(err error) {
	_ = guarded("OnError", func() error { w.s.report(err); return nil })
}

func (w *worker) wait(ctx context.Context) error {
	w.mu.Lock()
	start := w.failures
	for {
		if !w.busy {
			w.mu.Unlock()
			return nil
		}
		if w.failures > start {
			err := w.lastErr
			w.mu.Unlock()
			return err
		}
		ch := w.changed
		w.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		w.mu.Lock()
	}
}

// clip shortens a tool text for an error message.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	return strings.ToValidUTF8(s[:60], "") + "…"
}
