package control

import (
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/seed"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesWorlds(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/worlds", "sandbox.worlds.list", c.listWorlds)
	route(http.MethodPost, "/worlds", "sandbox.worlds.create", c.createWorld)
	route(http.MethodGet, "/worlds/{id}", "sandbox.worlds.get", c.getWorld)
	route(http.MethodDelete, "/worlds/{id}", "sandbox.worlds.delete", c.deleteWorld)
	route(http.MethodGet, "/worlds/{id}/scenario", "sandbox.worlds.scenario", c.exportWorld)
	route(http.MethodPost, "/clock/mode", "sandbox.clock.mode", c.clockMode)
	route(http.MethodGet, "/snapshots", "sandbox.snapshots.list", c.listSnapshots)
	route(http.MethodPost, "/snapshots", "sandbox.snapshots.create", c.createSnapshot)
	route(http.MethodPost, "/snapshots/import", "sandbox.snapshots.import", c.importSnapshot)
	route(http.MethodPost, "/snapshots/{id}/restore", "sandbox.snapshots.restore", c.restoreSnapshot)
	route(http.MethodGet, "/snapshots/{id}/export", "sandbox.snapshots.export", c.exportSnapshot)
	route(http.MethodDelete, "/snapshots/{id}", "sandbox.snapshots.delete", c.deleteSnapshot)
}

type worldView struct {
	ID        string    `json:"id"`
	Scenario  string    `json:"scenario"`
	Seed      int64     `json:"seed"`
	Default   bool      `json:"default"`
	Clock     clockView `json:"clock"`
	Keys      []keyView `json:"keys"`
	ExpiresAt *string   `json:"expiresAt,omitempty"`
}

func (c *Control) worldView(w *kernel.World) (worldView, error) {
	m := w.Meta()
	cv, err := clockOf(w)
	if err != nil {
		return worldView{}, err
	}
	keys, err := keyViews(w)
	v := worldView{ID: w.ID, Scenario: m.Scenario, Seed: m.Seed, Default: c.Engine.Default() == w, Clock: cv, Keys: keys}
	if at, ok := c.Engine.Expiry(w.ID); ok {
		s := ts(at)
		v.ExpiresAt = &s
	}
	return v, err
}

