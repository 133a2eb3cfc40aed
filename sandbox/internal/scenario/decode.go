package scenario

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pb33f/go-yaml"
)

// decoder turns a YAML node tree into scenario types, collecting every
// problem with its position instead of stopping at the first. It checks
// the shape the tags describe: known keys, kinds of values, required keys
// and fixed sets of values. A problem never quotes a value that could not
// be decoded: it names the kinds involved.
type decoder struct {
	file string
	ps   Problems
	pos  map[string]Position
	// bad holds the paths whose values could not be decoded; the
	// validator says nothing more about them.
	bad map[string]bool
	// budget bounds the nodes visited, aliases expanded included.
	budget int
	// text counts the bytes of text the file expands to, up to textLimit
	// (see MaxExpandedBytes); via is the alias being expanded, where a
	// file that expands too far is told so.
	text, textLimit int
	via             *yaml.Node
}

// MaxExpandedBytes bounds the text a scenario file expands to: every
// value's text and the path it is known by (cards[0].userData.note), as
// often as aliases repeat the value and nesting repeats a key in the paths
// below it. A file may expand to this much or to ExpansionRatio times its
// own size, whichever is more. Scenarios written by hand stay far below it
// (the demo, 21 KB of YAML, expands to 34 KB); an alias repeating a large
// value, whose copies would otherwise fill the memory of the world loaded
// from it, does not.
const MaxExpandedBytes = 32 << 20

// ExpansionRatio is how many times its own size a file larger than an
// ExpansionRatio-th of MaxExpandedBytes may expand to: a file without
// aliases expands to about twice its size.
const ExpansionRatio = 8

func newDecoder(file string, size int) *decoder {
	return &decoder{file: file, pos: map[string]Position{}, bad: map[string]bool{}, budget: 250_000 + size/4,
		textLimit: max(MaxExpandedBytes, ExpansionRatio*size)}
}

func reflectValue(sc *Scenario) reflect.Value { return reflect.ValueOf(sc).Elem() }

// problem records a problem at a node.
func (d *decoder) problem(n *yaml.Node, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	d.ps = append(d.ps, Problem{File: d.file, Line: n.Line, Column: n.Column, Message: msg})
}

// fail records a value that could not be decoded.
func (d *decoder) fail(n *yaml.Node, path, format string, args ...any) {
	d.problem(n, path, format, args...)
	d.bad[path] = true
}

// at records where a path is: the value when it is a scalar, else key.
func (d *decoder) at(path string, key, value *yaml.Node) {
	n := key
	if value.Kind == yaml.ScalarNode || key == nil {
		n = value
	}
	d.pos[path] = Position{Line: n.Line, Column: n.Column}
}

// spend takes a node, at path, from the budgets: one value, and its text
// and path. It is false once either is spent, which is said once. The
// text is counted before anything is made of it.
func (d *decoder) spend(n *yaml.Node, path string) bool {
	d.budget--
	if d.budget == -1 {
		d.problem(n, "", "the file expands to too many values (aliases repeat what they name)")
	}
	was := d.text
	d.text += len(path)
	if r := resolve(n); r.Kind == yaml.ScalarNode {
		d.text += len(r.Value)
	}
	if d.text > d.textLimit && was <= d.textLimit {
		d.overflow(n)
	}
	return d.budget >= 0 && d.text <= d.textLimit
}

// overflow says the file expands past its text limit: at the alias whose
// expansion went past it, when there is one.
func (d *decoder) overflow(n *yaml.Node) {
	why := "nesting repeats each key in the paths below it"
	if d.via != nil {
		n = d.via
	}
	if n.Kind == yaml.AliasNode {
		why = "this alias repeats what it names"
	}
	d.problem(n, "",
		"the file expands past %s of text, its limit (%s; the limit is %s, or %d times the size of a larger file)",
		mib(d.textLimit), why, mib(MaxExpandedBytes), ExpansionRatio)
}

