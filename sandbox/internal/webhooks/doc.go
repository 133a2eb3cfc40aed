// Package webhooks is the sandbox's webhook sender: it posts the deliveries
// the engine marks due to the registered URLs, signed with the sandbox's
// fixed RSA key, and reports every attempt back to the engine; and it calls
// accounts' authorization webhooks during card authorizations. It is the
// only part of the sandbox that makes outgoing HTTP requests.
package webhooks
