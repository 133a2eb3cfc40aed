package seed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// loader writes a scenario's records into a world.
type loader struct {
	op   *kernel.Op
	sc   *scenario.Scenario
	vas  map[string]*ledger.VirtualAccount // by id
	accs map[string]*ledger.Account
	// balances are the declared posted balances per virtual account.
	balances map[string]int64
	cards    []*cards.Card
	groups   map[string]*cards.Group
	// emailed are the invoices whose email goes in the outbox.
	emailed []*invoices.Invoice
	// taskIDs are the ids of the tasks that name an expense report, by
	// their place among the scenario's tasks.
	taskIDs []string
	// history keeps the load's operation quiet.
	history history
}

// history is what keeps a scenario's load quiet (kernel.Op.SetQuiet): the
// history it writes raises no webhook events and wakes no one, and of the
// emails it sends only those of the work under way (activity) reach the
// outbox.
type history struct {
	// mailing lets the emails the scenario declares sent through.
	mailing bool
}

// Sends reports whether the load sends m: only while it writes the work
// under way.
func (h *history) Sends(*kernel.Message) bool { return h.mailing }

// NewLoader makes the loader that writes the scenario sc into the world
// op works on.
func NewLoader(op *kernel.Op, sc *scenario.Scenario) *loader {
	return &loader{op: op, sc: sc, vas: map[string]*ledger.VirtualAccount{}, accs: map[string]*ledger.Account{},
		balances: map[string]int64{}, groups: map[string]*cards.Group{}}
}

// problem reports a scenario problem found while loading.
func (l *loader) problem(path, format string, args ...any) error {
	return scenario.Problems{l.sc.Problemf(path, format, args...)}
}

func (l *loader) time(spec string) time.Time {
	t, _ := scenario.ParseTime(spec, l.op.Now)
	return t
}

func (l *loader) Run() error {
	l.op.SetQuiet(&l.history)
	defer l.op.SetQuiet(nil)
	ledger.StartBulk(l.op)
	if err := l.op.Tx.Put(kernel.ClockKey, l.op.W.VirtualClock.State()); err != nil {
		return err
	}
	steps := []func() error{
		l.reserveDeclared, l.legalEntities, l.users, l.keys, l.accounts, l.cardGroups, l.cards_, l.contacts,
		l.customers, l.transactions, l.generate, l.cardEvents, l.invoices, l.receivables, l.openingBalances,
		l.webhooks,
		l.tokens, l.events, l.moneyMovement, l.runtimeSettings, l.activity, l.idCounters,
	}
	for _, step := range steps {
		err := step()
		l.op.SetOrigin("")
		if err != nil {
			return err
		}
	}
	return ledger.FlushBulk(l.op)
}

// id returns the declared id or a new deterministic one.
func (l *loader) id(declared, prefix string) (string, error) {
	if declared != "" {
		return declared, nil
	}
	return l.op.NewID(prefix)
}

func (l *loader) seq() int64 {
	n, _ := l.op.NextSeq()
	return n
}

