package sandboxtest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

// subtestsEnv selects what TestSubtestsOfOneSandbox runs when the test
// binary runs itself: "in" for subtests that use sb.In(t), "parent" for a
// subtest that uses the parent's sb.
const subtestsEnv = "SANDBOXTEST_SUBTESTS"

// TestSubtestsOfOneSandbox runs the test binary again on
// TestSubtestsHelper, whose subtests share one sandbox, and reads what go
// test reported. With sb.In(t), the subtest that asks for a key the world
// lacks fails alone, with the message naming the key, and its siblings
// pass, those before it and those after it (waits included). Without it,
// the same subtest fails its parent, and Go says so: the check of the
// first run would catch that.
func TestSubtestsOfOneSandbox(t *testing.T) {
	if os.Getenv(subtestsEnv) != "" {
		t.Skip("run by the test itself")
	}
	t.Parallel()
	out, failed := runHelper(t, "in")
	if !failed {
		t.Fatalf("the helper passed, but one of its subtests fails on purpose:\n%s", out)
	}
	for _, line := range []string{
		"--- PASS: TestSubtestsHelper/a_known_key",
		"--- FAIL: TestSubtestsHelper/an_unknown_key",
		`the world has no API key "sk_test_nope"; its keys are sk_test_empty_user`,
		"--- PASS: TestSubtestsHelper/after_the_failure",
		"--- PASS: TestSubtestsHelper/a_wait_that_fails",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("the helper's output lacks %q:\n%s", line, out)
		}
	}
	if n := strings.Count(out, "--- FAIL:"); n != 2 { // the subtest and, through it, its parent
		t.Errorf("%d failures reported, want the subtest's and its parent's:\n%s", n, out)
	}
	if strings.Contains(out, "FailNow on a parent test") {
		t.Errorf("a subtest failed its parent:\n%s", out)
	}

	out, _ = runHelper(t, "parent")
	if !strings.Contains(out, "FailNow on a parent test") {
		t.Errorf("the parent's sb in a subtest did not fail the parent; the check above proves nothing:\n%s", out)
	}
}

// runHelper runs TestSubtestsHelper in a new process of the test binary and
// returns its output and whether it failed.
func runHelper(t *testing.T, mode string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSubtestsHelper$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), subtestsEnv+"="+mode)
	out, err := cmd.CombinedOutput()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("running the helper: %v", err)
	}
	return string(out), err != nil
}

// TestSubtestsHelper is run by TestSubtestsOfOneSandbox only.
func TestSubtestsHelper(t *testing.T) {
	mode := os.Getenv(subtestsEnv)
	if mode == "" {
		t.Skip("run by TestSubtestsOfOneSandbox")
	}
	sb := sandboxtest.Start(t, sandboxtest.Options{Scenario: "empty"})
	if mode == "parent" {
		t.Run("an unknown key", func(t *testing.T) { sb.Key("sk_test_nope") })
		return
	}
	t.Run("a known key", func(t *testing.T) {
		if got := sb.In(t).Key("sk_test_empty_user"); got != "sk_test_empty_user" {
			t.Errorf("Key = %q", got)
		}
	})
	t.Run("an unknown key", func(t *testing.T) {
		sb.In(t).Key("sk_test_nope")
		t.Error("the test went on after Key failed it")
	})
	t.Run("after the failure", func(t *testing.T) {
		if got := sb.In(t).Key("sk_test_empty_user"); got != "sk_test_empty_user" {
			t.Errorf("Key = %q", got)
		}
	})
	t.Run("a wait that fails", func(t *testing.T) {
		// A wait after an id that names no email fails at once: the
		// subtest records the failure of a view of its own.
		rec := &recorded{TB: t}
		sb.In(rec).WaitForEmail(sandboxtest.EmailFilter{After: "msg_nope"})
		sb.In(rec).WaitForDelivery(sandboxtest.DeliveryFilter{After: "whdel_nope"})
		if len(rec.failures) != 2 || !strings.Contains(rec.failures[0], "wait for an email") ||
			!strings.Contains(rec.failures[1], "wait for a webhook delivery") {
			t.Errorf("failures = %q, want the two waits'", rec.failures)
		}
	})
}

// recorded keeps the failures a view reports instead of failing the test.
type recorded struct {
	testing.TB
	failures []string
}

func (r *recorded) Helper() {}

func (r *recorded) Fatalf(format string, args ...any) {
	r.failures = append(r.failures, format)
}
