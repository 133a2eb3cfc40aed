package cards

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Card group statuses. No operation archives a group, so every group is
// active; the list filter still takes both values.
const (
	GroupActive   = "active"
	GroupArchived = "archived"
)

// GroupFilter holds the card group list's filters.
type GroupFilter struct {
	Name             string
	VirtualAccountID string
	// Status defaults to active.
	Status string
}

// Groups lists the actor's card groups in creation order.
func Groups(op *kernel.Op, a *kernel.Actor, f GroupFilter, req kernel.PageRequest) (kernel.Page[Group], error) {
	if f.Status == "" {
		f.Status = GroupActive
	}
	if f.Status != GroupActive && f.Status != GroupArchived {
		return kernel.Page[Group]{}, kernel.InvalidField("filter:status", "must be active or archived")
	}
	return kernel.List(
		op,
		KindGroup,
		kernel.IndexPrefix(IndexGroupLE, a.LegalEntityID()),
		req,
		func(g *Group) bool {
			return g.Status == f.Status && (f.Name == "" || g.Name == f.Name) &&
				(f.VirtualAccountID == "" || g.VirtualAccountID == f.VirtualAccountID)
		},
	)
}

// GroupOf loads one of the actor's card groups; field names the request
// field the id came from ("" for the path).
func GroupOf(op *kernel.Op, a *kernel.Actor, id, field string) (*Group, error) {
	var g Group
	ok, err := op.Get(KindGroup, id, &g)
	if err != nil {
		return nil, err
	}
	if !ok || g.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("card group", field, id)
	}
	return &g, nil
}

// NewGroup is what creating a card group takes.
type NewGroup struct {
	Name string
	// VirtualAccountID is the deprecated legacy association.
	VirtualAccountID string
	Constraint       *SpendingConstraint
}

// CreateGroup creates a card group. On the legal-entity card group
// model the deprecated virtualAccountId is ignored and the group has no
// legacy association; on the virtual-account model it sets the
// association, by default the primary virtual account of the entity's
// first open commercial account.
func CreateGroup(op *kernel.Op, a *kernel.Actor, n NewGroup) (*Group, error) {
	g := &Group{LegalEntityID: a.LegalEntityID(), Name: n.Name, Status: GroupActive,
		SpendingConstraint: n.Constraint, CreatedAt: op.Now}
	if a.LegalEntity.CardGroupModel == GroupModelVirtualAccount {
		if n.VirtualAccountID != "" {
			va, err := cardVirtualAccount(op, a, n.VirtualAccountID, "virtualAccountId")
			if err != nil {
				return nil, err
			}
			g.VirtualAccountID = va.ID
		} else {
			acc, err := cardAccount(op, a, "")
			if err != nil {
				return nil, kernel.InvalidField("/virtualAccountId", "the legal entity has no open commercial account to default"+
					" to; name a virtual account")
			}
			g.VirtualAccountID = acc.PrimaryVirtualAccountID
		}
	}
	id, err := op.NewID(PrefixGroup)
	if err != nil {
		return nil, err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	g.ID, g.Seq = id, seq
	return g, op.Save(KindGroup, g.ID, g, GroupIndexes(g)...)
}

// GroupUpdate is a partial update of a card group.
type GroupUpdate struct {
	Name       Patch[string]
	Constraint Patch[*SpendingConstraint]
}

// UpdateGroup renames a group or replaces (null: removes) its
// spending constraint.
func UpdateGroup(op *kernel.Op, a *kernel.Actor, id string, u GroupUpdate) (*Group, error) {
	g, err := GroupOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	if u.Name.Set {
		g.Name = u.Name.Value
	}
	if u.Constraint.Set {
		g.SpendingConstraint = u.Constraint.Value
	}
	return g, op.Save(KindGroup, g.ID, g, GroupIndexes(g)...)
}

// ReplaceGroupConstraint replaces a card group's whole spending constraint.
func ReplaceGroupConstraint(
	op *kernel.Op,
	a *kernel.Actor,
	id string,
	c *SpendingConstraint,
) (*SpendingConstraint, error) {
	g, err := UpdateGroup(op, a, id, GroupUpdate{Constraint: Patch[*SpendingConstraint]{Set: true, Value: c}})
	if err != nil {
		return nil, err
	}
	return g.SpendingConstraint, nil
}

// PatchGroupConstraint merges a partial constraint into a card group's.
func PatchGroupConstraint(op *kernel.Op, a *kernel.Actor, id string, patch []byte) (*SpendingConstraint, error) {
	g, err := GroupOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	c, err := MergeConstraint(g.SpendingConstraint, patch, "", op.Now, op.W.Catalog)
	if err != nil {
		return nil, err
	}
	g.SpendingConstraint = c
	return c, op.Save(KindGroup, g.ID, g, GroupIndexes(g)...)
}

// GroupIndexes are the index keys of a card group: its legal entity's
// groups in creation order.
func GroupIndexes(g *Group) []string {
	return []string{kernel.IndexKey(IndexGroupLE, g.LegalEntityID, store.Millis(g.CreatedAt), store.Seq(g.Seq), g.ID)}
}

// IndexGroupLE holds a legal entity's card groups in creation order.
const IndexGroupLE = "group.le"
