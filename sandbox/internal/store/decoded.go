package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
)

// decodedCache keeps the records a database's transactions decoded, each
// with the exact stored string it came from. Reading a record whose stored
// string is unchanged copies the kept value instead of parsing JSON again:
// decoding is a pure function of the bytes and the target type, so the copy
// is what a fresh decode would give. Every read gets its own deep copy, so
// callers may change what they read as freely as before.
//
// Entries are never invalidated: a changed record has another stored string
// and is decoded again. The cache holds at most max entries; when full, an
// arbitrary eighth of them is dropped.
type decodedCache struct {
	mu  sync.RWMutex
	m   map[string]decodedEntry
	max int
}

type decodedEntry struct {
	raw string
	val reflect.Value // a pointer to the decoded value
}

// cacheEntries bounds each database's decoded records.
const cacheEntries = 4096

func newDecodedCache() *decodedCache {
	return &decodedCache{m: make(map[string]decodedEntry, 256), max: cacheEntries}
}

// decode fills v (a non-nil pointer) with the record raw stored at key.
func (c *decodedCache) decode(key, raw string, v any) error {
	dst := reflect.ValueOf(v)
	if c == nil || dst.Kind() != reflect.Pointer || dst.IsNil() {
		return unmarshal(key, raw, v)
	}
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if ok && e.raw == raw && e.val.Type() == dst.Type() {
		deepCopy(dst.Elem(), e.val.Elem())
		return nil
	}
	fresh := reflect.New(dst.Type().Elem())
	if err := unmarshal(key, raw, fresh.Interface()); err != nil {
		return err
	}
	deepCopy(dst.Elem(), fresh.Elem())
	c.mu.Lock()
	if len(c.m) >= c.max {
		drop := c.max / 8
		for k := range c.m {
			delete(c.m, k)
			if drop--; drop <= 0 {
				break
			}
		}
	}
	c.m[key] = decodedEntry{raw: raw, val: fresh}
	c.mu.Unlock()
	return nil
}

func unmarshal(key, raw string, v any) error {
	if err := DecodeValue(raw, v); err != nil {
		return fmt.Errorf("decode %q: %w", key, err)
	}
	return nil
}

// DecodeValue decodes a value Put stored (as GetRaw or Scan gave it) into
// v, as json.Unmarshal decodes the JSON it was written from.
func DecodeValue(raw string, v any) error {
	buf := expanders.Get().(*[]byte)
	*buf = expandNames((*buf)[:0], raw)
	err := json.Unmarshal(*buf, v)
	if cap(*buf) <= 64<<10 {
		expanders.Put(buf)
	}
	return err
}

// deepCopy sets dst (settable) to a copy of src sharing no pointer, slice,
// map or interface value with it. Unexported fields are copied as they are
// (the only ones records hold are time.Time's immutable location).
func deepCopy(dst, src reflect.Value) { copierOf(src.Type())(dst, src) }

// A copier deep-copies values of one type; copiers are built once per type.
type copier func(dst, src reflect.Value)

var copiers sync.Map // reflect.Type → copier

func assign(dst, src reflect.Value) { dst.Set(src) }

// copiersMu serialises building copiers; using them needs no lock.
var copiersMu sync.Mutex

func copierOf(t reflect.Type) copier {
	if c, ok := copiers.Load(t); ok {
		return c.(copier)
	}
	copiersMu.Lock()
	defer copiersMu.Unlock()
	b := &copierBuild{pending: map[reflect.Type]*copier{}, built: map[reflect.Type]copier{}}
	c := b.of(t)
	// Publish only complete copiers: a recursive type's forwarder calls a
	// copier set after the forwarder was made.
	for typ, built := range b.built {
		copiers.Store(typ, built)
	}
	return c
}

// copierBuild builds the copiers of a type and the types it holds.
type copierBuild struct {
	pending map[reflect.Type]*copier // being built: recursion forwards to them
	built   map[reflect.Type]copier
}

func (b *copierBuild) of(t reflect.Type) copier {
	if c, ok := copiers.Load(t); ok {
		return c.(copier)
	}
	if c, ok := b.built[t]; ok {
		return c
	}
	if p, ok := b.pending[t]; ok {
		return func(dst, src reflect.Value) { (*p)(dst, src) }
	}
	p := new(copier)
	b.pending[t] = p
	*p = b.build(t)
	delete(b.pending, t)
	b.built[t] = *p
	return *p
}

func (b *copierBuild) build(t reflect.Type) copier {
	if !hasRefs(t) {
		return assign
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := b.of(t.Elem())
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				dst.SetZero()
				return
			}
			n := reflect.New(t.Elem())
			elem(n.Elem(), src.Elem())
			dst.Set(n)
		}
	case reflect.Struct:
		type field struct {
			i  int
			cp copier
		}
		var fields []field
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && hasRefs(f.Type) {
				fields = append(fields, field{i, b.of(f.Type)})
			}
		}
		return func(dst, src reflect.Value) {
			dst.Set(src)
			for _, f := range fields {
				f.cp(dst.Field(f.i), src.Field(f.i))
			}
		}
	case reflect.Slice:
		elem, flat := b.of(t.Elem()), !hasRefs(t.Elem())
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				dst.SetZero()
				return
			}
			n := reflect.MakeSlice(t, src.Len(), src.Len())
			if flat {
				reflect.Copy(n, src)
			} else {
				for i := range src.Len() {
					elem(n.Index(i), src.Index(i))
				}
			}
			dst.Set(n)
		}
	case reflect.Array:
		elem := b.of(t.Elem())
		return func(dst, src reflect.Value) {
			for i := range src.Len() {
				elem(dst.Index(i), src.Index(i))
			}
		}
	case reflect.Map:
		elem := b.of(t.Elem())
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				dst.SetZero()
				return
			}
			n := reflect.MakeMapWithSize(t, src.Len())
			for it := src.MapRange(); it.Next(); {
				val := reflect.New(t.Elem()).Elem()
				elem(val, it.Value())
				n.SetMapIndex(it.Key(), val)
			}
			dst.Set(n)
		}
	case reflect.Interface:
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				dst.SetZero()
				return
			}
			inner := src.Elem()
			val := reflect.New(inner.Type()).Elem()
			copierOf(inner.Type())(val, inner)
			dst.Set(val)
		}
	}
	return assign
}

// hasRefs reports whether t holds, through exported fields, any pointer,
// slice, map, interface, channel or function. visiting guards recursive
// types, which count as holding references.
func hasRefs(t reflect.Type) bool { return refsIn(t, map[reflect.Type]bool{}) }

func refsIn(t reflect.Type, visiting map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return refsIn(t.Elem(), visiting)
	case reflect.Struct:
		if visiting[t] {
			return true
		}
		visiting[t] = true
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && refsIn(f.Type, visiting) {
				return true
			}
		}
	}
	return false
}
