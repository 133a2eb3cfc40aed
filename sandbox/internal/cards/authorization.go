package cards

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// Authorization webhook statuses.
const (
	AuthorizationWebhookActive   = "active"
	AuthorizationWebhookInactive = "inactive"
)

// AuthorizationTimeout is how long the service waits for an authorization
// webhook's answer: the read-only timeoutDurationMs.
const AuthorizationTimeout = 1500 * time.Millisecond

// AuthorizationWebhook is an account's real-time authorization endpoint.
// SigningSecret is made once, when the webhook is created, and never
// changes.
type AuthorizationWebhook struct {
	AccountID         string              `json:"accountId"`
	LegalEntityID     string              `json:"legalEntityId"`
	WebhookURL        string              `json:"webhookUrl"`
	SigningSecret     string              `json:"signingSecret"`
	Status            string              `json:"status"`
	TimeoutDurationMs int                 `json:"timeoutDurationMs"`
	Config            AuthorizationConfig `json:"config"`
	CreatedAt         time.Time           `json:"createdAt"`
	UpdatedAt         time.Time           `json:"updatedAt"`
}

// AuthorizationEvent is one card authorization as its authorization
// webhook hears of it (upstream's AuthorizationRequestEvent).
type AuthorizationEvent struct {
	// TransactionID is the authorization's id: the transaction's
	// providerAuthorizationId.
	TransactionID      string
	CardID             string
	CardName           string
	AccountID          string
	AccountName        string
	VirtualAccountID   string
	VirtualAccountName string
	MerchantName       string
	// MerchantCategoryCode is the four-digit MCC.
	MerchantCategoryCode string
	// MerchantCountry is an ISO 3166-1 alpha-2 code.
	MerchantCountry string
	MerchantCity    string
	MerchantState   string
	MerchantZip     string
	// AmountCents is the amount asked for, in USD cents (positive for a
	// purchase).
	AmountCents int64
	// OriginalCurrencyCode, OriginalAmountCents and ConversionRate describe
	// a purchase made in another currency; empty for USD.
	OriginalCurrencyCode string
	OriginalAmountCents  int64
	ConversionRate       float64
}

// AuthorizationDecider asks an account's authorization webhook whether to
// approve a card authorization. The server registers one with
// SetAuthorizer; the engine never calls the network itself. Decide
// reads what it needs through op (it works inside a View or an Update) and
// must not start another transaction on op's world.
//
// It returns the receiver's answer, or the fallback's when the webhook gave
// no valid answer in time (fallbackApplied true). An account without an
// active authorization webhook is approved without a call. err is set only
// when the world's state could not be read.
type AuthorizationDecider interface {
	Decide(
		op *kernel.Op,
		accountID string,
		req AuthorizationEvent,
	) (approved bool, reason string, fallbackApplied bool, err error)
}

// DecideAuthorization is the card decision's call into the authorization
// webhook, made after the card's own rules and before the decision is
// stored. Without an active webhook it approves; when the server registered
// no decider, an active webhook cannot be reached and its fallback applies.
func DecideAuthorization(
	op *kernel.Op,
	accountID string,
	req AuthorizationEvent,
) (approved bool, reason string, fallbackApplied bool, err error) {
	hook, ok, err := ActiveAuthorizationWebhook(op, accountID)
	if err != nil || !ok {
		return true, "", false, err
	}
	if d := Authorizer(op.W); d != nil {
		return d.Decide(op, accountID, req)
	}
	approved = hook.Config.FallbackApproves(req)
	return approved, FallbackReason(hook.Config, approved, "no authorization caller is running"), true, nil
}

// FallbackReason explains a fallback decision: the cause of the fallback
// and what it decided.
func FallbackReason(c AuthorizationConfig, approved bool, cause string) string {
	verdict := "declined"
	if approved {
		verdict = "continued"
	}
	return "authorization webhook fallback (" + c.FallbackBehavior + "): " + cause + "; " + verdict
}

const kindAuthorizationWebhook = "authorization_webhook"

