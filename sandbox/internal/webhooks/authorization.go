// Authorization webhook: how the card decision calls it.
//
// The card-authorization simulation decides in the engine (package
// sandbox). After its own rules (card status, spending constraints,
// balance) and before it stores the decision, it calls
//
//	approved, reason, fallbackApplied, err := op.DecideAuthorization(accountID, sandbox.AuthorizationEvent{
//		TransactionID: providerAuthorizationID, CardID: card.ID, AccountID: card.AccountID,
//		VirtualAccountID: vaID, MerchantName: m.Name, MerchantCategoryCode: m.MCC,
//		MerchantCountry: m.Country, MerchantCity: m.City, MerchantState: m.State, MerchantZip: m.Zip,
//		AmountCents: amount, // positive: the amount asked for, USD cents
//	})
//
// with op the operation the decision runs in (an Update or a View). Names
// left empty (card, account, virtual account) are filled from the world.
// op.DecideAuthorization (sandbox/authorization.go) approves at once, with
// no request, when the account has no authorization webhook, when it is
// inactive, or when the legal entity is not enterprise; otherwise it calls
// the sandbox.AuthorizationDecider the server registered with
// engine.SetAuthorizer — the Caller below (Attach registers it). The
// results mean:
//
//   - approved, reason: the receiver's {approved, reason}; or the fallback's
//     decision with a reason starting "authorization webhook fallback".
//   - fallbackApplied: no valid answer came in time (timeout, connection
//     error, non-2xx status, or a body that is not {"approved": bool, ...})
//     and config.fallbackBehavior decided: reject declines; default
//     continues (approved true), or, with a when condition, continues only
//     the transactions it matches (sandbox.AuthorizationConfig.FallbackApproves,
//     a pure function). The card event and transaction should record
//     reason and fallbackApplied.
//   - err: the world's state could not be read; the decision should fail.
//
// The request is made while op's transaction is open, so the world's other
// writes wait for it (at most timeoutDurationMs, 1.5 s). A receiver that
// calls back into the same world's API while answering waits too and
// times out; like the real service's, receivers must answer from their own
// state. Decide makes no transaction of its own.
//
// Request: POST webhookUrl with the AuthorizationRequestEvent JSON and the
// headers x-webhook-id (the event id), x-webhook-timestamp (the wall-clock
// time of sending, Unix seconds, so receivers can apply the documented
// 2-minute tolerance whatever the virtual clock says), x-sandbox-virtual-time
// (the world's virtual time, RFC 3339; not signed) and x-webhook-signature:
// "v1=" + base64(HMAC-SHA256(key, "{x-webhook-id}.{x-webhook-timestamp}.{raw
// body}")), where key is the signingSecret with its whsec_ prefix removed,
// base64-decoded (sandbox.AuthorizationSigningKey).

package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Authorization webhook headers. The first three are the real service's;
// HeaderVirtualTime is the sandbox's own, sent with every webhook.
const (
	HeaderAuthID        = "x-webhook-id"
	HeaderAuthTimestamp = "x-webhook-timestamp"
	HeaderAuthSignature = "x-webhook-signature"
	// HeaderVirtualTime is the world's virtual time when the request was
	// made, RFC 3339 with milliseconds, UTC.
	HeaderVirtualTime = "x-sandbox-virtual-time"
)

// Caller posts authorization requests to accounts' authorization webhooks:
// the sandbox.AuthorizationDecider the server registers.
type Caller struct {
	Client *http.Client
	// Timeout, when positive, replaces each webhook's timeoutDurationMs.
	Timeout time.Duration
	// WallClock reads the real time that signed timestamps carry; nil is
	// time.Now. Only the HTTP layer reads it, never the engine.
	WallClock func() time.Time
	// Log receives a line per call: info when a valid answer came, warn
	// when the fallback decided (zero value: none).
	Log zerolog.Logger
}

// wallNow is the real time for a signed timestamp.
func (c *Caller) wallNow() time.Time {
	if c.WallClock != nil {
		return c.WallClock()
	}
	return time.Now()
}

// virtualTime formats a world's virtual time for HeaderVirtualTime.
func virtualTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// Decide asks the account's active authorization webhook, falling back to
// its configured behaviour when no valid answer arrives in time.
func (c *Caller) Decide(op *kernel.Op, accountID string, req cards.AuthorizationEvent) (bool, string, bool, error) {
	hook, ok, err := cards.ActiveAuthorizationWebhook(op, accountID)
	if err != nil || !ok {
		return true, "", false, err
	}
	req.AccountID = accountID
	if err := cards.CompleteAuthorizationRequest(op, &req); err != nil {
		return false, "", false, err
	}
	id := authorizationEventID(op.W.Seed, req.TransactionID)
	body, err := marshal(authorizationEvent(id, op.Now, req))
	if err != nil {
		return false, "", false, err
	}
	start := time.Now()
	answer, status, cause := c.call(hook, id, virtualTime(op.Now), body)
	c.logCall(op.W, hook, id, status, cause, time.Since(start))
	if cause != "" {
		approved := hook.Config.FallbackApproves(req)
		return approved, cards.FallbackReason(hook.Config, approved, cause), true, nil
	}
	return *answer.Approved, answer.Reason, false, nil
}

