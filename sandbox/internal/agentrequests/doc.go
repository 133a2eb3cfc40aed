// Package agentrequests holds agent requests: writes a read-only key asked for,
// kept for a person to approve or reject, and their expiry.
package agentrequests
