// Package api serves the emulated Slash public API, both generations. Each
// resource's file registers its own named routes; handlers authenticate,
// call the engine in domain terms and return the API's shapes.
package api
