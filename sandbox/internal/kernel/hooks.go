package kernel

import "sync/atomic"

// engineHooks are the engine's connections to the world outside it. The
// server sets them; the engine only calls them, and never touches the
// network itself.
type engineHooks struct {
	// due is told, after a commit, that a world has webhook deliveries
	// due.
	due atomic.Pointer[func(*World)]
	// Authorizer decides card authorizations through authorization
	// webhooks: a *AuthorizationDecider (see SetAuthorizer).
	Authorizer atomic.Value
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
