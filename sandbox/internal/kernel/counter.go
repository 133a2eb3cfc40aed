package kernel

import "sync"

// changeCounter counts what someone watching a world sees change: every
// write that committed, a reset or restore, and every request the journal
// records. Watchers wait on a channel closed at the next change, so a
// dashboard refreshes when something happened instead of polling.
type changeCounter struct {
	mu sync.Mutex
	n  uint64
	// next is closed at the next change; nil until someone waits.
	next chan struct{}
}

// Touch counts a change of the world and wakes whoever waits for one.
func (w *World) Touch() {
	c := &w.counter
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.next != nil {
		close(c.next)
		c.next = nil
	}
}

// Changes returns how many changes the world has seen and a channel that
// is closed at the next one.
func (w *World) Changes() (uint64, <-chan struct{}) {
	c := &w.counter
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == nil {
		c.next = make(chan struct{})
	}
	return c.n, c.next
}
