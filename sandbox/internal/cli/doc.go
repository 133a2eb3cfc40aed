// Package cli is the slash-sandbox command line: serve, the control
// commands (clock, worlds, events, scenarios, health), listen and
// validate. Program runs it in-process, which is how its tests drive it;
// Main runs it on a process's own streams.
package cli
