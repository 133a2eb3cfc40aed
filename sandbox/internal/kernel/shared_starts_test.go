package kernel

import (
	"fmt"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

func TestSharedStartsKeepTheLastFewSmallOnes(t *testing.T) {
	small := []store.KV{{Key: "a", Value: "1"}}
	for i := range maxSharedStarts + 2 {
		keepSharedStart(fmt.Sprintf("k%d", i), small)
	}
	if got := sharedStart("k0"); got != nil {
		t.Fatalf("the least recently used state stayed beyond %d: %v", maxSharedStarts, got)
	}
	if got := sharedStart(fmt.Sprintf("k%d", maxSharedStarts+1)); len(got) != 1 {
		t.Fatalf("the newest state is gone: %v", got)
	}
	big := make([]store.KV, maxSharedStartKeys+1)
	keepSharedStart("big", big)
	if sharedStart("big") != nil {
		t.Fatal("a state above maxSharedStartKeys was kept")
	}
	if sharable(WorldSpec{OnOrigin: func(string, string, string) {}}) ||
		sharable(WorldSpec{OnRecord: func(string) {}}) || !sharable(WorldSpec{}) {
		t.Fatal("a load whose records are listened to must not come from a copy")
	}
}
