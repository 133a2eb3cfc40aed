package deliveries

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Record kind and id prefix of webhook endpoints.
const (
	KindWebhook   = "webhook"
	PrefixWebhook = "webhook_"
)

// Kinds are the kinds of record and id prefixes of webhook endpoints and
// their deliveries, as the engine is wired with them.
var Kinds = []kernel.Kind{
	{Name: KindWebhook, Prefix: PrefixWebhook},
	{Name: KindDelivery, Prefix: PrefixDelivery, Derive: kernel.Derived(Indexes)},
}
