package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

func (a *API) routesAuthorizationWebhooks(r *mux.Router) {
	const path = "/account/{accountId}/authorization-webhook"
	web.Route(r, web.Gen1, http.MethodGet, path, "account.authorization_webhook.get", a.getAuthorizationWebhook)
	web.Route(r, web.Gen1, http.MethodPut, path, "account.authorization_webhook.replace", a.putAuthorizationWebhook)
	web.Route(r, web.Gen1, http.MethodPatch, path, "account.authorization_webhook.update", a.patchAuthorizationWebhook)
}

// authorizationWebhook is upstream's AuthorizationWebhook.
type authorizationWebhook struct {
	WebhookURL        string                      `json:"webhookUrl"`
	SigningSecret     string                      `json:"signingSecret"`
	Status            string                      `json:"status"`
	TimeoutDurationMs int                         `json:"timeoutDurationMs"`
	Config            sandbox.AuthorizationConfig `json:"config"`
	CreatedAt         string                      `json:"createdAt"`
	UpdatedAt         string                      `json:"updatedAt"`
}

func authorizationWebhookView(h *sandbox.AuthorizationWebhook) authorizationWebhook {
	return authorizationWebhook{WebhookURL: h.WebhookURL, SigningSecret: h.SigningSecret, Status: h.Status,
		TimeoutDurationMs: h.TimeoutDurationMs, Config: h.Config, CreatedAt: timestamp(h.CreatedAt),
		UpdatedAt: timestamp(h.UpdatedAt)}
}

func (a *API) getAuthorizationWebhook(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var h *sandbox.AuthorizationWebhook
	err = c.W.View(func(op *sandbox.Op) error {
		h, err = op.AuthorizationWebhook(c.Actor, mux.Vars(r)["accountId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return authorizationWebhookView(h), nil
}

type authorizationWebhookBody struct {
	WebhookURL *string                      `json:"webhookUrl"`
	Status     *string                      `json:"status"`
	Config     *sandbox.AuthorizationConfig `json:"config"`
}

// writeAuthorizationWebhook is PUT (replace: every field required) and
// PATCH (the fields given). Entities without the enterprise plan are
// refused before anything is deferred.
func (a *API) writeAuthorizationWebhook(r *http.Request, replace bool) (any, error) {
	var in sandbox.AuthorizationWebhookInput
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := sandbox.CheckEnterprise(c.Actor); err != nil {
				return err
			}
			var body authorizationWebhookBody
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			in = sandbox.AuthorizationWebhookInput{WebhookURL: body.WebhookURL, Status: body.Status, Config: body.Config}
			if d := in.Problems(replace); len(d) > 0 {
				return sandbox.Invalid(d)
			}
			return nil
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			id := mux.Vars(r)["accountId"]
			var h *sandbox.AuthorizationWebhook
			var err error
			if replace {
				h, err = op.PutAuthorizationWebhook(c.Actor, id, in)
			} else {
				h, err = op.PatchAuthorizationWebhook(c.Actor, id, in)
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
