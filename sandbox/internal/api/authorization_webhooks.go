package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesAuthorizationWebhooks(r *mux.Router, docs *openapi.Registry) {
	describeAuthorizationWebhooks(docs)
	const path = "/account/{accountId}/authorization-webhook"
	web.Route(r, web.Gen1, http.MethodGet, path, "account.authorization_webhook.get", a.getAuthorizationWebhook)
	web.Route(r, web.Gen1, http.MethodPut, path, "account.authorization_webhook.replace", a.putAuthorizationWebhook)
	web.Route(r, web.Gen1, http.MethodPatch, path, "account.authorization_webhook.update", a.patchAuthorizationWebhook)
	a.shows("account.authorization_webhook.replace", currentAuthorizationWebhook)
	a.shows("account.authorization_webhook.update", currentAuthorizationWebhook)
}

// describeAuthorizationWebhooks adds the descriptions of these routes, and
// the components they name, to docs.
func describeAuthorizationWebhooks(docs *openapi.Registry) {
	docs.Component("AuthorizationWebhook", authorizationWebhook{})
	condition := openapi.Ref("AuthorizationWebhookCondition")
	docs.Component("AuthorizationWebhookCondition", openapi.Schema{"oneOf": []any{
		object(openapi.Schema{"operator": oneOfStrings("and", "or"), "left": condition, "right": condition}, "operator",
			"left", "right"),
		object(openapi.Schema{"operator": oneOfStrings("lte", "lt", "gte", "gt", "eq"), "field": oneOfStrings("amountCents"),
			"value": described(integerType, "USD cents, compared with the absolute amount.")}, "operator", "field", "value"),
		object(
			openapi.Schema{"operator": oneOfStrings("in"), "field": oneOfStrings("merchantCategoryCode", "merchantCountry"),
				"values": openapi.Schema{
					"type":     "array",
					"minItems": 1,
					"items":    openapi.Schema{"type": "string", "minLength": 1},
				}},
			"operator",
			"field",
			"values",
		),
	}, "description": "At most 10 levels deep."})
	docs.Component("AuthorizationWebhookConfig", openapi.Schema{"oneOf": []any{
		object(openapi.Schema{"fallbackBehavior": oneOfStrings(cards.FallbackReject)}, "fallbackBehavior"),
		object(openapi.Schema{"fallbackBehavior": oneOfStrings(cards.FallbackDefault), "when": condition},
			"fallbackBehavior"),
	}, "description": "What happens when the webhook gives no valid answer in time: reject declines; default continues" +
		" with the standard authorization, when the condition (if any) holds."})
	props := openapi.Schema{"webhookUrl": openapi.Schema{"type": "string", "format": "uri", "maxLength": 2048},
		"status": oneOfStrings(cards.AuthorizationWebhookActive, cards.AuthorizationWebhookInactive),
		"config": openapi.Ref("AuthorizationWebhookConfig")}
	docs.Describe(
		"account.authorization_webhook.get",
		openapi.Op{Summary: "An account's authorization webhook (enterprise)",
			Response: authorizationWebhook{}},
	)
	docs.Describe(
		"account.authorization_webhook.replace",
		keyed(openapi.Op{Summary: "Create or replace an account's authorization webhook (enterprise)",
			Description: "The signing secret is made once, when the webhook is created, and never changes.",
			Body:        object(props, "webhookUrl", "status", "config"), Response: authorizationWebhook{}}),
	)
	docs.Describe(
		"account.authorization_webhook.update",
		openapi.Op{Summary: "Update an account's authorization webhook (enterprise)",
			Description: "Absent properties stay as they are.", Body: object(props), Response: authorizationWebhook{}},
	)
}

// authorizationWebhook is upstream's AuthorizationWebhook.
type authorizationWebhook struct {
	WebhookURL        string                    `json:"webhookUrl"`
	SigningSecret     string                    `json:"signingSecret"`
	Status            string                    `json:"status" enum:"active,inactive"`
	TimeoutDurationMs int                       `json:"timeoutDurationMs"`
	Config            cards.AuthorizationConfig `json:"config" ref:"AuthorizationWebhookConfig"`
	CreatedAt         string                    `json:"createdAt" format:"date-time"`
	UpdatedAt         string                    `json:"updatedAt" format:"date-time"`
}

func authorizationWebhookView(h *cards.AuthorizationWebhook) authorizationWebhook {
	return authorizationWebhook{WebhookURL: h.WebhookURL, SigningSecret: h.SigningSecret, Status: h.Status,
		TimeoutDurationMs: h.TimeoutDurationMs, Config: h.Config, CreatedAt: timestamp(h.CreatedAt),
		UpdatedAt: timestamp(h.UpdatedAt)}
}

func (a *API) getAuthorizationWebhook(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var h *cards.AuthorizationWebhook
	err = c.view(func(op *kernel.Op) error {
		h, err = cards.FindAuthorizationWebhook(op, c.Actor, mux.Vars(r)["accountId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return authorizationWebhookView(h), nil
}

// authorizationWebhookBody is the PUT and PATCH body: a property may be
// absent (nil), never null.
type authorizationWebhookBody struct {
	WebhookURL *string                    `json:"webhookUrl,omitempty"`
	Status     *string                    `json:"status,omitempty"`
	Config     *cards.AuthorizationConfig `json:"config,omitempty"`
}

// writeAuthorizationWebhook is PUT (replace: every field required) and
// PATCH (the fields given). Entities without the enterprise plan are
// refused before anything is deferred.
func (a *API) writeAuthorizationWebhook(r *http.Request, replace bool) (any, error) {
	var in cards.AuthorizationWebhookInput
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: keyedUnless(!replace),
		input: func(c *call, raw []byte) error {
			if err := cards.CheckEnterprise(c.Actor); err != nil {
				return err
			}
			var body authorizationWebhookBody
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			in = cards.AuthorizationWebhookInput{WebhookURL: body.WebhookURL, Status: body.Status, Config: body.Config}
			if d := in.Problems(replace); len(d) > 0 {
				return kernel.Invalid(d)
			}
			return nil
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			id := mux.Vars(r)["accountId"]
			var h *cards.AuthorizationWebhook
			var err error
			if replace {
				h, err = cards.PutAuthorizationWebhook(op, c.Actor, id, in)
			} else {
				h, err = cards.PatchAuthorizationWebhook(op, c.Actor, id, in)
			}
			if err != nil {
				return nil, err
			}
			return authorizationWebhookView(h), nil
		},
	})
}

func (a *API) putAuthorizationWebhook(r *http.Request) (any, error) {
	return a.writeAuthorizationWebhook(r, true)
}

func (a *API) patchAuthorizationWebhook(r *http.Request) (any, error) {
	return a.writeAuthorizationWebhook(r, false)
}

// currentAuthorizationWebhook is an account's authorization webhook as GET
// shows it; before one is set, the account itself.
func currentAuthorizationWebhook(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	h, err := cards.FindAuthorizationWebhook(op, c.Actor, vars["accountId"])
	if e, ok := kernel.AsError(err); ok && e.Code == kernel.CodeNotFound {
		acc, err := ledger.AccountOf(op, c.Actor, vars["accountId"], "")
		if err != nil {
			return nil, err
		}
		return accountView(acc), nil
	}
	if err != nil {
		return nil, err
	}
	return authorizationWebhookView(h), nil
}