// mib writes a size in MiB.
func mib(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// expanding notes the alias n while its expansion is decoded: the
// outermost one, which the file's reader can find. done ends it.
func (d *decoder) expanding(n *yaml.Node) (done func()) {
	if n == nil || n.Kind != yaml.AliasNode || d.via != nil {
		return func() {}
	}
	d.via = n
	return func() { d.via = nil }
}

// got says what a node holds.
func got(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.ShortTag() {
	case "!!int":
		return "a whole number"
	case "!!float":
		return "a number"
	case "!!bool":
		return "true or false"
	case "!!timestamp":
		return "a date"
	case "!!str":
		return "text"
	case "!!null":
		return "nothing"
	}
	return "a value of another kind"
}

func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// decode decodes n into v, whose path is path. A null leaves the zero
// value.
func (d *decoder) decode(path string, n *yaml.Node, v reflect.Value) {
	if !d.spend(n, path) {
		return
	}
	defer d.expanding(n)()
	n = resolve(n)
	if path == "" {
		d.pos[""] = Position{Line: n.Line, Column: n.Column}
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		d.decode(path, n, p.Elem())
		if !d.bad[path] {
			v.Set(p)
		}
	case reflect.Struct:
		d.mapping(path, n, v)
	case reflect.Slice:
		d.sequence(path, n, v)
	case reflect.Map:
		d.freeForm(path, n, v)
	default:
		d.scalar(path, n, v)
	}
}

func (d *decoder) mismatch(path string, n *yaml.Node, want string) {
	d.fail(n, path, "expected %s, got %s", want, got(n))
}

func (d *decoder) sequence(path string, n *yaml.Node, v reflect.Value) {
	if n.Kind != yaml.SequenceNode {
		d.mismatch(path, n, "a list")
		return
	}
	out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, c := range n.Content {
		p := fmt.Sprintf("%s[%d]", path, i)
		d.at(p, nil, resolve(c))
		if r := resolve(c); r.ShortTag() == "!!null" && deref(v.Type().Elem()).Kind() == reflect.Struct {
			// An empty item would skip its required keys.
			d.mismatch(p, r, "a mapping")
			continue
		}
		d.decode(p, c, out.Index(i))
	}
	v.Set(out)
}

// pair is a key and its value in a mapping; via is the alias a merge key
// (<<) brought it through, if any.
type pair struct{ key, value, via *yaml.Node }

// pairs lists a mapping's keys and values, merge keys (<<) expanded: a
// key given explicitly wins over a merged one.
func (d *decoder) pairs(n *yaml.Node) []pair {
	var own, merged []pair
	given := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			from := []*yaml.Node{val}
			if r := resolve(val); r.Kind == yaml.SequenceNode {
				from = r.Content
			}
			for _, m := range from {
				via := aliasOf(val, m)
				if r := resolve(m); r.Kind == yaml.MappingNode && d.spend(m, "") {
					for _, p := range d.pairs(r) {
						p.via = cmp.Or(p.via, via)
						merged = append(merged, p)
					}
				}
			}
			continue
		}
		given[k.Value] = true
		own = append(own, pair{key: k, value: val})
	}
	for _, p := range merged {
		if !given[p.key.Value] {
			given[p.key.Value] = true
			own = append(own, p)
		}
	}
	return own
}

