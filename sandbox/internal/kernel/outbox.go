package kernel

import (
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Message is an email the sandbox would have sent. Nothing leaves the
// machine: every message lands in the world's outbox, where the control API
// shows it.
type Message struct {
	ID            string            `json:"id"`
	Kind          string            `json:"kind"`
	To            []string          `json:"to"`
	CC            []string          `json:"cc"`
	Subject       string            `json:"subject"`
	Text          string            `json:"text"`
	HTML          string            `json:"html"`
	Links         map[string]string `json:"links"`
	RelatedID     string            `json:"relatedId,omitempty"`
	LegalEntityID string            `json:"legalEntityId,omitempty"`
	CreatedAt     time.Time         `json:"createdAt"`
	Seq           int64             `json:"seq"`
}

const (
	indexOutbox       = "outbox.all"
	indexOutboxRelate = "outbox.related"
)

func messageIndexes(m *Message) []string {
	at, seq := store.Millis(m.CreatedAt), store.Seq(m.Seq)
	keys := []string{IndexKey(indexOutbox, at, seq, m.ID)}
	if m.RelatedID != "" {
		keys = append(keys, IndexKey(indexOutboxRelate, m.RelatedID, at, seq, m.ID))
	}
	return keys
}

// SendEmail puts a message in the outbox, filling its id, time and sequence.
// A quiet operation sends only what its Quiet lets through.
func (op *Op) SendEmail(m *Message) error {
	if op.quiet != nil && !op.quiet.Sends(m) {
		return nil
	}
	id, err := op.NewID(messages.Prefix)
	if err != nil {
		return err
	}
	return op.SendEmailAs(id, m)
}

// SendEmailAs puts an email in the outbox with the id a world it was
// exported from gave it, dated now.
func (op *Op) SendEmailAs(id string, m *Message) error {
	if op.quiet != nil && !op.quiet.Sends(m) {
		return nil
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	m.ID, m.Seq, m.CreatedAt = id, seq, op.Now
	if m.To == nil {
		m.To = []string{}
	}
	if m.CC == nil {
		m.CC = []string{}
	}
	if m.Links == nil {
		m.Links = map[string]string{}
	}
	op.Announce(TopicOutbox)
	return op.Save(messages.Name, id, m, messageIndexes(m)...)
}

// OutboxFilter narrows the outbox; empty fields match everything.
type OutboxFilter struct {
	// To matches a recipient, To or CC, case-insensitively.
	To        string
	Kind      string
	RelatedID string
	// Subject matches a part of the subject, case-insensitively.
	Subject string
	// Since keeps the messages sent at or after it (virtual time).
	Since time.Time
}

func (f OutboxFilter) match(m *Message) bool {
	if f.Kind != "" && m.Kind != f.Kind {
		return false
	}
	if f.RelatedID != "" && m.RelatedID != f.RelatedID {
		return false
	}
	if f.Subject != "" && !strings.Contains(strings.ToLower(m.Subject), strings.ToLower(f.Subject)) {
		return false
	}
	if m.CreatedAt.Before(f.Since) {
		return false
	}
	if f.To == "" {
		return true
	}
	same := func(s string) bool { return strings.EqualFold(s, f.To) }
	return slices.ContainsFunc(m.To, same) || slices.ContainsFunc(m.CC, same)
}

// Outbox lists the world's messages, newest first.
func (w *World) Outbox(f OutboxFilter, req PageRequest) (Page[Message], error) {
	var page Page[Message]
	err := w.View(func(op *Op) error {
		prefix := IndexPrefix(indexOutbox)
		if f.RelatedID != "" {
			prefix = IndexPrefix(indexOutboxRelate, f.RelatedID)
		}
		req.Desc = true
		var err error
		page, err = List(op, messages.Name, prefix, req, f.match)
		return err
	})
	return page, err
}

// OutboxMessage loads one message of the outbox.
func (w *World) OutboxMessage(id string) (*Message, error) {
	var m Message
	err := w.View(func(op *Op) error {
		ok, err := op.Get(messages.Name, id, &m)
		if err == nil && !ok {
			err = NotFound("message", "id", id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// FirstMessage is the first message, in the order they were sent, that f
// matches and that was sent after the message named after ("" for any);
// nil when there is none yet. An after that names no message is not_found.
func (w *World) FirstMessage(f OutboxFilter, after string) (*Message, error) {
	var found *Message
	err := w.View(func(op *Op) error {
		req := PageRequest{Size: 1}
		if after != "" {
			var prev Message
			ok, err := op.Get(messages.Name, after, &prev)
			if err != nil {
				return err
			}
			if !ok {
				return NotFound("message", "after", after)
			}
			// Messages are indexed by time, then sequence: the ones after
			// prev follow its index key.
			req.After = messageIndexes(&prev)[0]
		}
		page, err := List(op, messages.Name, IndexPrefix(indexOutbox), req, f.match)
		if len(page.Items) > 0 {
			found = &page.Items[0]
		}
		return err
	})
	return found, err
}
