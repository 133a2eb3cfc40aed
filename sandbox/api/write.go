package api

import (
	"context"
	"net/http"
	"unicode/utf8"

	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

// idemMode says how a write treats X-Idempotency-Key.
type idemMode int

const (
	// idemNone: the operation takes no idempotency key.
	idemNone idemMode = iota
	// idemReplay (first generation): the key is required; the same key with
	// the same body replays the first response, with another body is 409.
	idemReplay
	// idemConsume (second generation): the key is required; once a valid
	// request reaches the operation the key is consumed, success or not, and
	// any reuse is 409 with nothing replayed.
	idemConsume
)

// write describes one write operation for the shared pipeline.
type write struct {
	gen    web.Gen
	idem   idemMode
	status int
	// noBody marks an action that takes no request body.
	noBody bool
	// apiKeyOnly refuses OAuth bearer tokens.
	apiKeyOnly bool
	// input decodes and checks the body; its errors are 400s returned
	// before anything is deferred, consumed or changed.
	input func(c *call, body []byte) error
	// run performs the write as one atomic operation and returns the
	// response body.
	run func(op *sandbox.Op, c *call) (any, error)
}

type approvedKey struct{}

// approved reports whether a request is an approved agent request being
// run on its key owner's behalf.
func approved(r *http.Request) bool { return r.Context().Value(approvedKey{}) != nil }

// withApproval marks a request as an approved agent request.
func withApproval(ctx context.Context) context.Context {
	return context.WithValue(ctx, approvedKey{}, true)
}

// doWrite runs the pipeline every write shares: authenticate, read and check
// the body, check the idempotency key, defer a read-only key's write, then
// run the operation and its idempotency bookkeeping in one transaction.
func (a *API) doWrite(r *http.Request, w write) (any, error) {
	c, err := a.auth(r, authOpts{gen: w.gen, apiKeyOnly: w.apiKeyOnly})
	if err != nil {
		return nil, err
	}
	var body []byte
	if !w.noBody {
		if body, err = web.ReadBody(r); err != nil {
			return nil, err
		}
	}
	if w.input != nil {
		if err := w.input(c, body); err != nil {
			return nil, err
		}
	}
	key := r.Header.Get("X-Idempotency-Key")
	if w.idem != idemNone {
		if err := checkIdempotencyKey(key); err != nil {
			return nil, err
		}
	}
	if c.P.Key.ReadOnly && !approved(r) {
		return a.deferWrite(r, c, body)
	}
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	op := web.InfoOf(r).Route
	if w.idem == idemNone {
		var out any
		err := c.W.Update(func(o *sandbox.Op) error {
			out, err = w.run(o, c)
			return err
		})
		if err != nil {
			return nil, err
		}
		return web.Status(status, out), nil
	}
	return a.idempotent(c, w, op, key, sandbox.HashBody(body), status)
}

func checkIdempotencyKey(key string) error {
	switch n := utf8.RuneCountInString(key); {
	case n == 0:
		return sandbox.InvalidField("X-Idempotency-Key", "required")
	case n > 255:
		return sandbox.InvalidField("X-Idempotency-Key", "must be 1 to 255 characters")
	}
	return nil
}

// idempotent runs an operation under an idempotency key.
func (a *API) idempotent(c *call, w write, operation, key, hash string, status int) (any, error) {
	le := c.Actor.LegalEntityID()
	var replay *web.Response
	var runErr error
	err := c.W.Update(func(op *sandbox.Op) error {
		rec, used, err := op.Idempotency(le, operation, key)
		if err != nil {
			return err
		}
		if used {
			if w.idem == idemConsume || rec.BodyHash != hash {
				return sandbox.Errorf(sandbox.CodeConflict, "the X-Idempotency-Key was already used for this operation")
			}
			replay = &web.Response{Status: rec.Status, Raw: rec.Response, ContentType: "application/json"}
			return nil
		}
		out, err := w.run(op, c)
		if err != nil {
			runErr = err
			return err
		}
		raw, err := web.Encode(out)
		if err != nil {
			return err
		}
		replay = &web.Response{Status: status, Raw: raw, ContentType: "application/json"}
		return op.RememberIdempotency(le, operation, key, &sandbox.IdempotencyRecord{BodyHash: hash, Status: status,
			Response: raw, Consumed: w.idem == idemConsume})
	})
	if runErr != nil && w.idem == idemConsume {
		consumeErr := c.W.Update(func(op *sandbox.Op) error {
			return op.RememberIdempotency(le, operation, key, &sandbox.IdempotencyRecord{BodyHash: hash, Consumed: true})
		})
		if consumeErr != nil {
			return nil, consumeErr
		}
	}
	if err != nil {
		return nil, err
	}
	return replay, nil
}
