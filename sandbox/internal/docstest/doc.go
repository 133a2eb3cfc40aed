// Package docstest runs the documentation: every fenced block of README.md
// and docs/*.md is run as a user would run it (shell and curl against a
// fresh sandbox, scenarios validated and loaded, JSON parsed), or carries a
// marker on the line before it that says why it is not run. The whole of it
// is its test; docs/development.md ("Documentation tests") describes it.
package docstest
