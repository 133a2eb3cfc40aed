package kernel

import (
	"fmt"
	"strings"
)

// PageSize is the number of items a list page holds. The service chooses it;
// clients cannot.
const PageSize = 50

// PageRequest asks for one page of an index.
type PageRequest struct {
	// After is the index key the previous page ended on ("" for the first).
	After string
	// Desc walks the index backwards.
	Desc bool
	// Size overrides PageSize when positive (tests use small pages).
	Size int
}

// Page is one page of items. Next is the index key to continue after; it is
// empty on the last page.
type Page[T any] struct {
	Items []T
	Next  string
}

// List walks the index entries under prefix, loads each record of kind and
// keeps those keep accepts (all when keep is nil), until a page is full.
// Next is set only when a further item exists.
func List[T any](op *Op, kind, prefix string, req PageRequest, keep func(*T) bool) (Page[T], error) {
	return walk(op, prefix, req, keep, func(key, val string) (string, string, error) {
		id, _ := SplitIndexValue(val)
		rk := recordKey(kind, id)
		raw, ok, err := op.Tx.GetRaw(rk)
		if err != nil {
			return "", "", fmt.Errorf("index %q names missing %s %q: %w", key, kind, id, err)
		}
		if !ok {
			return "", "", fmt.Errorf("index %q names missing %s %q", key, kind, id)
		}
		return rk, raw, nil
	})
}

// ListRecords is List over the records of a kind themselves, in id order:
// for kinds whose ids count up (OrderedID), the order they were made in,
// with no index to keep. Cursors are record keys.
func ListRecords[T any](op *Op, kind string, req PageRequest, keep func(*T) bool) (Page[T], error) {
	return walk(op, RecordPrefix(kind), req, keep, func(key, val string) (string, string, error) {
		return key, val, nil
	})
}

// walk pages through the keys under prefix; record gives, for each key and
// value, the key and stored string of the record it stands for.
func walk[T any](
	op *Op,
	prefix string,
	req PageRequest,
	keep func(*T) bool,
	record func(key, val string) (string, string, error),
) (Page[T], error) {
	if req.After != "" && !ValidCursorKey(req.After, prefix) {
		return Page[T]{}, InvalidField("cursor", "does not belong to this list")
	}
	size := req.Size
	if size <= 0 {
		size = PageSize
	}
	// Start small: many lists (an entity's webhooks, its keys) hold one
	// or two items, and a write may read several of them.
	page := Page[T]{Items: make([]T, 0, min(size, 4))}
	var lastKey string
	var scanErr error
	var spare *T // decodes candidates past a full page, when keep filters
	more := false
	err := op.Tx.Scan(prefix, req.After, req.Desc, func(key, val string) bool {
		full := len(page.Items) == size
		if full && keep == nil {
			more = true
			return false
		}
		rk, raw, err := record(key, val)
		if err != nil {
			scanErr = err
			return false
		}
		// Records are decoded in place, in the page or the spare, not into
		// a copy of their own.
		var item *T
		if full {
			if spare == nil {
				spare = new(T)
			}
			item = spare
			*item = *new(T)
		} else {
			page.Items = append(page.Items, *new(T))
			item = &page.Items[len(page.Items)-1]
		}
		if err := op.Tx.Decode(rk, raw, item); err != nil {
			scanErr = err
			return false
		}
		if keep != nil && !keep(item) {
			if !full {
				page.Items = page.Items[:len(page.Items)-1]
			}
			return true
		}
		if full {
			more = true
			return false
		}
		lastKey = key
		return true
	})
	if err == nil {
		err = scanErr
	}
	if more {
		page.Next = lastKey
	}
	return page, err
}

// All loads every record under an index prefix, in index order.
func All[T any](op *Op, kind, prefix string) ([]T, error) {
	var out []T
	after := ""
	for {
		p, err := List[T](op, kind, prefix, PageRequest{After: after, Size: 1000}, nil)
		if err != nil {
			return nil, err
		}
		if out == nil && p.Next == "" {
			return p.Items, nil
		}
		out = append(out, p.Items...)
		if p.Next == "" {
			return out, nil
		}
		after = p.Next
	}
}

// ValidCursorKey reports whether an index key a cursor carries belongs to
// the index prefix being listed: a cursor from another list is refused.
func ValidCursorKey(key, prefix string) bool {
	return key == "" || (len(key) > len(prefix) && key[:len(prefix)] == prefix)
}

// SplitIndexValue splits an index entry's value into the record id and the
// facts it keeps ("" for none).
func SplitIndexValue(val string) (id, facts string) {
	id, facts, _ = strings.Cut(val, FactsSep)
	return id, facts
}

// The txn.le index entry of a transaction keeps, after its id, the facts a
// transaction filter looks at, so that an aggregation over 100,000
// transactions scans one index instead of decoding every record. The
// entry's value is "<id>\x1e<facts>"; an entry's id is everything before
// factsSep (older entries hold the id alone).
const FactsSep = "\x1e"
