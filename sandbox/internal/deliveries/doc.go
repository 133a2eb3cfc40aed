// Package deliveries holds webhook endpoints (their status, backoff and
// queue) and the deliveries the engine owes them: the fan-out of every emitted
// event, retries on the virtual clock, and chaos for tests.
package deliveries
