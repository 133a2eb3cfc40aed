// Package devapps holds developer applications, their OAuth2 clients, secrets
// and tokens.
package devapps
