package expenses

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Task statuses.
const (
	TaskActionRequired = "action_required"
	TaskPending        = "pending"
	TaskCompleted      = "completed"
	TaskRejected       = "rejected"
	TaskExpired        = "expired"
	TaskCanceled       = "canceled"
)

// TaskStatuses lists every task status.
var TaskStatuses = []string{TaskActionRequired, TaskPending, TaskCompleted, TaskRejected, TaskExpired, TaskCanceled}

// Task types the sandbox creates.
const (
	TaskExpenseSubmission = "expense_submission"
	TaskPaymentApproval   = "payment_approval"
)

// PrefixTask starts every task id.
const PrefixTask = "task_"

// KindTask is the record kind of tasks.
const KindTask = "task"

const (
	indexTaskTime   = "task.time"
	indexTaskStatus = "task.status"
	indexTaskType   = "task.type"
)

// Task is something a person has to act on: review an expense report,
// approve a payment.
type Task struct {
	ID               string         `json:"id"`
	LegalEntityID    string         `json:"legalEntityId"`
	Type             string         `json:"type"`
	Status           string         `json:"status"`
	Data             map[string]any `json:"data"`
	AssigneeUserIDs  []string       `json:"assigneeUserIds"`
	OriginatorUserID string         `json:"originatorUserId,omitempty"`
	RelatedID        string         `json:"relatedId,omitempty"`
	CreatedAt        time.Time      `json:"createdAt"`
	UpdatedAt        time.Time      `json:"updatedAt"`
	Seq              int64          `json:"seq"`
}

func taskIndexes(t *Task) []string {
	at, seq := store.Millis(t.CreatedAt), store.Seq(t.Seq)
	return []string{
		kernel.IndexKey(indexTaskTime, t.LegalEntityID, at, seq, t.ID),
		kernel.IndexKey(indexTaskStatus, t.LegalEntityID, t.Status, at, seq, t.ID),
		kernel.IndexKey(indexTaskType, t.LegalEntityID, t.Type, at, seq, t.ID),
	}
}

// TaskAttribute describes one data attribute of a task type.
type TaskAttribute struct {
	Type      string   `json:"type" enum:"string,number,boolean,enum,money,date,ref,refs"`
	Options   []string `json:"options,omitempty"`
	Operators []string `json:"operators"`
	Required  bool     `json:"-"`
}

// TaskActionSpec is an action a task type offers.
type TaskActionSpec struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Style string `json:"-"`
}

// TaskSchema is a task type: its attributes and actions.
type TaskSchema struct {
	Type       string                   `json:"type"`
	Attributes map[string]TaskAttribute `json:"attributes"`
	Actions    []TaskActionSpec         `json:"actions"`
}

var (
	refOps        = []string{"eq", "in"}
	textOps       = []string{"eq", "in", "contains"}
	numberOps     = []string{"eq", "gt", "gte", "lt", "lte", "in"}
	reviewActions = []TaskActionSpec{
		{Key: "approve", Label: "Approve", Style: "primary"},
		{Key: "reject", Label: "Reject", Style: "danger"},
	}
)

// TaskSchemas lists the task types and what each carries.
var TaskSchemas = []TaskSchema{
	{Type: TaskExpenseSubmission, Actions: reviewActions, Attributes: map[string]TaskAttribute{
		"expenseReportId":   {Type: "ref", Operators: refOps, Required: true},
		"submittedByUserId": {Type: "ref", Operators: refOps, Required: true},
		"amountCents":       {Type: "money", Operators: numberOps, Required: true},
		"currency":          {Type: "string", Operators: textOps, Required: true},
		"merchantName":      {Type: "string", Operators: textOps},
		"transactionDate":   {Type: "date", Operators: numberOps, Required: true},
		"memo":              {Type: "string", Operators: textOps},
	}},
	{Type: TaskPaymentApproval, Actions: reviewActions, Attributes: map[string]TaskAttribute{
		"transactionId": {Type: "ref", Operators: refOps, Required: true},
		"accountId":     {Type: "ref", Operators: refOps, Required: true},
		"amountCents":   {Type: "money", Operators: numberOps, Required: true},
		"description":   {Type: "string", Operators: textOps},
		"status":        {Type: "enum", Options: ledger.DetailedStatuses, Operators: refOps},
	}},
}

// TaskSchemaOf returns a task type's schema.
func TaskSchemaOf(taskType string) (TaskSchema, bool) {
	i := slices.IndexFunc(TaskSchemas, func(s TaskSchema) bool { return s.Type == taskType })
	if i < 0 {
		return TaskSchema{Type: taskType, Attributes: map[string]TaskAttribute{}, Actions: reviewActions}, false
	}
	return TaskSchemas[i], true
}

// TaskAction is an action of a task as one caller sees it.
type TaskAction struct {
	TaskActionSpec
	Role       string
	IsDisabled bool
	Reason     string
}

