// Package clock owns a world's virtual time. A Clock is frozen at its start
// until advanced, follows wall time from its start in real mode, or runs
// faster than wall time in scaled mode. The wall clock is injected, so the
// engine never reads the machine's time directly.
package clock
