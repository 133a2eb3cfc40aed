package api

import (
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesTasks(r *mux.Router, docs *openapi.Registry) {
	describeTasks(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/task/schema", "task.schema", a.taskSchema)
	web.Route(r, web.Gen1, http.MethodGet, "/task", "task.list", a.listTasks)
	web.Route(r, web.Gen1, http.MethodGet, "/task/{taskId}", "task.get", a.getTask)
	web.Route(r, web.Gen1, http.MethodPost, "/task/{taskId}/act", "task.act", a.actOnTask)
}

// describeTasks adds the descriptions of these routes, and the components
// they name, to docs.
func describeTasks(docs *openapi.Registry) {
	docs.Component("Task", taskView{})
	docs.Describe("task.list", openapi.Op{Summary: "List tasks", Response: listOf(taskView{}),
		Description: "A user-scoped caller sees the tasks assigned to it; a legal-entity key sees every task of the legal" +
			" entity.",
		Query: []openapi.Param{
			cursorParam,
			legalEntityFilter,
			{Name: "filter:type", Description: "A type from GET /task/schema."},
			{Name: "filter:status", Schema: oneOfStrings(expenses.TaskStatuses...)},
			{Name: "filter:attr", Schema: openapi.Schema{"type": "object"},
				Description: "deepObject: filter:attr[field]=value, or filter:attr[field][op]=value with op gte, lte, gt, lt, in" +
					" (comma-separated) or contains; field is a task attribute."},
			{Name: "sort", Description: "timestamp by default.", Schema: oneOfStrings("timestamp", "status", "type")},
			{Name: "sortDirection", Description: "DESC by default.", Schema: oneOfStrings("ASC", "DESC")},
		}})
	docs.Describe("task.schema", openapi.Op{Summary: "The task types, their attributes and actions",
		Query: []openapi.Param{legalEntityFilter, {Name: "filter:type"}}, Response: taskSchemas{}})
	docs.Describe("task.get",
		openapi.Op{Summary: "Get a task", Query: []openapi.Param{legalEntityFilter}, Response: taskBody{}})
	docs.Describe("task.act", keyed(openapi.Op{Summary: "Take an action on a task", Response: success{},
		Description: "A disabled action, or one the task's type does not have, is refused with 400.",
		Body: object(
			openapi.Schema{
				"action":  described(openapi.Schema{"type": "string", "minLength": 1}, "An action key from GET /task/schema."),
				"payload": openapi.Schema{"type": "object"},
			},
			"action",
		)}))
}

// taskBody is the body of GET /task/{taskId}.
type taskBody struct {
	Task taskView `json:"task"`
}

// taskSchemas is the body of GET /task/schema.
type taskSchemas struct {
	Schemas []schemaView `json:"schemas"`
}

// taskAttrMeta is ITaskAttributeMetaModel.
type taskAttrMeta struct {
	IsRequired bool `json:"isRequired"`
}

// taskView is ITaskWithActionsModel: the task and its actions as the
// caller may take them.
type taskView struct {
	ID        string                  `json:"id"`
	Type      string                  `json:"type"`
	Status    string                  `json:"status" enum:"action_required,pending,completed,rejected,expired,canceled"`
	Data      map[string]any          `json:"data"`
	Meta      map[string]taskAttrMeta `json:"meta"`
	Timestamp string                  `json:"timestamp" format:"date-time"`
	UpdatedAt string                  `json:"updatedAt" format:"date-time"`
	Actions   []taskActionView        `json:"actions"`
}

type taskActionView struct {
	Key               string   `json:"key"`
	Label             string   `json:"label"`
	Style             string   `json:"style,omitempty" enum:"primary,danger"`
	Role              string   `json:"role,omitempty" enum:"actor,originator,observer"`
	IsDisabled        bool     `json:"isDisabled"`
	MissingAttributes []string `json:"missingAttributes"`
}

func taskOf(t *expenses.Task, p *kernel.Principal) taskView {
	v := taskView{ID: t.ID, Type: t.Type, Status: t.Status, Data: t.Data, Meta: map[string]taskAttrMeta{},
		Timestamp: timestamp(t.CreatedAt), UpdatedAt: timestamp(t.UpdatedAt), Actions: []taskActionView{}}
	schema, _ := expenses.TaskSchemaOf(t.Type)
	for name, attr := range schema.Attributes {
		v.Meta[name] = taskAttrMeta{IsRequired: attr.Required}
	}
	for _, a := range expenses.TaskActions(t, p) {
		v.Actions = append(v.Actions, taskActionView{Key: a.Key, Label: a.Label, Style: a.Style, Role: a.Role,
			IsDisabled: a.IsDisabled, MissingAttributes: []string{}})
	}
	return v
}

var attrParam = regexp.MustCompile(`^filter:attr\[([A-Za-z0-9_]+)\](?:\[([a-z]+)\])?$`)

// taskFilter reads filter:type, filter:status, sort and the deepObject
// filter:attr[field] / filter:attr[field][op] parameters.
func taskFilter(q url.Values) (expenses.TaskFilter, error) {
	sortBy, asc, err := sortOf(q)
	f := expenses.TaskFilter{Type: q.Get("filter:type"), Status: q.Get("filter:status"), Sort: sortBy, Asc: asc}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strings.HasPrefix(k, "filter:attr") {
			continue
		}
		m := attrParam.FindStringSubmatch(k)
		if m == nil {
			return f, kernel.InvalidField(k, "use filter:attr[field]=value or filter:attr[field][op]=value")
		}
		op := m[2]
		if op == "" {
			op = "eq"
		}
		f.Attrs = append(f.Attrs, expenses.TaskAttrFilter{Field: m[1], Op: op, Value: q.Get(k)})
	}
	return f, err
}

func (a *API) listTasks(r *http.Request) (any, error) {
	f, err := taskFilter(r.URL.Query())
	if err != nil {
		return nil, err
	}
	var principal *kernel.Principal
	return listPage(a, r, func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[expenses.Task], error) {
		principal = c.P
		return expenses.ListTasks(op, c.Actor, f, req)
	}, func(_ *kernel.Op, t *expenses.Task) (taskView, error) { return taskOf(t, principal), nil })
}

