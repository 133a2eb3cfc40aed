package parties

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Record kinds of contacts, their destinations and customers.
const (
	KindContact     = "contact"
	KindDestination = "destination"
	KindCustomer    = "customer"
)

// ID prefixes of contacts, their destinations and customers.
const (
	PrefixContact     = "le_c_"
	PrefixDestination = "le_c_dest_"
	PrefixCustomer    = "le_cust_"
)

// Kinds are the parties' kinds of record and id prefixes, as the engine is
// wired with them.
var Kinds = []kernel.Kind{
	{Name: KindContact, Prefix: PrefixContact},
	{Name: KindDestination, Prefix: PrefixDestination},
	{Name: KindCustomer, Prefix: PrefixCustomer},
}
