package web

import "net/http"

// VaultPath is where the card vault answers on the sandbox's own address:
// the base URL that stands for https://vault.joinslash.com, the only host
// that reveals a card's full PAN and CVV. http://127.0.0.1:8080/vault is
// the vault of a sandbox at http://127.0.0.1:8080.
const VaultPath = "/vault"

// BaseURL is how the caller reached the sandbox: its scheme and host.
func BaseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
