package api

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesWebhooks(r *mux.Router, docs *openapi.Registry) {
	describeWebhooks(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/webhook", "webhook.list", a.listWebhooks)
	web.Route(r, web.Gen1, http.MethodPost, "/webhook", "webhook.create", a.createWebhook)
	web.Route(r, web.Gen1, http.MethodGet, "/webhook/{webhookId}", "webhook.get", a.getWebhook)
	web.Route(r, web.Gen1, http.MethodPatch, "/webhook/{webhookId}", "webhook.update", a.updateWebhook)
	a.shows("webhook.update", listed(currentWebhook))
	web.Route(r, web.Gen1, http.MethodGet, "/webhook/{webhookId}/notification", "webhook.notification.list",
		a.listNotifications)
}

// describeWebhooks adds the descriptions of these routes, and the components
// they name, to docs.
func describeWebhooks(docs *openapi.Registry) {
	docs.Component("Webhook", webhook{})
	docs.Describe(
		"webhook.list",
		openapi.Op{Summary: "List webhook endpoints", Query: []openapi.Param{cursorParam, legalEntityFilter},
			Response: listOf(webhook{})},
	)
	docs.Describe(
		"webhook.create",
		keyed(openapi.Op{Summary: "Register a webhook endpoint", Status: http.StatusCreated, Response: webhook{},
			Description: "The endpoint receives every event type.",
			Body: object(openapi.Schema{"legalEntityId": described(
				openapi.Schema{"type": "string", "minLength": 1},
				"Required with a user-scoped key; with a legal-entity key it defaults to the key's own. It must be the legal"+
					" entity the request acts for.",
			),
				"url": openapi.Schema{
					"type":        "string",
					"format":      "uri",
					"maxLength":   2048,
					"description": "An absolute http or https URL without credentials.",
				},
				"name": openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255}}, "url", "name")}),
	)
	docs.Describe("webhook.get", openapi.Op{Summary: "Get a webhook endpoint", Response: webhook{}})
	docs.Describe("webhook.update", openapi.Op{Summary: "Resume, pause or archive a webhook endpoint", Response: webhook{},
		Description: "active resumes (also from backing-off or disabled) and sends what was queued; paused queues events;" +
			" archived soft-deletes. backing-off and disabled are the system's to set.",
		Body: object(
			openapi.Schema{
				"status": oneOfStrings(deliveries.WebhookActive, deliveries.WebhookPaused, deliveries.WebhookArchived),
				"reason": openapi.Schema{"type": "string", "maxLength": 500, "description": "For the audit trail."},
			},
			"status",
		)})
	docs.Component("WebhookNotification", notification{})
	docs.Describe("webhook.notification.list", openapi.Op{Summary: "An endpoint's notification history",
		Description: "Every notification sent, or to be sent, to the endpoint, newest first, with its delivery status and" +
			" attempts. The path is the one the help center names; the real service documents no shape for it, so the items" +
			" are the sandbox's.",
		Query: []openapi.Param{cursorParam}, Response: listOf(notification{})})
}

// notification is one event sent, or to be sent, to an endpoint.
type notification struct {
	ID       string `json:"id"`
	EventID  string `json:"eventId"`
	Event    string `json:"event" enum:"card.update,card.delete,card_creation.event,aggregated_transaction.create,aggregated_transaction.update,expense_report.create,expense_report.update"`
	EntityID string `json:"entityId"`
	Status   string `json:"status" enum:"queued,pending,retrying,succeeded,failed,canceled"`
	// Attempts counts the HTTP requests made so far.
	Attempts       int    `json:"attempts"`
	CreatedAt      string `json:"createdAt" format:"date-time"`
	LastAttemptAt  string `json:"lastAttemptAt,omitempty" format:"date-time"`
	NextAttemptAt  string `json:"nextAttemptAt,omitempty" format:"date-time"`
	ResponseStatus int    `json:"responseStatus,omitempty"`
	CompletedAt    string `json:"completedAt,omitempty" format:"date-time"`
}

func notificationView(d *deliveries.WebhookDelivery) notification {
	v := notification{ID: d.ID, EventID: d.EventID, Event: d.Event, EntityID: d.EntityID, Status: d.Status,
		Attempts: len(d.Attempts), CreatedAt: timestamp(d.CreatedAt)}
	if n := len(d.Attempts); n > 0 {
		last := d.Attempts[n-1]
		v.LastAttemptAt, v.ResponseStatus = timestamp(last.At), last.ResponseStatus
	}
	if d.NextAttemptAt != nil {
		v.NextAttemptAt = timestamp(*d.NextAttemptAt)
	}
	if d.CompletedAt != nil {
		v.CompletedAt = timestamp(*d.CompletedAt)
	}
	return v
}

// listNotifications answers an endpoint's notification history.
func (a *API) listNotifications(r *http.Request) (any, error) {
	return listPage(
		a,
		r,
		func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[deliveries.WebhookDelivery], error) {
			return deliveries.WebhookNotifications(op, c.Actor, mux.Vars(r)["webhookId"], req)
		},
		func(_ *kernel.Op, d *deliveries.WebhookDelivery) (notification, error) {
			return notificationView(d), nil
		},
	)
}