// TaskActions are a task's actions for a caller: a legal-entity key and an
// assignee act; the task's originator and anyone else only observe. Every
// action is disabled once the task no longer needs action.
func TaskActions(t *Task, p *kernel.Principal) []TaskAction {
	role, reason := "actor", ""
	if p.User != nil && !slices.Contains(t.AssigneeUserIDs, p.User.ID) {
		role, reason = "observer", "the task is not assigned to you"
	}
	if p.User != nil && p.User.ID == t.OriginatorUserID {
		role, reason = "originator", "you created this task and cannot act on it"
	}
	if t.Status != TaskActionRequired {
		reason = "the task is " + t.Status
	}
	schema, _ := TaskSchemaOf(t.Type)
	out := make([]TaskAction, len(schema.Actions))
	for i, a := range schema.Actions {
		out[i] = TaskAction{TaskActionSpec: a, Role: role, IsDisabled: reason != "", Reason: reason}
	}
	return out
}

// visibleTo reports whether a caller sees a task: legal-entity keys see
// all of the entity's tasks, user keys those assigned to their user.
func (t *Task) visibleTo(p *kernel.Principal) bool {
	return p.User == nil || slices.Contains(t.AssigneeUserIDs, p.User.ID)
}

// TaskAttrFilter compares one data attribute: Op is eq, gt, gte, lt, lte,
// in (comma-separated values) or contains.
type TaskAttrFilter struct {
	Field, Op, Value string
}

// TaskFilter narrows and orders the task list.
type TaskFilter struct {
	Type, Status string
	Attrs        []TaskAttrFilter
	// Sort is timestamp (the default), status or type.
	Sort string
	Asc  bool
}

func (f *TaskFilter) validate() error {
	d := map[string]string{}
	if f.Status != "" && !slices.Contains(TaskStatuses, f.Status) {
		d["filter:status"] = "must be one of " + strings.Join(TaskStatuses, ", ")
	}
	if !slices.Contains([]string{"", "timestamp", "status", "type"}, f.Sort) {
		d["sort"] = "must be timestamp, status or type"
	}
	for _, a := range f.Attrs {
		if !slices.Contains([]string{"eq", "gt", "gte", "lt", "lte", "in", "contains"}, a.Op) {
			d["filter:attr["+a.Field+"]"] = "operator must be gte, lte, gt, lt, in or contains"
		}
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

func (a TaskAttrFilter) match(data map[string]any) bool {
	v, ok := data[a.Field]
	if !ok {
		return false
	}
	got := attrText(v)
	switch a.Op {
	case "eq":
		return got == a.Value
	case "in":
		return slices.Contains(strings.Split(a.Value, ","), got)
	case "contains":
		return strings.Contains(strings.ToLower(got), strings.ToLower(a.Value))
	}
	cmp := strings.Compare(got, a.Value)
	x, errX := strconv.ParseFloat(got, 64)
	y, errY := strconv.ParseFloat(a.Value, 64)
	if errX == nil && errY == nil {
		cmp = 0
		if x < y {
			cmp = -1
		} else if x > y {
			cmp = 1
		}
	}
	switch a.Op {
	case "gt":
		return cmp > 0
	case "gte":
		return cmp >= 0
	case "lt":
		return cmp < 0
	}
	return cmp <= 0
}

func attrText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// ListTasks lists the tasks the actor may see, newest first unless the
// filter says otherwise.
func ListTasks(op *kernel.Op, a *kernel.Actor, f TaskFilter, req kernel.PageRequest) (kernel.Page[Task], error) {
	if err := f.validate(); err != nil {
		return kernel.Page[Task]{}, err
	}
	index := map[string]string{"": indexTaskTime, "timestamp": indexTaskTime, "status": indexTaskStatus,
		"type": indexTaskType}[f.Sort]
	req.Desc = !f.Asc
	return kernel.List(op, KindTask, kernel.IndexPrefix(index, a.LegalEntityID()), req, func(t *Task) bool {
		if !t.visibleTo(&a.Principal) || (f.Type != "" && t.Type != f.Type) || (f.Status != "" && t.Status != f.Status) {
			return false
		}
		for _, af := range f.Attrs {
			if !af.match(t.Data) {
				return false
			}
		}
		return true
	})
}

// TaskOf loads a task the actor may see.
func TaskOf(op *kernel.Op, a *kernel.Actor, id string) (*Task, error) {
	var t Task
	ok, err := op.Get(KindTask, id, &t)
	if err != nil {
		return nil, err
	}
	if !ok || t.LegalEntityID != a.LegalEntityID() || !t.visibleTo(&a.Principal) {
		return nil, kernel.NotFound("task", "", id)
	}
	return &t, nil
}

// SaveTask stores a task changed now, giving a new one its id and
// sequence.
func SaveTask(op *kernel.Op, t *Task) error {
	t.UpdatedAt = op.Now
	return RestoreTask(op, t)
}

// RestoreTask stores a task as it is, giving a new one its id, sequence
// and creation time (now) when it has none, and an update time when it
// has none: a scenario's task keeps the times it declares.
func RestoreTask(op *kernel.Op, t *Task) error {
	if t.Seq == 0 {
		var err error
		if t.ID == "" {
			if t.ID, err = op.NewID(PrefixTask); err != nil {
				return err
			}
		}
		if t.Seq, err = op.NextSeq(); err != nil {
			return err
		}
		if t.CreatedAt.IsZero() {
			t.CreatedAt = op.Now
		}
	}
	if t.AssigneeUserIDs == nil {
		t.AssigneeUserIDs = []string{}
	}
	if t.Data == nil {
		t.Data = map[string]any{}
	}
	if t.UpdatedAt.IsZero() {
		t.UpdatedAt = op.Now
	}
	return op.Save(KindTask, t.ID, t, taskIndexes(t)...)
}
