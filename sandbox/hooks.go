package sandbox

import "sync/atomic"

// engineHooks are the engine's connections to the world outside it. The
// server sets them; the engine only calls them, and never touches the
// network itself.
type engineHooks struct {
	// due is told, after a commit, that a world has webhook deliveries
	// due.
	due atomic.Pointer[func(*World)]
	// authorizer decides card authorizations through authorization
	// webhooks.
	authorizer atomic.Pointer[AuthorizationDecider]
}

// SetDeliveryNotifier registers the function told, after every commit that
// makes webhook deliveries due, which world has them. The webhook sender
// sets it; the function must not block.
func (e *Engine) SetDeliveryNotifier(f func(*World)) {
	e.hooks.due.Store(&f)
}

// SetAuthorizer registers what decides card authorizations through the
// accounts' authorization webhooks (see AuthorizationDecider).
func (e *Engine) SetAuthorizer(d AuthorizationDecider) {
	e.hooks.authorizer.Store(&d)
}

// Authorizer returns the decider the server registered, or nil.
func (w *World) Authorizer() AuthorizationDecider {
	if w.hooks == nil {
		return nil
	}
	if d := w.hooks.authorizer.Load(); d != nil {
		return *d
	}
	return nil
}

// afterCommit runs f once the operation's writes are stored; nothing runs
// when the operation fails.
func (op *Op) afterCommit(f func()) { op.committed = append(op.committed, f) }

// notifyDue tells the webhook sender, after the commit, that this world
// has deliveries due. Telling it twice is harmless.
func (op *Op) notifyDue() {
	op.afterCommit(func() {
		if op.W.hooks == nil {
			return
		}
		if f := op.W.hooks.due.Load(); f != nil {
			(*f)(op.W)
		}
	})
}
