package api

import (
	"context"
	"net/http"
	"unicode/utf8"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
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
	// idemOptional (first generation): the key may be left out, and then
	// the write runs as if it took none; when sent it acts as idemReplay.
	idemOptional
)

// write describes one write operation for the shared pipeline.
type write struct {
	gen    web.Gen
	idem   idemMode
	status int
	// noBody marks an action that takes no request body.
	noBody bool
	// operation scopes idempotency keys; "" is the route's name. Routes
	// that spell one operation twice share it.
	operation string
	// apiKeyOnly refuses OAuth bearer tokens.
	apiKeyOnly bool
	// input decodes and checks the body; its errors are 400s returned
	// before anything is deferred, consumed or changed.
	input func(c *call, body []byte) error
	// run performs the write as one atomic operation and returns the
	// response body.
	run func(op *kernel.Op, c *call) (any, error)
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
	if w.idem == idemOptional {
		w.idem = idemNone
		if _, sent := r.Header[idempotencyHeader]; sent {
			w.idem = idemReplay
		}
	}
	c, err := a.auth(r, authOpts{gen: w.gen, apiKeyOnly: w.apiKeyOnly})
	if err != nil {
		return nil, err
	}
	body, err := readWrite(r, w, c)
	if err != nil {
		return nil, err
	}
	key := r.Header.Get(idempotencyHeader)
	if c.P.Key.ReadOnly && !approved(r) {
		return a.deferWrite(r, c, body)
	}
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	op := w.operation
	if op == "" {
		op = web.InfoOf(r).Route
	}
	if w.idem == idemNone {
		var out any
		err := c.W.Update(func(o *kernel.Op) error {
			out, err = w.run(o, c)
			return err
		})
		if err != nil {
			return nil, err
		}
		return web.Status(status, out), nil
	}
	return a.idempotent(c, w, op, key, kernel.HashBody(body), status)
}

// idempotencyHeader is the idempotency key's header, in canonical form.
const idempotencyHeader = "X-Idempotency-Key"

func checkIdempotencyKey(key string) error {
	switch n := utf8.RuneCountInString(key); {
	case n == 0:
		return kernel.InvalidField(idempotencyHeader, "required")
	case n > 255:
		return kernel.InvalidField(idempotencyHeader, "must be 1 to 255 characters")
	}
	return nil
}

// usedKey answers a request whose key was used before: the first answer
// again, or 409. It reports false for a key not used yet.
func usedKey(op *kernel.Op, w write, le, operation, key, hash string) (*web.Response, bool, error) {
	rec, used, err := op.Idempotency(le, operation, key)
	if err != nil || !used {
		return nil, false, err
	}
	if w.idem == idemConsume || rec.BodyHash != hash {
		return nil, true, kernel.Errorf(kernel.CodeConflict, "the X-Idempotency-Key was already used for this operation")
	}
	return &web.Response{Status: rec.Status, Raw: rec.Response, ContentType: "application/json"}, true, nil
}

// idempotent runs an operation under an idempotency key. A key used before
// is answered from a read, so a retry writes nothing; the write checks
// again, for a retry racing the first call.
func (a *API) idempotent(c *call, w write, operation, key, hash string, status int) (any, error) {
	le := c.Actor.LegalEntityID()
	var replay *web.Response
	var used bool
	err := c.view(func(op *kernel.Op) (err error) {
		replay, used, err = usedKey(op, w, le, operation, key, hash)
		return err
	})
	if err != nil {
		return nil, err
	}
	if used {
		return replay, nil
	}
	var runErr error
	err = c.W.Update(func(op *kernel.Op) error {
		var err error
		if replay, used, err = usedKey(op, w, le, operation, key, hash); err != nil || used {
			return err
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
		return op.RememberIdempotency(le, operation, key, &kernel.IdempotencyRecord{BodyHash: hash, Status: status,
			Response: raw, Consumed: w.idem == idemConsume})
	})
	if runErr != nil && w.idem == idemConsume {
		consumeErr := c.W.Update(func(op *kernel.Op) error {
			return op.RememberIdempotency(le, operation, key, &kernel.IdempotencyRecord{BodyHash: hash, Consumed: true})
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

// readWrite reads and checks a write's body and idempotency key. The first
// generation stops at the first problem; the second reports every failing
// location (headers and body) in one 400, a wrong Content-Type included.
func readWrite(r *http.Request, w write, c *call) ([]byte, error) {
	var problems []error
	var body []byte
	var err error
	if !w.noBody {
		if body, err = web.ReadBody(r); err != nil {
			if e, ok := kernel.AsError(err); ok && w.gen == web.Gen2 && e.Code == kernel.CodeUnsupportedMediaType {
				err = kernel.InvalidField("Content-Type", "must be application/json")
			}
			problems = append(problems, err)
		}
	}
	if w.idem != idemNone {
		if err := checkIdempotencyKey(r.Header.Get(idempotencyHeader)); err != nil {
			problems = append(problems, err)
		}
	}
	if w.input != nil && (len(problems) == 0 || (w.gen == web.Gen2 && body != nil)) {
		if err := w.input(c, body); err != nil {
			problems = append(problems, err)
		}
	}
	if len(problems) == 0 {
		return body, nil
	}
	if w.gen == web.Gen1 || len(problems) == 1 {
		return nil, problems[0]
	}
	details := map[string]string{}
	for _, p := range problems {
		e, ok := kernel.AsError(p)
		if !ok || e.Code != kernel.CodeInvalidRequest {
			return nil, p
		}
		for k, v := range e.Details {
			details[k] = v
		}
	}
	return nil, kernel.Invalid(details)
}

// keyedUnless is the idempotency mode of a write that shares its handler
// with another: the optional key, except when skip (the update of a
// create-or-update pair).
func keyedUnless(skip bool) idemMode {
	if skip {
		return idemNone
	}
	return idemOptional
}
