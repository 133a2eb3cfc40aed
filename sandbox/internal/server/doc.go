// Package server assembles the sandbox: it loads the scenario into an
// engine, mounts the public and control APIs behind the shared middleware,
// and serves until its context ends, then shuts down gracefully (in-flight
// requests finish, data files are flushed and closed).
package server
