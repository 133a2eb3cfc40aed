package inforequests

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Prefix starts every information request id.
const Prefix = "le_c_info_req_"

// Kind is the kind of record of an information request.
const Kind = kindInfoRequest

// Kinds are the kinds of record and id prefixes of information requests,
// as the engine is wired with them: an ACH transfer queued on a request
// takes a transfer's id (ledger.PrefixTransfer).
var Kinds = []kernel.Kind{
	{Name: kindInfoRequest, Prefix: Prefix},
	{Name: kindQueuedACH},
}
