// Package control serves the sandbox's own control API under /_sandbox/:
// health, reset, keys, the virtual clock and its scheduled events. Errors
// use the second-generation envelope. When an admin token is configured,
// every control route requires it.
package control