// ActiveAuthorizationWebhook loads an account's authorization webhook when
// it is active and its legal entity may use it.
func ActiveAuthorizationWebhook(op *kernel.Op, accountID string) (*AuthorizationWebhook, bool, error) {
	var h AuthorizationWebhook
	ok, err := op.Get(kindAuthorizationWebhook, accountID, &h)
	if err != nil || !ok || h.Status != AuthorizationWebhookActive {
		return nil, false, err
	}
	var le kernel.LegalEntity
	if ok, err := op.Get(kernel.LegalEntities.Name, h.LegalEntityID, &le); err != nil || !ok || !le.Enterprise {
		return nil, false, err
	}
	return &h, true, nil
}

// CompleteAuthorizationRequest fills the account, virtual account and card
// names a request leaves empty from the world's records.
func CompleteAuthorizationRequest(op *kernel.Op, r *AuthorizationEvent) error {
	if r.AccountName == "" {
		var acc ledger.Account
		if _, err := op.Get(ledger.KindAccount, r.AccountID, &acc); err != nil {
			return err
		}
		r.AccountName = acc.Name
	}
	if r.VirtualAccountName == "" {
		var va ledger.VirtualAccount
		if _, err := op.Get(ledger.KindVirtualAccount, r.VirtualAccountID, &va); err != nil {
			return err
		}
		r.VirtualAccountName = va.Name
	}
	if r.CardName == "" {
		var c Card
		if _, err := op.Get(Kind, r.CardID, &c); err != nil {
			return err
		}
		r.CardName = c.Name
	}
	return nil
}

// CheckEnterprise refuses legal entities without the enterprise plan, as
// the real service does for enterprise features.
func CheckEnterprise(a *kernel.Actor) error {
	if !a.LegalEntity.Enterprise {
		return kernel.Errorf(kernel.CodeForbidden,
			"the authorization webhook is an enterprise feature; it is not enabled for this legal entity")
	}
	return nil
}

// AuthorizationWebhookInput is the body of a PUT (every field) or a PATCH
// (the fields given).
type AuthorizationWebhookInput struct {
	WebhookURL *string
	Status     *string
	Config     *AuthorizationConfig
}

// Problems validates the fields given, keyed by JSON pointer; replace
// requires them all.
func (in AuthorizationWebhookInput) Problems(replace bool) map[string]string {
	d := map[string]string{}
	switch {
	case in.WebhookURL != nil:
		if p := deliveries.WebhookURLProblem(*in.WebhookURL); p != "" {
			d["/webhookUrl"] = p
		}
	case replace:
		d["/webhookUrl"] = "required"
	}
	switch {
	case in.Status != nil:
		if *in.Status != AuthorizationWebhookActive && *in.Status != AuthorizationWebhookInactive {
			d["/status"] = "must be active or inactive"
		}
	case replace:
		d["/status"] = "required: active or inactive"
	}
	switch {
	case in.Config != nil:
		in.Config.Problems("/config", d)
	case replace:
		d["/config"] = "required"
	}
	return d
}

// AuthorizationWebhook loads an account's authorization webhook.
func FindAuthorizationWebhook(op *kernel.Op, a *kernel.Actor, accountID string) (*AuthorizationWebhook, error) {
	h, ok, err := authorizationWebhookOf(op, a, accountID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.Errorf(kernel.CodeNotFound, "account %s has no authorization webhook; create one with PUT",
			accountID)
	}
	return h, nil
}

// authorizationWebhookOf checks the actor may use the feature on the
// account, then loads its webhook if there is one.
func authorizationWebhookOf(op *kernel.Op, a *kernel.Actor, accountID string) (*AuthorizationWebhook, bool, error) {
	if err := CheckEnterprise(a); err != nil {
		return nil, false, err
	}
	if _, err := ledger.AccountOf(op, a, accountID, ""); err != nil {
		return nil, false, err
	}
	var h AuthorizationWebhook
	ok, err := op.Get(kindAuthorizationWebhook, accountID, &h)
	return &h, ok, err
}

