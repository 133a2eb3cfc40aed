package kernel

import (
	"slices"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Principal is an authenticated key and, for a user key, its user.
type Principal struct {
	Key  APIKey
	User *User
}

// Actor is a principal acting on one legal entity.
type Actor struct {
	Principal
	LegalEntity LegalEntity
}

// LegalEntityID is the entity the actor acts on.
func (a *Actor) LegalEntityID() string { return a.LegalEntity.ID }

// KeyIndex is the index key of an API key: every key of the world in the
// order it was made.
func KeyIndex(k *APIKey) string { return IndexKey("key.all", store.Seq(k.Seq), k.Key) }

// Authenticate resolves an API key. An unknown key is 401.
func (op *Op) Authenticate(key string) (*Principal, error) {
	var k APIKey
	ok, err := op.Get(APIKeys.Name, key, &k)
	if err != nil {
		return nil, err
	}
	if !ok || key == "" {
		return nil, Errorf(CodeUnauthorized, "the API key is missing or invalid")
	}
	p := &Principal{Key: k}
	if k.Kind == KeyUser {
		var u User
		if ok, err := op.Get(Users.Name, k.UserID, &u); err != nil || !ok {
			return nil, Errorf(CodeUnauthorized, "the API key is missing or invalid")
		}
		p.User = &u
	}
	return p, nil
}

// LegalEntityIDs lists the entities a principal may act on.
func (p *Principal) LegalEntityIDs() []string {
	if p.Key.Kind == KeyLegalEntity {
		return []string{p.Key.LegalEntityID}
	}
	var ids []string
	for _, r := range p.User.Roles {
		if r.Active {
			ids = append(ids, r.LegalEntityID)
		}
	}
	return ids
}

// MayActOn reports whether the principal may act on a legal entity.
func (p *Principal) MayActOn(legalEntityID string) bool {
	if p.Key.Kind == KeyLegalEntity {
		return p.Key.LegalEntityID == legalEntityID
	}
	return slices.Contains(p.LegalEntityIDs(), legalEntityID)
}

// Act selects the legal entity a request acts on. header is the
// x-legal-entity value ("" when absent). A user key needs the header unless
// headerOptional; a missing header is 400; an entity the principal may not
// act on (or that does not exist) is 403 with empty details.
func (op *Op) Act(p *Principal, header string, headerOptional bool) (*Actor, error) {
	id := header
	if p.Key.Kind == KeyLegalEntity {
		if id == "" {
			id = p.Key.LegalEntityID
		}
	} else if id == "" {
		if headerOptional {
			return &Actor{Principal: *p}, nil
		}
		return nil, InvalidField("x-legal-entity", "required with a user-scoped API key")
	}
	if !p.MayActOn(id) {
		return nil, Errorf(CodeForbidden, "the credential is not permitted to act for this legal entity")
	}
	var le LegalEntity
	ok, err := op.Get(LegalEntities.Name, id, &le)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, Errorf(CodeForbidden, "the credential is not permitted to act for this legal entity")
	}
	return &Actor{Principal: *p, LegalEntity: le}, nil
}

// CheckLegalEntityFilter enforces a filter:legalEntityId or body
// legalEntityId: it must name the entity the request acts on.
func (a *Actor) CheckLegalEntityFilter(field, value string) error {
	if value == "" || value == a.LegalEntity.ID {
		return nil
	}
	if !a.MayActOn(value) {
		return Errorf(CodeForbidden, "the credential is not permitted to act for this legal entity")
	}
	return InvalidField(field, "must name the legal entity the request acts on ("+a.LegalEntity.ID+")")
}

// KeyInfo describes a key for the control API.
type KeyInfo struct {
	Key            APIKey
	LegalEntityIDs []string
}

// Keys lists every key of the world with the entities each may act on.
func (w *World) Keys() ([]KeyInfo, error) {
	var out []KeyInfo
	err := w.View(func(op *Op) error {
		keys, err := All[APIKey](op, APIKeys.Name, IndexPrefix("key.all"))
		if err != nil {
			return err
		}
		for _, k := range keys {
			p, err := op.Authenticate(k.Key)
			if err != nil {
				return err
			}
			ids := p.LegalEntityIDs()
			if ids == nil {
				ids = []string{}
			}
			out = append(out, KeyInfo{Key: k, LegalEntityIDs: ids})
		}
		return nil
	})
	return out, err
}

// RoleOn is the user's active role on a legal entity ("" when none).
func (u *User) RoleOn(legalEntityID string) string {
	for _, r := range u.Roles {
		if r.LegalEntityID == legalEntityID && r.Active {
			return r.Role
		}
	}
	return ""
}

// LegalEntityUsers lists the users with an active role on a legal entity,
// by id.
func (op *Op) LegalEntityUsers(legalEntityID string) ([]User, error) {
	var out []User
	var decodeErr error
	err := op.Tx.Scan(store.Prefix("r", Users.Name), "", false, func(_, raw string) bool {
		var u User
		if decodeErr = store.DecodeValue(raw, &u); decodeErr != nil {
			return false
		}
		if u.RoleOn(legalEntityID) != "" {
			out = append(out, u)
		}
		return true
	})
	if err == nil {
		err = decodeErr
	}
	return out, err
}
