package agentrequests

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Prefix starts every agent request id, as the real service shows a
// deferred action's (dfa_abc123).
const Prefix = "dfa_"

// Kinds are the kinds of record and id prefixes of agent requests, as the
// engine is wired with them.
var Kinds = []kernel.Kind{{Name: kindAgentRequest, Prefix: Prefix}}