// PutAuthorizationWebhook creates or replaces an account's authorization
// webhook. Creating it makes its signing secret; replacing keeps it.
func PutAuthorizationWebhook(
	op *kernel.Op,
	a *kernel.Actor,
	accountID string,
	in AuthorizationWebhookInput,
) (*AuthorizationWebhook, error) {
	if d := in.Problems(true); len(d) > 0 {
		return nil, kernel.Invalid(d)
	}
	h, ok, err := authorizationWebhookOf(op, a, accountID)
	if err != nil {
		return nil, err
	}
	if !ok {
		secret, err := SigningSecret(op)
		if err != nil {
			return nil, err
		}
		h = &AuthorizationWebhook{AccountID: accountID, LegalEntityID: a.LegalEntityID(), SigningSecret: secret,
			TimeoutDurationMs: int(AuthorizationTimeout / time.Millisecond), CreatedAt: op.Now}
	}
	return updateAuthorizationWebhook(op, h, in)
}

// PatchAuthorizationWebhook changes the given fields of an existing
// authorization webhook; a given config replaces the whole config.
func PatchAuthorizationWebhook(
	op *kernel.Op,
	a *kernel.Actor,
	accountID string,
	in AuthorizationWebhookInput,
) (*AuthorizationWebhook, error) {
	if d := in.Problems(false); len(d) > 0 {
		return nil, kernel.Invalid(d)
	}
	h, err := FindAuthorizationWebhook(op, a, accountID)
	if err != nil {
		return nil, err
	}
	return updateAuthorizationWebhook(op, h, in)
}

func updateAuthorizationWebhook(
	op *kernel.Op,
	h *AuthorizationWebhook,
	in AuthorizationWebhookInput,
) (*AuthorizationWebhook, error) {
	if in.WebhookURL != nil {
		h.WebhookURL = *in.WebhookURL
	}
	if in.Status != nil {
		h.Status = *in.Status
	}
	if in.Config != nil {
		h.Config = *in.Config
	}
	h.UpdatedAt = op.Now
	return h, op.Save(kindAuthorizationWebhook, h.AccountID, h)
}

// SigningSecretPrefix starts every authorization-webhook signing secret.
const SigningSecretPrefix = "whsec_"

// AuthorizationSigningKey is the HMAC key a signing secret stands for: the
// base64 (standard alphabet) text after the whsec_ prefix, decoded. A
// secret without the prefix, or whose rest is empty or not base64, has no
// key.
func AuthorizationSigningKey(secret string) ([]byte, error) {
	rest, ok := strings.CutPrefix(secret, SigningSecretPrefix)
	if !ok {
		return nil, errors.New("a signing secret starts with whsec_")
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return nil, errors.New("the text after whsec_ must be standard base64: " + err.Error())
	}
	if len(key) == 0 {
		return nil, errors.New("the text after whsec_ is empty")
	}
	return key, nil
}

// SigningSecret makes a new whsec_ secret from the world's seed: whsec_
// and the base64 of 24 seeded bytes, the HMAC key.
func SigningSecret(op *kernel.Op) (string, error) {
	n, err := op.Counter("whsec")
	if err != nil {
		return "", err
	}
	var raw [24]byte
	for i := 0; i < len(raw); i += 8 {
		binary.BigEndian.PutUint64(raw[i:], kernel.Derive(op.W.Seed, "whsec", n*3+int64(i/8)))
	}
	return SigningSecretPrefix + base64.StdEncoding.EncodeToString(raw[:]), nil
}

// authorizerKey is where the engine keeps cards' authorizer
// (kernel.Engine.Connect).
type authorizerKey struct{}

// Authorizer returns the decider the server registered, or nil.
func Authorizer(w *kernel.World) AuthorizationDecider {
	d, _ := w.Connection(authorizerKey{}).(AuthorizationDecider)
	return d
}

// SetAuthorizer registers what decides card authorizations through the
// accounts' authorization webhooks (see AuthorizationDecider).
func SetAuthorizer(e *kernel.Engine, d AuthorizationDecider) { e.Connect(authorizerKey{}, d) }
