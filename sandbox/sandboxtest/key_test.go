package sandboxtest

import (
	"fmt"
	"strings"
	"testing"
)

// failures records what a test would have been failed with.
type failures struct {
	testing.TB
	msgs []string
}

func (f *failures) Helper() {}

func (f *failures) Fatalf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

func TestUnknownKeyFailsTheTestNamingTheKnownKeys(t *testing.T) {
	sb := Start(t, Options{Scenario: "empty"})
	rec := &failures{TB: t}
	sb.t = rec
	if got := sb.Key("sk_test_empyt_user"); got != "" {
		t.Fatalf("Key of a misspelt name = %q", got)
	}
	want := `sandboxtest: the world has no API key "sk_test_empyt_user"; its keys are sk_test_empty_user`
	if len(rec.msgs) != 1 || !strings.HasPrefix(rec.msgs[0], want) {
		t.Fatalf("failures = %q, want one starting %q", rec.msgs, want)
	}
	rec.msgs = nil
	if got := sb.Key("sk_test_empty_user"); got != "sk_test_empty_user" || len(rec.msgs) != 0 {
		t.Fatalf("Key of a known name = %q, failures %q", got, rec.msgs)
	}
}

func TestNewSandboxPanicsWhereAStartedOneFails(t *testing.T) {
	sb, err := New(Options{Scenario: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `no API key "nope"`) {
			t.Fatalf("recovered %v, want the unknown key's message", r)
		}
	}()
	sb.Key("nope")
}