// authorizationAnswer is upstream's AuthorizationWebhookResponse.
type authorizationAnswer struct {
	Approved *bool  `json:"approved"`
	Reason   string `json:"reason"`
}

// logCall logs one authorization call. An authorization webhook belongs to
// its account, so the account's id names it; the event id is the request's.
func (c *Caller) logCall(
	w *kernel.World,
	hook *cards.AuthorizationWebhook,
	id string,
	status int,
	cause string,
	latency time.Duration,
) {
	ev := c.Log.Info()
	if cause != "" {
		ev = c.Log.Warn()
	}
	ev = ev.Str("world", w.ID).Str("url", hook.WebhookURL).Str("webhook_id", hook.AccountID).
		Str("event", "authorization.request").Str("delivery_id", id).Int("attempt", 1)
	logOutcome(ev, status, cause, latency).Msg("authorization webhook call to " + hook.WebhookURL)
}

// call posts the event and reads the answer and its status; cause says why
// there is no valid answer.
func (c *Caller) call(
	hook *cards.AuthorizationWebhook,
	id, virtual string,
	body []byte,
) (authorizationAnswer, int, string) {
	var answer authorizationAnswer
	timeout := time.Duration(hook.TimeoutDurationMs) * time.Millisecond
	if c.Timeout > 0 {
		timeout = c.Timeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hook.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return answer, 0, "error: " + err.Error()
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("user-agent", "slash-sandbox-webhooks/1.0")
	timestamp := strconv.FormatInt(c.wallNow().Unix(), 10)
	sig, err := SignAuthorization(hook.SigningSecret, id, timestamp, body)
	if err != nil {
		return answer, 0, "the signing secret has no key: " + err.Error()
	}
	req.Header.Set(HeaderAuthID, id)
	req.Header.Set(HeaderAuthTimestamp, timestamp)
	req.Header.Set(HeaderAuthSignature, sig)
	req.Header.Set(HeaderVirtualTime, virtual)
	req.Header.Set(web.SenderHeader, web.SentByAuthorization)
	client := c.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return answer, 0, describe(err, timeout)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case err != nil:
		return answer, resp.StatusCode, describe(err, timeout)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return answer, resp.StatusCode, fmt.Sprintf("the webhook answered status %d", resp.StatusCode)
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Approved == nil {
		return answer, resp.StatusCode, `malformed answer: want {"approved": true|false, "reason"?: "..."}`
	}
	return answer, resp.StatusCode, ""
}

// SignAuthorization returns the x-webhook-signature value: "v1=" and the
// base64 HMAC-SHA256 of "{id}.{timestamp}.{body}", keyed with the signing
// secret's key (the base64 after whsec_, decoded).
func SignAuthorization(secret, id, timestamp string, body []byte) (string, error) {
	key, err := cards.AuthorizationSigningKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	return "v1=" + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// marshal encodes JSON without HTML escaping and without a trailing
// newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// authorizationEventID names an authorization request: the same world seed
// and transaction always give the same id.
func authorizationEventID(seed int64, transactionID string) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(seed))
	sum := sha256.Sum256(append(b[:], "authorization.request:"+transactionID...))
	s := new(big.Int).SetBytes(sum[:12]).Text(36)
	for len(s) < 18 {
		s = "0" + s
	}
	return "evt_" + s[:18]
}

type idName struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

type location struct {
	City    string `json:"city,omitempty"`
	State   string `json:"state,omitempty"`
	Country string `json:"country"`
	Zip     string `json:"zip,omitempty"`
}

type conversion struct {
	ConversionRate       float64 `json:"conversionRate"`
	OriginalAmountCents  int64   `json:"originalAmountCents"`
	OriginalCurrencyCode string  `json:"originalCurrencyCode"`
}

// authorizationEvent builds upstream's AuthorizationRequestEvent.
func authorizationEvent(id string, now time.Time, r cards.AuthorizationEvent) map[string]any {
	data := map[string]any{
		"transaction":    map[string]string{"id": r.TransactionID, "timestamp": now.UTC().Format("2006-01-02T15:04:05.000Z")},
		"card":           idName{ID: r.CardID, Name: r.CardName},
		"account":        map[string]string{"id": r.AccountID, "name": r.AccountName},
		"virtualAccount": map[string]string{"id": r.VirtualAccountID, "name": r.VirtualAccountName},
		"merchant": map[string]any{"name": r.MerchantName, "categoryCode": r.MerchantCategoryCode,
			"location": location{City: r.MerchantCity, State: r.MerchantState, Country: r.MerchantCountry, Zip: r.MerchantZip}},
		"amount": map[string]int64{"amountCents": r.AmountCents},
	}
	if r.OriginalCurrencyCode != "" {
		data["currencyConversion"] = conversion{ConversionRate: r.ConversionRate, OriginalAmountCents: r.OriginalAmountCents,
			OriginalCurrencyCode: r.OriginalCurrencyCode}
	}
	return map[string]any{"event": map[string]string{"type": "authorization.request", "id": id}, "data": data}
}
