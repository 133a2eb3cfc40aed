package kernel_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// onlyInvoices lets through the messages of kind "invoice".
type onlyInvoices struct{}

func (onlyInvoices) Sends(m *kernel.Message) bool { return m.Kind == "invoice" }

// A quiet operation emits nothing, wakes no one and sends only the emails
// its Quiet lets through; once it is no longer quiet, it does all three.
func TestAQuietOperationHoldsItsEffectsBack(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	outbox := w.Changed(kernel.TopicOutbox)
	var before, after kernel.Page[kernel.Message]
	var err error
	if before, err = w.Outbox(kernel.OutboxFilter{}, kernel.PageRequest{Size: 100}); err != nil {
		t.Fatal(err)
	}
	err = w.Update(func(op *kernel.Op) error {
		op.SetQuiet(onlyInvoices{})
		if err := op.Emit("le_x", "card.update", "card_x"); err != nil {
			return err
		}
		for _, kind := range []string{"reminder", "invoice"} {
			if err := op.SendEmail(&kernel.Message{Kind: kind, Subject: kind}); err != nil {
				return err
			}
		}
		if len(op.Emitted()) != 0 {
			t.Errorf("a quiet operation emitted %v", op.Emitted())
		}
		op.SetQuiet(nil)
		if err := op.Emit("le_x", "card.update", "card_x"); err != nil {
			return err
		}
		if len(op.Emitted()) != 1 {
			t.Errorf("after SetQuiet(nil) the operation emitted %v, want one event", op.Emitted())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if closed(outbox) {
		t.Error("a quiet operation's email woke the outbox's waiters")
	}
	if after, err = w.Outbox(kernel.OutboxFilter{}, kernel.PageRequest{Size: 100}); err != nil {
		t.Fatal(err)
	}
	if got := len(after.Items) - len(before.Items); got != 1 || after.Items[0].Kind != "invoice" {
		t.Fatalf("the outbox gained %d messages, the newest %q; want the invoice alone", got, after.Items[0].Kind)
	}
}

// Values kept on an operation last as long as it, and nil removes one.
func TestValuesKeptOnAnOperation(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	type key struct{}
	err := w.View(func(op *kernel.Op) error {
		if op.Value(key{}) != nil {
			t.Error("a new operation holds a value")
		}
		op.SetValue(key{}, 7)
		if op.Value(key{}) != 7 {
			t.Errorf("Value = %v, want 7", op.Value(key{}))
		}
		op.SetValue(key{}, nil)
		if op.Value(key{}) != nil {
			t.Error("SetValue(nil) kept the value")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = w.View(func(op *kernel.Op) error {
		if op.Value(key{}) != nil {
			t.Error("a value outlived its operation")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
