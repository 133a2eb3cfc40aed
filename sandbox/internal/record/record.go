package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// Options say what to record and how.
type Options struct {
	// From is the API's base URL; APIKey a key of a legal entity or of a
	// user, read-only enough.
	From, APIKey string
	// LegalEntities are the legal entities to record, of those the key
	// reads; none: every one.
	LegalEntities []string
	// Seed makes the fake names, the same seed the same ones.
	Seed int64
	// KeepNames keeps names, emails, addresses, phone and bank numbers.
	KeepNames bool
	// HTTP sends the requests (default: a client with a 60s timeout).
	HTTP *http.Client
	// Progress, when set, is told what is being read.
	Progress func(format string, args ...any)
	// Sleep waits before an attempt is sent again (default: a timer).
	Sleep func(ctx context.Context, d time.Duration) error
}

// Result is a finished recording.
type Result struct {
	// Scenario is the account as a scenario.
	Scenario *scenario.Scenario
	// Counts says how many of each resource were recorded, in reading order.
	Counts []Count
	// Unread says what the API does not let a recording read.
	Unread []string
	// Requests is the number of GET requests sent, retries included.
	Requests int
}

// Count is how many of one resource were recorded.
type Count struct {
	What string
	N    int
}

// recording is one recording under way.
type recording struct {
	r     *reader
	anon  *anonymizer
	sc    *scenario.Scenario
	res   *Result
	users map[string]*scenario.User
	// now is the source's clock: the latest balance timestamp read.
	now time.Time
	// notes are the unread things and the dropped references, deduplicated.
	notes []string
}

// Record reads the account o names and returns it as a scenario.
func Record(ctx context.Context, o Options) (*Result, error) {
	base, err := baseURL(o.From)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(o.APIKey) == "" {
		return nil, errors.New("an API key is required")
	}
	rd := &reader{base: base, key: o.APIKey, http: o.HTTP, sleep: o.Sleep, progress: o.Progress}
	if rd.http == nil {
		rd.http = &http.Client{Timeout: 60 * time.Second}
	}
	if rd.sleep == nil {
		rd.sleep = sleepCtx
	}
	rc := &recording{r: rd, anon: newAnonymizer(o.Seed, o.KeepNames), sc: &scenario.Scenario{},
		res: &Result{}, users: map[string]*scenario.User{}}
	les, err := rc.legalEntities(ctx, o.LegalEntities)
	if err != nil {
		return nil, err
	}
	for _, le := range les {
		if err := rc.entity(ctx, le); err != nil {
			return nil, fmt.Errorf("legal entity %s: %w", le.ID, err)
		}
	}
	rc.finish()
	rc.res.Scenario, rc.res.Requests = rc.sc, rd.requests
	return rc.res, nil
}

// baseURL checks the source's address.
func baseURL(from string) (string, error) {
	u, err := url.Parse(from)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--from %q is not an http:// or https:// URL", from)
	}
	return strings.TrimSuffix(from, "/"), nil
}

// note adds a line to what the summary says could not be recorded.
func (rc *recording) note(format string, args ...any) {
	if s := fmt.Sprintf(format, args...); !slices.Contains(rc.notes, s) {
		rc.notes = append(rc.notes, s)
	}
}

// count adds n of what to the counts.
func (rc *recording) count(what string, n int) {
	for i := range rc.res.Counts {
		if rc.res.Counts[i].What == what {
			rc.res.Counts[i].N += n
			return
		}
	}
	rc.res.Counts = append(rc.res.Counts, Count{what, n})
}

// progress tells the caller what is being read.
func (rc *recording) progress(format string, args ...any) {
	if rc.r.progress != nil {
		rc.r.progress(format, args...)
	}
}