func (l *loader) legalEntities() error {
	for _, s := range l.sc.LegalEntities {
		le := kernel.LegalEntity{
			ID:             s.ID,
			Name:           s.Name,
			Structure:      s.Structure,
			V2Enabled:      s.V2Enabled == nil || *s.V2Enabled,
			CardGroupModel: s.CardGroupModel,
			Enterprise:     s.Enterprise,
			CryptoOfframp:  s.CryptoOfframp,
			CreatedAt:      l.time(s.CreatedAt),
			Seq:            l.seq(),
		}
		if le.CardGroupModel == "" {
			le.CardGroupModel = cards.GroupModelLegalEntity
		}
		if s.CreatedAt == "" {
			le.CreatedAt = l.op.Now.AddDate(-1, 0, 0)
		}
		if err := l.op.Save(kernel.LegalEntities.Name, le.ID, &le, kernel.IndexKey(ledger.IndexLE, store.Seq(le.Seq),
			le.ID)); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) users() error {
	for _, s := range l.sc.Users {
		u := kernel.User{ID: s.ID, Name: s.Name, Email: s.Email, Seq: l.seq(), Roles: []kernel.Role{}}
		for _, r := range s.Roles {
			role := r.Role
			if role == "" {
				role = "admin"
			}
			u.Roles = append(u.Roles,
				kernel.Role{LegalEntityID: r.LegalEntityID, Role: role, Active: r.Active == nil || *r.Active})
		}
		if err := l.op.Save(kernel.Users.Name, u.ID, &u); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) keys() error {
	for _, s := range l.sc.Keys {
		k := kernel.APIKey{
			Key:           s.Key,
			BaseKey:       s.Key,
			Name:          s.Name,
			Kind:          s.Kind,
			ReadOnly:      s.ReadOnly,
			LegalEntityID: s.LegalEntityID,
			UserID:        s.UserID,
			Seq:           l.seq(),
		}
		if err := l.op.Save(kernel.APIKeys.Name, k.Key, &k, kernel.KeyIndex(&k)); err != nil {
			return err
		}
	}
	return nil
}

// decodeStrict turns a YAML-decoded map into a typed value, refusing keys
// the type does not have.
func decodeStrict(in map[string]any, out any) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(out)
}

func (l *loader) constraint(path string, in map[string]any) (*cards.SpendingConstraint, error) {
	if in == nil {
		return nil, nil
	}
	in, err := l.relativeStartDates(path, in)
	if err != nil {
		return nil, err
	}
	var sc cards.SpendingConstraint
	if err := decodeStrict(in, &sc); err != nil {
		return nil, l.problem(path, "%v", err)
	}
	if err := cards.ValidateConstraint(&sc, l.op.Now, l.op.W.Catalog); err != nil {
		if e, ok := kernel.AsError(err); ok && len(e.Details) > 0 {
			keys := make([]string, 0, len(e.Details))
			for k := range e.Details {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return nil, l.problem(path, "%s: %s", keys[0], e.Details[keys[0]])
		}
		return nil, l.problem(path, "%v", err)
	}
	return &sc, nil
}

// relativeStartDates resolves the relative startDate of a constraint's
// utilization limits ("-30d") to the day it falls on in the limit's time
// zone (UTC when it has none or a bad one, which validation reports).
// The scenario's own map is left as it is: what changes is copied.
func (l *loader) relativeStartDates(path string, in map[string]any) (map[string]any, error) {
	rule, ok := in["spendingRule"].(map[string]any)
	if !ok {
		return in, nil
	}
	rule = maps.Clone(rule)
	changed := false
	resolve := func(where string, limit map[string]any) (map[string]any, error) {
		spec, ok := limit["startDate"].(string)
		if !ok || !scenario.IsRelative(spec) {
			return limit, nil
		}
		t, err := scenario.ParseTime(spec, l.op.Now)
		if err != nil {
			return nil, l.problem(path, "%s/startDate: %v", where, err)
		}
		loc := time.UTC
		if tz, _ := limit["timezone"].(string); tz != "" && cards.ZoneProblem(tz) == "" {
			loc, _ = time.LoadLocation(tz)
		}
		limit = maps.Clone(limit)
		limit["startDate"] = t.In(loc).Format(time.DateOnly)
		changed = true
		return limit, nil
	}
	if limit, ok := rule["utilizationLimit"].(map[string]any); ok {
		resolved, err := resolve("/spendingRule/utilizationLimit", limit)
		if err != nil {
			return nil, err
		}
		rule["utilizationLimit"] = resolved
	}
	if limits, ok := rule["utilizationLimitV2"].([]any); ok {
		limits = slices.Clone(limits)
		for i, raw := range limits {
			if limit, ok := raw.(map[string]any); ok {
				resolved, err := resolve(fmt.Sprintf("/spendingRule/utilizationLimitV2/%d", i), limit)
				if err != nil {
					return nil, err
				}
				limits[i] = resolved
			}
		}
		rule["utilizationLimitV2"] = limits
	}
	if !changed {
		return in, nil
	}
	out := maps.Clone(in)
	out["spendingRule"] = rule
	return out, nil
}

func (l *loader) rawJSON(in map[string]any) json.RawMessage {
	if in == nil {
		return nil
	}
	b, _ := json.Marshal(in)
	return b
}

// runtimeSettings stores the scenario's agent-request expiry and rate limit.
func (l *loader) runtimeSettings() error {
	if a := l.sc.AgentRequests; a != nil && a.ExpiresAfter != "" {
		d, _ := scenario.ParseDuration(a.ExpiresAfter)
		if err := agentrequests.SetExpiry(l.op, d); err != nil {
			return err
		}
	}
	if r := l.sc.RateLimit; r != nil {
		d, _ := scenario.ParseDuration(r.Window)
		return l.op.Tx.Put(agentrequests.RateLimitKey, agentrequests.ScenarioRateLimit{Requests: r.Requests, Window: d})
	}
	return nil
}

// idCounters moves the world's counters on to where the scenario says
// they stand, in name order.
func (l *loader) idCounters() error {
	for _, name := range slices.Sorted(maps.Keys(l.sc.IDCounters)) {
		n, _ := scenario.CounterValue(l.sc.IDCounters[name])
		if err := l.op.RaiseCounter(name, n); err != nil {
			return err
		}
	}
	return nil
}
