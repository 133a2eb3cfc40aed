// Package validate checks HTTP responses against OpenAPI documents with
// libopenapi-validator: the sandbox's own document, the real service's, and
// the official SDKs' response types wrapped as one. Only tests import it, so
// the server binary does not carry the validator.
package validate