// legalEntities reads the legal entities the key reads and keeps those
// named (all when none are).
func (rc *recording) legalEntities(ctx context.Context, named []string) ([]scenario.LegalEntity, error) {
	var p struct {
		Items []struct {
			ID, Name, Structure string
		} `json:"items"`
	}
	if err := rc.r.get(ctx, "/legal-entity", nil, "", &p); err != nil {
		return nil, err
	}
	var all, out []scenario.LegalEntity
	for _, it := range p.Items {
		all = append(all, scenario.LegalEntity{ID: it.ID, Name: it.Name, Structure: it.Structure})
	}
	if len(all) == 1 {
		// A legal entity's key reads its accounts without x-legal-entity;
		// a user key is refused (400).
		var accounts page
		err := rc.r.get(ctx, "/account", nil, "", &accounts)
		if _, ok := errors.AsType[*statusError](err); err != nil && !ok {
			return nil, err
		}
		rc.r.entityKey = err == nil
	}
	if len(named) == 0 {
		out = all
	}
	for _, id := range named {
		i := slices.IndexFunc(all, func(le scenario.LegalEntity) bool { return le.ID == id })
		if i < 0 {
			ids := make([]string, len(all))
			for j, le := range all {
				ids[j] = le.ID
			}
			return nil, fmt.Errorf("--legal-entity %s: the key reads no such legal entity (it reads %s)", id,
				strings.Join(ids, ", "))
		}
		if !slices.ContainsFunc(out, func(le scenario.LegalEntity) bool { return le.ID == id }) {
			out = append(out, all[i])
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the key reads no legal entity")
	}
	return out, nil
}

// entity reads everything of one legal entity.
func (rc *recording) entity(ctx context.Context, le scenario.LegalEntity) error {
	rc.progress("reading legal entity %s", le.ID)
	le.Name = rc.anon.company(le.Name)
	rc.sc.LegalEntities = append(rc.sc.LegalEntities, le)
	rc.count("legal entities", 1)
	for _, step := range []func(context.Context, string) error{
		rc.accounts, rc.cardGroups, rc.cards, rc.transactions, rc.contacts, rc.customers, rc.invoices,
		rc.invoiceSeries, rc.invoiceSettings, rc.webhooks, rc.expenseReports, rc.tasks,
	} {
		if _, err := rc.refused(step(ctx, le.ID), "", le.ID); err != nil {
			return err
		}
	}
	return nil
}

// refused sorts out a read the source refuses the key (403) or does not
// serve (404): it is noted for the summary, and read is false. Other errors
// are returned.
func (rc *recording) refused(err error, what, le string) (read bool, _ error) {
	var se *statusError
	if err == nil {
		return true, nil
	}
	if !errors.As(err, &se) || se.status != http.StatusForbidden && se.status != http.StatusNotFound {
		return false, err
	}
	if what == "" {
		what = "GET " + se.path
	}
	rc.note("%s of %s: the source answered %d", what, le, se.status)
	return false, nil
}

// items reads a list and decodes each item into a T.
func items[T any](ctx context.Context, rc *recording, what, path string, query url.Values, le string) ([]T,
	error) {
	raw, err := rc.r.list(ctx, what, path, query, le)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			return nil, fmt.Errorf("GET %s: an item is not the JSON expected: %w", path, err)
		}
	}
	rc.count(what, len(out))
	return out, nil
}

// whole makes the whole numbers of a free-form value, which JSON decodes
// as float64, integers again, so that 2500000 is written as such.
func whole[T any](v T) T {
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case float64:
			if x == float64(int64(x)) {
				return int64(x)
			}
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	return walk(v).(T)
}

// user declares the user id names (once), with their name.
func (rc *recording) user(id, name, le string) {
	if id == "" {
		return
	}
	u := rc.users[id]
	switch {
	case u == nil && name == "":
		// Named by id alone so far: a later answer may give the name.
		u = &scenario.User{ID: id, Name: id}
		rc.users[id] = u
	case u == nil:
		u = &scenario.User{ID: id, Name: rc.anon.person(name)}
		rc.users[id] = u
	case u.Name == id && name != "":
		u.Name = rc.anon.person(name)
	}
	if !slices.ContainsFunc(u.Roles, func(r scenario.Role) bool { return r.LegalEntityID == le }) {
		u.Roles = append(u.Roles, scenario.Role{LegalEntityID: le, Role: "admin"})
	}
}
