package deliveries

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// WebhookChaos makes deliveries less orderly than the sandbox's default,
// so receivers can prove they neither rely on order nor process an event
// twice. Every choice is seeded: the same requests give the same chaos.
type WebhookChaos struct {
	// Shuffle sends every queued delivery of an endpoint at once, in a
	// seeded random order, instead of one at a time in event order.
	Shuffle bool `json:"shuffle"`
	// Duplicate is the probability that a new delivery is followed by a
	// second delivery of the same event (same eventId).
	Duplicate float64 `json:"duplicate"`
}

var chaosKey = store.Key("m", "webhook-chaos")

// Check validates the settings, keyed by JSON pointer.
func (c WebhookChaos) Check() error {
	if c.Duplicate < 0 || c.Duplicate > 1 {
		return kernel.InvalidField("/duplicate", "must be a probability between 0 and 1")
	}
	return nil
}

func webhookChaos(op *kernel.Op) (WebhookChaos, error) {
	var c WebhookChaos
	_, err := op.Tx.Get(chaosKey, &c)
	return c, err
}

// WebhookChaos returns the world's delivery chaos settings.
func ChaosOf(w *kernel.World) (WebhookChaos, error) {
	var c WebhookChaos
	err := w.View(func(op *kernel.Op) error {
		var err error
		c, err = webhookChaos(op)
		return err
	})
	return c, err
}

// SetWebhookChaos replaces the world's delivery chaos settings. They apply
// to deliveries made from then on; turning shuffle on also sends what every
// sending endpoint has queued.
func SetWebhookChaos(w *kernel.World, c WebhookChaos) error {
	if err := c.Check(); err != nil {
		return err
	}
	return w.Update(func(op *kernel.Op) error {
		if err := op.Tx.Put(chaosKey, c); err != nil {
			return err
		}
		hooks, err := kernel.All[Webhook](op, KindWebhook, kernel.IndexPrefix(IndexWebhookLE))
		if err != nil {
			return err
		}
		for i := range hooks {
			if err := pumpDeliveries(op, &hooks[i]); err != nil {
				return err
			}
		}
		return nil
	})
}