func (c *Control) listWorlds(r *http.Request) (any, error) {
	c.Engine.Reap(time.Now())
	items := []worldView{}
	for _, w := range c.Engine.Worlds() {
		v, err := c.worldView(w)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	return map[string]any{"items": items}, nil
}

type createWorldRequest struct {
	ID         string  `json:"id"`
	Scenario   string  `json:"scenario"`
	YAML       string  `json:"yaml"`
	Snapshot   string  `json:"snapshot"`
	Seed       *int64  `json:"seed"`
	ClockStart string  `json:"clockStart"`
	Clock      string  `json:"clock"`
	ClockScale float64 `json:"clockScale"`
	TTL        string  `json:"ttl"`
}

// spec turns a create request into a world spec, checking every field.
func (c *Control) spec(req createWorldRequest) (kernel.WorldSpec, time.Duration, error) {
	spec := kernel.WorldSpec{ID: req.ID, Seed: req.Seed, ClockScale: req.ClockScale}
	var ttl time.Duration
	var err error
	if req.TTL != "" {
		if ttl, err = scenario.ParseDuration(req.TTL); err != nil || ttl <= 0 {
			return spec, 0, kernel.InvalidField("/ttl", "must be a positive duration such as 10m or 1h")
		}
	}
	if req.ClockStart != "" {
		t, err := time.Parse(time.RFC3339, req.ClockStart)
		if err != nil {
			return spec, 0, kernel.InvalidField("/clockStart", "must be an RFC 3339 instant")
		}
		spec.ClockStart = &t
	}
	if req.Clock != "" {
		if spec.ClockMode, err = clock.ParseMode(req.Clock); err != nil {
			return spec, 0, kernel.InvalidField("/clock", err.Error())
		}
	}
	switch {
	case req.YAML != "" && req.Scenario != "":
		return spec, 0, kernel.InvalidField("/yaml", "give either scenario or yaml, not both")
	case req.YAML != "":
		spec.Scenario, err = scenario.Parse("inline.yaml", []byte(req.YAML))
	case req.Scenario == "" && c.Engine.Default().Source() != nil:
		spec.Scenario = c.Engine.Default().Source()
	default:
		if req.Scenario == "" {
			req.Scenario = c.Engine.Default().Meta().Scenario
		}
		spec.Scenario, err = c.Scenarios.Load(req.Scenario)
	}
	if ps, ok := scenario.AsProblems(err); ok {
		details := map[string]string{}
		for i, p := range ps {
			details["problem"+strconv.Itoa(i+1)] = p.String()
		}
		return spec, 0, kernel.Invalid(details)
	}
	if err != nil {
		return spec, 0, kernel.InvalidField("/scenario", err.Error())
	}
	return spec, ttl, nil
}

func (c *Control) createWorld(r *http.Request) (any, error) {
	var req createWorldRequest
	if err := web.Decode(r, &req, true); err != nil {
		return nil, err
	}
	var w *kernel.World
	var ttl time.Duration
	var err error
	if req.Snapshot != "" {
		w, err = c.Engine.SpawnFromSnapshot(req.ID, req.Snapshot)
	} else {
		var spec kernel.WorldSpec
		if spec, ttl, err = c.spec(req); err != nil {
			return nil, err
		}
		w, err = c.Engine.SpawnWorld(spec)
	}
	if err != nil {
		return nil, err
	}
	if ttl > 0 {
		c.Engine.SetExpiry(w.ID, time.Now().Add(ttl))
	}
	v, err := c.worldView(w)
	return web.Status(http.StatusCreated, v), err
}

func (c *Control) getWorld(r *http.Request) (any, error) {
	w, ok := c.Engine.World(mux.Vars(r)["id"])
	if !ok {
		return nil, kernel.NotFound("world", "id", mux.Vars(r)["id"])
	}
	return c.worldView(w)
}

// exportWorld writes a world as a scenario file that loads back into a
// world answering the same.
func (c *Control) exportWorld(r *http.Request) (any, error) {
	id := mux.Vars(r)["id"]
	w, ok := c.Engine.World(id)
	if !ok {
		return nil, kernel.NotFound("world", "id", id)
	}
	var sc *scenario.Scenario
	if err := w.View(func(op *kernel.Op) error {
		var err error
		sc, err = seed.Export(op)
		return err
	}); err != nil {
		return nil, err
	}
	file, err := scenario.Encode(sc)
	if err != nil {
		return nil, err
	}
	resp := &web.Response{Status: http.StatusOK, Raw: file, ContentType: "application/yaml"}
	resp.Header = http.Header{"Content-Disposition": {`attachment; filename="` + id + `.yaml"`}}
	return resp, nil
}

func (c *Control) deleteWorld(r *http.Request) (any, error) {
	id := mux.Vars(r)["id"]
	if err := c.Engine.DeleteWorld(id); err != nil {
		return nil, err
	}
	return map[string]any{"id": id, "deleted": true}, nil
}

type modeRequest struct {
	Mode  string  `json:"mode"`
	Scale float64 `json:"scale"`
}

func (c *Control) clockMode(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var req modeRequest
	if err := web.Decode(r, &req, true); err != nil {
		return nil, err
	}
	m, err := clock.ParseMode(req.Mode)
	if err != nil {
		return nil, kernel.InvalidField("/mode", err.Error())
	}
	if err := w.SetClockMode(m, req.Scale); err != nil {
		return nil, err
	}
	return clockOf(w)
}

type snapshotView struct {
	ID       string `json:"id"`
	World    string `json:"world,omitempty"`
	Scenario string `json:"scenario"`
	Seed     int64  `json:"seed"`
	Clock    string `json:"clock"`
	Label    string `json:"label,omitempty"`
	Size     int    `json:"size"`
}

func snapView(s *kernel.Snapshot) snapshotView {
	return snapshotView{
		ID:       s.ID,
		World:    s.WorldID,
		Scenario: s.Scenario,
		Seed:     s.Seed,
		Clock:    ts(s.Clock),
		Label:    s.Label,
		Size:     s.Size,
	}
}

func (c *Control) listSnapshots(r *http.Request) (any, error) {
	items := []snapshotView{}
	for _, s := range c.Engine.Snapshots() {
		items = append(items, snapView(s))
	}
	return map[string]any{"items": items}, nil
}

func (c *Control) createSnapshot(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var req struct {
		Label string `json:"label"`
	}
	if r.ContentLength != 0 {
		if err := web.Decode(r, &req, true); err != nil {
			return nil, err
		}
	}
	s, err := c.Engine.TakeSnapshot(w, req.Label)
	if err != nil {
		return nil, err
	}
	return web.Status(http.StatusCreated, snapView(s)), nil
}

func (c *Control) restoreSnapshot(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	if err := c.Engine.RestoreSnapshot(w, mux.Vars(r)["id"]); err != nil {
		return nil, err
	}
	return c.worldView(w)
}

func (c *Control) exportSnapshot(r *http.Request) (any, error) {
	id := mux.Vars(r)["id"]
	file, err := c.Engine.ExportSnapshot(id)
	if err != nil {
		return nil, err
	}
	resp := &web.Response{Status: http.StatusOK, Raw: file, ContentType: "application/json"}
	resp.Header = http.Header{"Content-Disposition": {`attachment; filename="` + id + `.json"`}}
	return resp, nil
}

func (c *Control) importSnapshot(r *http.Request) (any, error) {
	if err := web.RequireJSON(r); err != nil {
		return nil, err
	}
	// The file is held while it is read: a declared size that does not
	// fit in the memory budget is refused before reading it.
	res, err := c.Engine.Reserve("reading a snapshot file", max(r.ContentLength, 0))
	if err != nil {
		return nil, err
	}
	defer res.Release()
	file, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, web.ReadError(err, "the snapshot file is larger than the request limit")
	}
	if err := res.Grow(int64(len(file))); err != nil {
		return nil, err
	}
	s, err := c.Engine.ImportSnapshot(file)
	if err != nil {
		return nil, err
	}
	return web.Status(http.StatusCreated, snapView(s)), nil
}

func (c *Control) deleteSnapshot(r *http.Request) (any, error) {
	id := mux.Vars(r)["id"]
	if err := c.Engine.DeleteSnapshot(id); err != nil {
		return nil, err
	}
	return map[string]any{"id": id, "deleted": true}, nil
}
