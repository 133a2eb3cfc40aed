package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// A cursor is opaque to clients: the index key to continue after and a
// fingerprint of the route and filters it belongs to, signed with a key
// derived from the world. A tampered cursor, or one replayed with other
// filters or on another list, is refused with 400.

type cursorBody struct {
	After string `json:"a"`
	Scope string `json:"s"`
}

// cursorKey depends on the world's seed only, so worlds made from the same
// scenario and seed answer byte-identically, cursors included.
func cursorKey(w *kernel.World) []byte {
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], uint64(w.Meta().Seed))
	sum := sha256.Sum256(append([]byte("slash-sandbox cursor "), seed[:]...))
	return sum[:]
}

// scope fingerprints the route, the legal entity and every query parameter
// but cursor.
func scope(r *http.Request, legalEntity string) string {
	q := r.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		if k != "cursor" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(web.InfoOf(r).Route + "|" + legalEntity)
	for _, k := range keys {
		b.WriteString("|" + k + "=" + strings.Join(q[k], ","))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

func sign(w *kernel.World, payload []byte) []byte {
	mac := hmac.New(sha256.New, cursorKey(w))
	mac.Write(payload)
	return mac.Sum(nil)[:16]
}

// encodeCursor makes the cursor of the next page ("" when there is none).
func encodeCursor(r *http.Request, c *call, next string) string {
	if next == "" {
		return ""
	}
	payload, _ := json.Marshal(cursorBody{After: next, Scope: scope(r, c.Actor.LegalEntityID())})
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(sign(c.W, payload))
}

var errCursor = kernel.InvalidField("cursor",
	"is not a cursor this list issued with these filters; repeat the same filters and pass metadata.nextCursor unchanged")

// decodeCursor returns the index key a cursor continues after ("" without a
// cursor). The engine checks the key belongs to the list being walked.
func decodeCursor(r *http.Request, c *call) (string, error) {
	raw, present := r.URL.Query()["cursor"]
	if !present {
		return "", nil
	}
	if len(raw) != 1 {
		return "", errCursor
	}
	parts := strings.Split(raw[0], ".")
	if len(parts) != 2 {
		return "", errCursor
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	mac, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	if err1 != nil || err2 != nil || !hmac.Equal(mac, sign(c.W, payload)) {
		return "", errCursor
	}
	var body cursorBody
	if err := json.Unmarshal(payload, &body); err != nil || body.Scope != scope(r, c.Actor.LegalEntityID()) {
		return "", errCursor
	}
	if body.After == "" {
		return "", errCursor
	}
	return body.After, nil
}
