package kernel

import (
	"slices"
	"sync"
)

// TopicOutbox is announced when a message lands in a world's outbox.
const TopicOutbox = "outbox"

// changes wakes those who wait for a kind of record (a topic) to change in
// a world: each topic has one channel, closed and forgotten when the topic
// is announced, so every waiter wakes once and asks for a new channel.
// Nothing is kept for a topic nobody waits for.
type changes struct {
	mu      sync.Mutex
	waiting map[string]chan struct{}
	// gone is set when the world is deleted: every later wait wakes at once.
	gone bool
}

// closedChan is an already closed channel, for waits on a deleted world.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Changed returns a channel closed the next time topic is announced in the
// world, or when the world is reset, restored or deleted. Take it before
// reading the world, so no change between the read and the wait is missed.
func (w *World) Changed(topic string) <-chan struct{} {
	c := &w.changes
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone {
		return closedChan
	}
	if c.waiting == nil {
		c.waiting = map[string]chan struct{}{}
	}
	ch, ok := c.waiting[topic]
	if !ok {
		ch = make(chan struct{})
		c.waiting[topic] = ch
	}
	return ch
}

// Announce wakes, once the operation's writes are stored, whoever waits for
// topic; a failed operation wakes nobody. Announcing a topic twice in one
// operation wakes its waiters once. A quiet operation wakes nobody.
func (op *Op) Announce(topic string) {
	if op.quiet != nil || slices.Contains(op.announced, topic) {
		return
	}
	op.announced = append(op.announced, topic)
	op.AfterCommit(func() { op.W.wake(topic) })
}

// wake closes topic's channel, or every topic's when topic is "".
func (w *World) wake(topic string) {
	c := &w.changes
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wakeLocked(topic)
}

func (c *changes) wakeLocked(topic string) {
	for t, ch := range c.waiting {
		if topic == "" || t == topic {
			close(ch)
			delete(c.waiting, t)
		}
	}
}

// forgetWaiters wakes every waiter of a deleted world, and every later one
// at once.
func (w *World) forgetWaiters() {
	c := &w.changes
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wakeLocked("")
	c.gone = true
}
