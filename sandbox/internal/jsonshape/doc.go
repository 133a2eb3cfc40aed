// Package jsonshape checks that a JSON value has the shape of the Go type it
// decodes into, where encoding/json does not: a null only where the type
// takes one (encoding/json reads null as "leave the value as it is", so it
// would pass for an absent property), and a top-level value of the JSON type
// the Go type decodes. The rule for null is the one the sandbox's OpenAPI
// document states, so the document and the decoding agree.
package jsonshape