func (a *API) getTask(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		t, err := expenses.TaskOf(op, c.Actor, mux.Vars(r)["taskId"])
		if err != nil {
			return nil, err
		}
		return taskBody{Task: taskOf(t, c.P)}, nil
	})
}

type schemaView struct {
	Type       string                            `json:"type"`
	Attributes map[string]expenses.TaskAttribute `json:"attributes"`
	Actions    []expenses.TaskActionSpec         `json:"actions"`
}

func (a *API) taskSchema(r *http.Request) (any, error) {
	want := r.URL.Query().Get("filter:type")
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		out := []schemaView{}
		for _, s := range expenses.TaskSchemas {
			if want == "" || s.Type == want {
				out = append(out, schemaView{Type: s.Type, Attributes: s.Attributes, Actions: s.Actions})
			}
		}
		return taskSchemas{Schemas: out}, nil
	})
}

type actBody struct {
	Action  string         `json:"action"`
	Payload map[string]any `json:"payload"`
}

func (a *API) actOnTask(r *http.Request) (any, error) {
	var body actBody
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: idemOptional,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			if strings.TrimSpace(body.Action) == "" {
				return kernel.InvalidField("/action", "required: an action key from GET /task/schema")
			}
			return nil
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			if body.Payload == nil {
				body.Payload = map[string]any{}
			}
			if err := expenses.ActOnTask(op, c.Actor, mux.Vars(r)["taskId"], body.Action, body.Payload); err != nil {
				return nil, err
			}
			return success{Success: true}, nil
		},
	})
}
