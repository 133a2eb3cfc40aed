package checker

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// Finding is one record that contradicts a rule of the world.
type Finding struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Path is the scenario path of the record ("transactions[3]",
	// "generate[0]" for a generated one).
	Path string `json:"path"`
	// Rule names the rule broken, as a breaks key names it.
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// String is file:line: warning: rule: message.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: warning: %s: %s", f.File, f.Line, f.Rule, f.Message)
}

// Origins maps each record a scenario's load created to the scenario path
// it came from: Record is a kernel.WorldSpec.OnOrigin.
type Origins map[string]string

// Record notes that the record kind/id came from path.
func (o Origins) Record(kind, id, path string) { o[kind+"/"+id] = path }

// Of is the scenario path a record came from ("" for none).
func (o Origins) Of(kind, id string) string { return o[kind+"/"+id] }

// Scratch loads sc into a new world of eng (seed and start override the
// scenario's when set) and checks it. The world is left in eng: a scratch
// engine is closed by its caller.
func Scratch(eng *kernel.Engine, sc *scenario.Scenario, seed *int64, start *time.Time) ([]Finding, error) {
	origins := Origins{}
	w, err := eng.CreateWorld(kernel.WorldSpec{ID: "checked", Scenario: sc, Seed: seed, ClockStart: start,
		OnOrigin: origins.Record})
	if err != nil {
		return nil, err
	}
	return Check(w, sc, origins)
}

// Check reports every record of w that contradicts a rule, with the line of
// sc it came from; a record whose breaks key names the rule (or its family)
// is left out. Findings come in the file's order.
func Check(w *kernel.World, sc *scenario.Scenario, origins Origins) ([]Finding, error) {
	c := &check{sc: sc, origins: origins, cache: map[string]any{}}
	err := w.View(func(op *kernel.Op) error {
		c.now = op.Now
		for _, family := range families {
			if err := family(c, op); err != nil {
				return err
			}
		}
		checkBreaks(c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(c.found, func(i, j int) bool { return c.found[i].Line < c.found[j].Line })
	return c.found, nil
}

// families are the rule families, each in its own file.
var families = []func(*check, *kernel.Op) error{checkCards, checkBalances, checkDates, checkInvoices,
	checkInformationRequests}

// check is one run of the checker.
type check struct {
	sc      *scenario.Scenario
	origins Origins
	now     time.Time
	found   []Finding
	// cache holds the records looked up, by kind/id (a nil pointer for
	// none); made, the records the load created by kind (madeOf).
	cache map[string]any
	made  map[string][]made
}

// report records a finding at path unless the record there breaks rule on
// purpose. A path the file does not have (a record no line made) is
// reported at the file's first line.
func (c *check) report(path, rule, format string, args ...any) {
	if breaksOnPurpose(c.sc.Breaks(path), rule) {
		return
	}
	c.found = append(c.found, Finding{File: c.sc.File, Line: c.sc.Line(path), Path: path, Rule: rule,
		Message: fmt.Sprintf(format, args...)})
}

// day formats an instant for a message.
func day(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// made is a record the load created and where it came from.
type made struct{ id, path string }

// madeOf lists the records of a kind the load created, in the file's order
// (then by id).
func (c *check) madeOf(kind string) []made {
	if c.made == nil {
		c.made = map[string][]made{}
		for key, path := range c.origins {
			k, id, _ := strings.Cut(key, "/")
			c.made[k] = append(c.made[k], made{id: id, path: path})
		}
		for _, ms := range c.made {
			sort.Slice(ms, func(i, j int) bool {
				li, lj := c.sc.Line(ms[i].path), c.sc.Line(ms[j].path)
				if li != lj {
					return li < lj
				}
				return ms[i].id < ms[j].id
			})
		}
	}
	return c.made[kind]
}

// get loads a record, from the check's cache when it was read before; it
// returns nil when there is none.
func get[T any](c *check, op *kernel.Op, kind, id string) (*T, error) {
	key := kind + "/" + id
	if v, ok := c.cache[key]; ok {
		r, _ := v.(*T)
		return r, nil
	}
	r := new(T)
	ok, err := op.Get(kind, id, r)
	if err != nil {
		return nil, err
	}
	if !ok {
		r = nil
	}
	c.cache[key] = r
	return r, nil
}

// each loads every record of a kind the load created and calls fn with it
// and its path (past the cache: a file may generate a million).
func each[T any](c *check, op *kernel.Op, kind string, fn func(r *T, path string) error) error {
	for _, m := range c.madeOf(kind) {
		r := new(T)
		ok, err := op.Get(kind, m.id, r)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := fn(r, m.path); err != nil {
			return err
		}
	}
	return nil
}
