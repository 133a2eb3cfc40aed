package kernel

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Idempotency records are kept per legal entity and operation.

// IdempotencyRecord is what a used key remembers.
type IdempotencyRecord struct {
	BodyHash string `json:"bodyHash"`
	Status   int    `json:"status"`
	Response []byte `json:"response,omitempty"`
	// Consumed marks a second-generation key: reuse is refused, never
	// replayed.
	Consumed bool `json:"consumed"`
}

func idempotencyKey(legalEntityID, operation, key string) string {
	return store.Key("idem", legalEntityID, operation, key)
}

// HashBody fingerprints a request body.
func HashBody(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// Idempotency returns the record of a key, if it was used.
func (op *Op) Idempotency(legalEntityID, operation, key string) (*IdempotencyRecord, bool, error) {
	var rec IdempotencyRecord
	ok, err := op.Tx.Get(idempotencyKey(legalEntityID, operation, key), &rec)
	return &rec, ok, err
}

// RememberIdempotency stores what a key did.
func (op *Op) RememberIdempotency(legalEntityID, operation, key string, rec *IdempotencyRecord) error {
	return op.Tx.Put(idempotencyKey(legalEntityID, operation, key), rec)
}
