// Package web is the HTTP adapter shared by the public and control APIs:
// handlers return a value or an error, and this package writes JSON, maps
// domain error codes to statuses in one table, and writes each error
// envelope (first and second generation) in exactly one place. It also holds
// the request-wide middleware: request ids, CORS, body limits and the
// request log.
package web
