package kernel

import (
	"time"
)

// Key kinds.
const (
	KeyLegalEntity = "legal_entity"
	KeyUser        = "user"
)

// LegalEntity is one business the world holds.
type LegalEntity struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Structure      string    `json:"structure,omitempty"`
	V2Enabled      bool      `json:"v2Enabled"`
	CardGroupModel string    `json:"cardGroupModel"`
	Enterprise     bool      `json:"enterprise"`
	CryptoOfframp  bool      `json:"cryptoOfframp"`
	CreatedAt      time.Time `json:"createdAt"`
	Seq            int64     `json:"seq"`
}

// User is a person who holds roles on legal entities.
type User struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	Roles []Role `json:"roles"`
	Seq   int64  `json:"seq"`
}

// Role is a user's permission role on one legal entity.
type Role struct {
	LegalEntityID string `json:"legalEntityId"`
	Role          string `json:"role"`
	Active        bool   `json:"active"`
}

// APIKey is a credential. Legal-entity keys are pinned to one entity; user
// keys act for their user on any entity where the user has an active role.
type APIKey struct {
	Key string `json:"key"`
	// BaseKey is the key as the scenario declares it; a world created next
	// to others gets its own suffix on every key.
	BaseKey       string `json:"baseKey"`
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	ReadOnly      bool   `json:"readOnly"`
	LegalEntityID string `json:"legalEntityId,omitempty"`
	UserID        string `json:"userId,omitempty"`
	Seq           int64  `json:"seq"`
}
