package kernel

import "sync"

// engineHooks are the engine's connections to the world outside it. The
// server hands them to the domains, which keep them here; the engine only
// calls them, and never touches the network itself.
type engineHooks struct {
	// connections are what domains were given (see Connect).
	connections sync.Map
}

// Connect gives the engine's worlds a connection to the world outside,
// under key: a domain keeps what the server hands it there (the webhook
// sender's notifier, the caller of authorization webhooks) and finds it
// with World.Connection.
func (e *Engine) Connect(key, v any) { e.hooks.connections.Store(key, v) }

// Connection is what the world's engine was given under key (Connect): nil
// when it was given nothing, or when the world is not registered.
func (w *World) Connection(key any) any {
	if w.hooks == nil {
		return nil
	}
	v, _ := w.hooks.connections.Load(key)
	return v
}

// AfterCommit runs f once the operation's writes are stored; nothing runs
// when the operation fails.
func (op *Op) AfterCommit(f func()) { op.committed = append(op.committed, f) }
