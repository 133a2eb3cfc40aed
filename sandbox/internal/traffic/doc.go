// Package traffic shapes how the sandbox serves requests, per world: it
// injects faults into public routes, holds each API key to a rate limit and
// keeps a journal of the requests served. Its middleware sits in the
// router's chain; the control API configures and reads it.
package traffic