// aliasOf is the alias a merge key's value brings a mapping through: the
// value itself, or the item of the list it is; nil when there is none.
func aliasOf(val, item *yaml.Node) *yaml.Node {
	for _, n := range []*yaml.Node{val, item} {
		if n.Kind == yaml.AliasNode {
			return n
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (d *decoder) mapping(path string, n *yaml.Node, v reflect.Value) {
	if n.Kind != yaml.MappingNode {
		d.mismatch(path, n, "a mapping")
		return
	}
	s := shapeOf(v.Type())
	seen := map[string]pair{}
	for _, kv := range d.pairs(n) {
		k, val := kv.key, kv.value
		p := join(path, k.Value)
		if k.Kind != yaml.ScalarNode {
			d.problem(k, path, "a key must be text, not %s", got(k))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			d.problem(k, p, "is given twice (first at line %d)", first.key.Line)
			continue
		}
		seen[k.Value] = kv
		f, ok := s.byKey[k.Value]
		if !ok {
			d.problem(k, p, "unknown key%s", keyHint(k.Value, s.keys))
			continue
		}
		d.at(p, k, resolve(val))
		done := d.expanding(kv.via)
		d.decode(p, val, v.Field(f.index))
		done()
		if !d.bad[p] {
			d.enum(p, resolve(val), f, v.Field(f.index))
		}
	}
	for _, f := range s.fields {
		if f.required && !d.bad[join(path, f.key)] && empty(v.Field(f.index)) {
			p := join(path, f.key)
			if kv, ok := seen[f.key]; ok {
				d.problem(resolve(kv.value), p, "is required and must not be empty")
				continue
			}
			if f.typ.Kind() == reflect.Slice {
				d.problem(n, p, "is required: give at least one")
				continue
			}
			d.problem(n, p, "is required")
		}
	}
}

// keyHint suggests a key close to a misspelt one, else lists the keys.
func keyHint(key string, keys []string) string {
	if s := suggest(key, keys); s != "" {
		return s
	}
	return "; the keys here are " + strings.Join(keys, ", ")
}

// empty reports a missing or blank value.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return strings.TrimSpace(v.String()) == ""
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return v.IsNil() || v.Kind() == reflect.Slice && v.Len() == 0
	}
	return false
}

// enum checks a value against its field's fixed set; each value of a
// list is checked in its turn.
func (d *decoder) enum(path string, n *yaml.Node, f *field, v reflect.Value) {
	if len(f.enum) == 0 {
		return
	}
	if v.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode {
		for i := range v.Len() {
			d.enum(fmt.Sprintf("%s[%d]", path, i), resolve(n.Content[i]), f, v.Index(i))
		}
		return
	}
	if v.Kind() != reflect.String || v.String() == "" || slices.Contains(f.enum, v.String()) {
		return
	}
	d.fail(n, path, "%q is not one of %s%s", v.String(), strings.Join(f.enum, ", "), suggest(v.String(), f.enum))
}

// scalar decodes a scalar into text, a number or true or false. Any
// scalar is text (a date or a number keeps its spelling).
func (d *decoder) scalar(path string, n *yaml.Node, v reflect.Value) {
	want := kindName(v.Type())
	if v.Kind() == reflect.Interface {
		want = "text or a number"
	}
	if n.Kind != yaml.ScalarNode {
		d.mismatch(path, n, want)
		return
	}
	tag := n.ShortTag()
	switch v.Kind() {
	case reflect.String:
		v.SetString(n.Value)
		return
	case reflect.Bool:
		if tag != "!!bool" {
			d.mismatch(path, n, want)
			return
		}
	case reflect.Int, reflect.Int64:
		if tag != "!!int" {
			d.mismatch(path, n, want)
			return
		}
	case reflect.Float64:
		if tag != "!!int" && tag != "!!float" {
			d.mismatch(path, n, want)
			return
		}
	}
	if err := n.Decode(v.Addr().Interface()); err != nil {
		d.fail(n, path, "is out of range for %s", want)
	}
}

// freeForm decodes a mapping the scenario does not describe key by key
// (a spending constraint, user data, an event's with), recording where
// each of its paths is.
func (d *decoder) freeForm(path string, n *yaml.Node, v reflect.Value) {
	if n.Kind != yaml.MappingNode {
		d.mismatch(path, n, "a mapping")
		return
	}
	if !d.walk(path, n) {
		d.bad[path] = true
		return
	}
	out := reflect.New(v.Type())
	if err := n.Decode(out.Interface()); err != nil {
		d.fail(n, path, "could not be read as a mapping with text keys")
		return
	}
	v.Set(out.Elem())
}

// walk records the positions under a free-form value and checks its keys
// are text and given once.
func (d *decoder) walk(path string, n *yaml.Node) bool {
	if !d.spend(n, path) {
		return false
	}
	defer d.expanding(n)()
	ok := true
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		seen := map[string]int{}
		for _, kv := range d.pairs(n) {
			k, val := kv.key, kv.value
			p := join(path, k.Value)
			if k.Kind != yaml.ScalarNode {
				d.problem(k, path, "a key must be text, not %s", got(k))
				ok = false
				continue
			}
			if first, dup := seen[k.Value]; dup {
				d.problem(k, p, "is given twice (first at line %d)", first)
				ok = false
				continue
			}
			seen[k.Value] = k.Line
			d.at(p, k, resolve(val))
			done := d.expanding(kv.via)
			walked := d.walk(p, val)
			done()
			if !walked {
				return false
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			d.at(p, nil, resolve(c))
			if !d.walk(p, c) {
				return false
			}
		}
	}
	return ok
}