// webhook is upstream's Webhook.
type webhook struct {
	ID              string   `json:"id"`
	CreatedAt       string   `json:"createdAt" format:"date-time"`
	ArchivedAt      string   `json:"archivedAt,omitempty" format:"date-time"`
	URL             string   `json:"url"`
	Name            string   `json:"name"`
	Status          string   `json:"status" enum:"active,paused,backing-off,disabled"`
	PausedAt        string   `json:"pausedAt,omitempty" format:"date-time"`
	BackingOffUntil string   `json:"backingOffUntil,omitempty" format:"date-time"`
	DisabledAt      string   `json:"disabledAt,omitempty" format:"date-time"`
	EnabledEvents   []string `json:"enabledEvents,omitempty" enum:"card.update,card.delete,card_creation.event,aggregated_transaction.create,aggregated_transaction.update,expense_report.create,expense_report.update"`
}

func webhookView(w *deliveries.Webhook) webhook {
	v := webhook{ID: w.ID, CreatedAt: timestamp(w.CreatedAt), URL: w.URL, Name: w.Name, Status: w.Status,
		EnabledEvents: w.EnabledEvents}
	if w.ArchivedAt != nil {
		v.ArchivedAt = timestamp(*w.ArchivedAt)
	}
	if w.PausedAt != nil {
		v.PausedAt = timestamp(*w.PausedAt)
	}
	if w.BackingOffUntil != nil {
		v.BackingOffUntil = timestamp(*w.BackingOffUntil)
	}
	if w.DisabledAt != nil {
		v.DisabledAt = timestamp(*w.DisabledAt)
	}
	return v
}

func (a *API) listWebhooks(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	if err := c.Actor.CheckLegalEntityFilter("filter:legalEntityId",
		r.URL.Query().Get("filter:legalEntityId")); err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[deliveries.Webhook]
	err = c.view(func(op *kernel.Op) error {
		page, err = deliveries.Webhooks(op, c.Actor, kernel.PageRequest{After: after})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]webhook, len(page.Items))
	for i := range page.Items {
		items[i] = webhookView(&page.Items[i])
	}
	return newList(items, encodeCursor(r, c, page.Next)), nil
}

func (a *API) getWebhook(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var w *deliveries.Webhook
	err = c.view(func(op *kernel.Op) error {
		w, err = deliveries.WebhookOf(op, c.Actor, mux.Vars(r)["webhookId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return webhookView(w), nil
}

type createWebhookBody struct {
	LegalEntityID *string `json:"legalEntityId,omitempty"`
	URL           *string `json:"url,omitempty"`
	Name          *string `json:"name,omitempty"`
}

// createWebhook registers an endpoint. legalEntityId is required with a
// user key and defaults to the key's entity with a legal-entity key; it
// must name the entity the request acts on.
func (a *API) createWebhook(r *http.Request) (any, error) {
	var body createWebhookBody
	var in deliveries.WebhookInput
	return a.doWrite(r, write{
		gen:    web.Gen1,
		idem:   idemOptional,
		status: http.StatusCreated,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			if body.LegalEntityID == nil && c.P.Key.Kind == kernel.KeyUser {
				return kernel.InvalidField("/legalEntityId", "required with a user-scoped API key")
			}
			if body.LegalEntityID != nil {
				if err := c.Actor.CheckLegalEntityFilter("/legalEntityId", *body.LegalEntityID); err != nil {
					return err
				}
				if *body.LegalEntityID == "" {
					return kernel.InvalidField("/legalEntityId", "must not be empty")
				}
			}
			in = deliveries.WebhookInput{URL: orEmpty(body.URL), Name: orEmpty(body.Name)}
			return in.Check()
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			w, err := deliveries.CreateWebhook(op, c.Actor, in)
			if err != nil {
				return nil, err
			}
			return webhookView(w), nil
		},
	})
}

// orEmpty is a string field's value, "" when absent.
func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

type updateWebhookBody struct {
	Status *string `json:"status,omitempty"`
	Reason *string `json:"reason,omitempty"`
}

// updateWebhook changes an endpoint's status: active, paused or archived.
// backing-off and disabled are the system's to set.
func (a *API) updateWebhook(r *http.Request) (any, error) {
	var body updateWebhookBody
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			d := map[string]string{}
			switch s := orEmpty(body.Status); s {
			case deliveries.WebhookActive, deliveries.WebhookPaused, deliveries.WebhookArchived:
			case deliveries.WebhookBackingOff, deliveries.WebhookDisabled:
				d["/status"] = s + " is set by the system; send active, paused or archived"
			case "":
				d["/status"] = "required: active, paused or archived"
			default:
				d["/status"] = "must be active, paused or archived"
			}
			if len(orEmpty(body.Reason)) > 500 {
				d["/reason"] = "must be at most 500 characters"
			}
			if len(d) > 0 {
				return kernel.Invalid(d)
			}
			return nil
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			w, err := deliveries.SetWebhookStatus(op, c.Actor, mux.Vars(r)["webhookId"], *body.Status,
				strings.TrimSpace(orEmpty(body.Reason)))
			if err != nil {
				return nil, err
			}
			return webhookView(w), nil
		},
	})
}

// currentWebhook is a webhook as GET shows it.
func currentWebhook(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	w, err := deliveries.WebhookOf(op, c.Actor, vars["webhookId"])
	if err != nil {
		return nil, err
	}
	return webhookView(w), nil
}
