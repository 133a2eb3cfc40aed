// Package openapi describes what the sandbox emulates as an OpenAPI 3.1
// document. Routes are described next to their registration, in a Registry
// the router's assembly owns; the document is built by walking the router,
// so every routed operation appears in it, described or not. Schemas are
// generated from the response view structs by reflection. Package validate
// checks responses against it.
package openapi
