package cli

import (
	"net"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// logTime is how the log writes an entry's time: RFC 3339 to the
// millisecond, which the terminal's writer shows as 15:04:05.000.
const logTime = "2006-01-02T15:04:05.000Z07:00"

// stamp writes the wall time of each entry to the millisecond. zerolog's
// own timestamp follows a package-wide format, which a program that runs
// in-process beside others should not set.
type stamp struct{}

// Run adds the time field to an entry.
func (stamp) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	e.Str(zerolog.TimestampFieldName, time.Now().Format(logTime))
}

// welcome tells whoever started the sandbox where to go first: the
// dashboard's address, the card vault's (the base URL that reveals PANs
// and CVVs) and a call to try with one of the world's keys.
func welcome(log zerolog.Logger, addr string, w *kernel.World, adminToken bool) {
	base := "http://" + browsable(addr)
	msg := "dashboard: " + base + "/_sandbox/ui"
	if adminToken {
		msg += " (it asks for the admin token)"
	}
	log.Info().Str("url", base+"/_sandbox/ui").Msg(msg)
	vault := base + web.VaultPath
	log.Info().Str("vaultUrl", vault).Msg("card vault (PAN and CVV): " + vault)
	keys, err := w.Keys()
	if k, ok := keyToTry(keys); err == nil && ok {
		log.Info().Str("key", k.Key.Key).Msg("try the API: " + curlLine(base, k))
	}
}

// browsable is the address a browser on this machine opens: a sandbox
// listening on every interface answers on loopback.
func browsable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err == nil && (host == "" || (ip != nil && ip.IsUnspecified())) {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// keyToTry picks the key a first call is best made with, as the dashboard
// does: a legal entity's writable key, else a user's writable key, else a
// read-only one; the first of its rank.
func keyToTry(keys []kernel.KeyInfo) (kernel.KeyInfo, bool) {
	rank := func(k kernel.KeyInfo) int {
		r := 0
		if k.Key.ReadOnly {
			r += 2
		}
		if k.Key.Kind != kernel.KeyLegalEntity {
			r++
		}
		return r
	}
	var best kernel.KeyInfo
	found := false
	for _, k := range keys {
		if len(k.LegalEntityIDs) > 0 && (!found || rank(k) < rank(best)) {
			best, found = k, true
		}
	}
	return best, found
}

// curlLine is a call to paste into a shell: the key's accounts, with the
// legal entity a user's key must name.
func curlLine(base string, k kernel.KeyInfo) string {
	line := "curl -s -H " + shellQuote("X-API-Key: "+k.Key.Key)
	if k.Key.Kind != kernel.KeyLegalEntity {
		line += " -H " + shellQuote("x-legal-entity: "+k.LegalEntityIDs[0])
	}
	return line + " " + base + "/account"
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
