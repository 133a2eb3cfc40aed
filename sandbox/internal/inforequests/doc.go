// Package inforequests holds information requests (second generation): the
// emailed secure form, its submissions, and ACH transfers queued until the
// bank details arrive.
package inforequests
