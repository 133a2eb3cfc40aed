package kernel_test

import (
	"errors"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// A wait on a topic wakes when a stored write announces it, and only then:
// not for a failed write, not for another topic. A reset wakes every wait.
func TestChangedWakesOnAnnouncedCommits(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	send := func(fail bool) error {
		return w.Update(func(op *kernel.Op) error {
			if err := op.SendEmail(&kernel.Message{Kind: "test", To: []string{"a@b.test"}, Subject: "Hello"}); err != nil {
				return err
			}
			if fail {
				return errors.New("refused")
			}
			return nil
		})
	}
	outbox, other := w.Changed(kernel.TopicOutbox), w.Changed("other")
	if w.Changed(kernel.TopicOutbox) != outbox {
		t.Fatal("two waits on one topic got different channels")
	}
	if err := send(true); err == nil || closed(outbox) {
		t.Fatalf("a failed write woke the outbox wait (err %v)", err)
	}
	if err := send(false); err != nil {
		t.Fatal(err)
	}
	if !closed(outbox) || closed(other) {
		t.Fatalf("after an email: outbox woken %v (want true), other woken %v (want false)", closed(outbox), closed(other))
	}
	next := w.Changed(kernel.TopicOutbox)
	if closed(next) {
		t.Fatal("a new wait starts woken")
	}
	m, err := w.FirstMessage(kernel.OutboxFilter{Subject: "hell", To: "A@B.test"}, "")
	if err != nil || m == nil || m.Kind != "test" {
		t.Fatalf("FirstMessage = %+v, %v", m, err)
	}
	if later, err := w.FirstMessage(kernel.OutboxFilter{}, m.ID); err != nil || later != nil {
		t.Fatalf("FirstMessage after the only message = %+v, %v", later, err)
	}
	if err := w.Reset(); err != nil {
		t.Fatal(err)
	}
	if !closed(next) || !closed(other) {
		t.Fatal("a reset did not wake every wait")
	}
}
