package kernel

import (
	"sync"
	"sync/atomic"
)

// engineHooks are the engine's connections to the world outside it. The
// server sets them; the engine only calls them, and never touches the
// network itself.
type engineHooks struct {
	// due is told, after a commit, that a world has webhook deliveries
	// due.
	due atomic.Pointer[func(*World)]
	// connections are what domains were given (see Connect).
	connections sync.Map
}

// Connect gives the engine's worlds a connection to the world outside,
// under key: a domain keeps what the server hands it there (cards, the
// caller of authorization webhooks) and finds it with World.Connection.
func (e *Engine) Connect(key, v any) { e.Hooks.connections.Store(key, v) }

// Connection is what the world's engine was given under key (Connect): nil
// when it was given nothing, or when the world is not registered.
func (w *World) Connection(key any) any {
	if w.Hooks == nil {
		return nil
	}
	v, _ := w.Hooks.connections.Load(key)
	return v
}

// SetDeliveryNotifier registers the function told, after every commit that
// makes webhook deliveries due, which world has them. The webhook sender
// sets it; the function must not block.
func (e *Engine) SetDeliveryNotifier(f func(*World)) {
	e.Hooks.due.Store(&f)
}

// afterCommit runs f once the operation's writes are stored; nothing runs
// when the operation fails.
func (op *Op) afterCommit(f func()) { op.committed = append(op.committed, f) }

// NotifyDue tells the webhook sender, after the commit, that this world
// has deliveries due. Telling it twice is harmless.
func (op *Op) NotifyDue() {
	op.afterCommit(func() {
		if op.W.Hooks == nil {
			return
		}
		if f := op.W.Hooks.due.Load(); f != nil {
			(*f)(op.W)
		}
	})
}
