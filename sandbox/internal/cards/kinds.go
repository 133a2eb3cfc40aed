package cards

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Record kinds and id prefixes of cards and card groups.
const (
	Kind        = "card"
	Prefix      = "card_"
	KindGroup   = "card_group"
	PrefixGroup = "card_group_"
	// prefixAuthorization starts the id of a simulated authorization.
	prefixAuthorization = "auth_"
)

// Kinds are the kinds of record and id prefixes of cards, as the engine is
// wired with them.
var Kinds = []kernel.Kind{
	{Name: Kind, Prefix: Prefix, Derive: kernel.Derived(Indexes)},
	{Name: KindGroup, Prefix: PrefixGroup, Derive: kernel.Derived(GroupIndexes)},
	{Name: KindEvent, Prefix: PrefixEvent},
	{Name: kindAuthorizationWebhook},
	{Prefix: prefixAuthorization},
}
