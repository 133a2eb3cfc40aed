package webhooks

import (
	"context"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// TestDeletedWorldsAreForgotten: a world deleted after its worker went idle
// must not stay in the sender (with its whole store) for ever.
func TestDeletedWorldsAreForgotten(t *testing.T) {
	sc, err := scenario.Load("empty")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc}); err != nil {
		t.Fatal(err)
	}
	s := Attach(eng, Options{})
	w, err := eng.SpawnWorld(kernel.WorldSpec{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	s.Kick(w)
	s.Settle(context.Background(), w)
	if !s.knows(w) {
		t.Fatal("the sender has no queue for a world it served")
	}
	if err := eng.DeleteWorld(w.ID); err != nil {
		t.Fatal(err)
	}
	if s.knows(w) {
		t.Fatal("the sender still holds a deleted world")
	}
}

func (s *Sender) knows(w *kernel.World) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.queues[w]
	return ok
}
