package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestStartupNamesDashboardAndKey: the lines a serve writes as it starts
// give the dashboard's address and a curl call with one of the scenario's
// keys, in both log formats.
func TestStartupNamesDashboardAndKey(t *testing.T) {
	r := runProgram(t, nil, "--addr", "127.0.0.1:0", "--log-format", "json")
	if r.code != 0 {
		t.Fatalf("serve = %d %q", r.code, r.stderr)
	}
	addr := regexp.MustCompile(`listening on http://(127\.0\.0\.1:\d+)`).FindStringSubmatch(r.stderr)
	if addr == nil {
		t.Fatalf("no listening line in %q", r.stderr)
	}
	messages := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		var entry struct{ Message string }
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("not a JSON log line: %q", line)
		}
		messages[entry.Message] = true
	}
	for _, want := range []string{
		"dashboard: http://" + addr[1] + "/_sandbox/ui",
		"card vault (PAN and CVV): http://" + addr[1] + "/vault",
		"try the API: curl -s -H 'X-API-Key: sk_sandbox_acme' http://" + addr[1] + "/account",
	} {
		if !messages[want] {
			t.Errorf("no log line %q in:\n%s", want, r.stderr)
		}
	}
	r = runProgram(t, nil, "--addr", "127.0.0.1:0", "--log-format", "pretty", "--scenario", "empty",
		"--admin-token", "secret-token")
	for _, want := range []string{
		"INF dashboard: http://127.0.0.1:",
		"/_sandbox/ui (it asks for the admin token)",
		"INF try the API: curl -s -H 'X-API-Key: sk_test_empty_user' -H 'x-legal-entity: le_empty' http://127.0.0.1:",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("no %q in:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "secret-token") {
		t.Errorf("the admin token is in the log:\n%s", r.stderr)
	}
}

// TestLogTimesKeepMilliseconds: both log formats write an entry's time to
// the millisecond: the time read back lies between the instants before
// and after the entry, to the millisecond.
func TestLogTimesKeepMilliseconds(t *testing.T) {
	for format, layout := range map[string]string{"json": logTime, "pretty": "15:04:05.000"} {
		var out bytes.Buffer
		p := &Program{Stderr: &out, Getenv: func(string) string { return "" }}
		log, err := p.logger("info", format)
		if err != nil {
			t.Fatal(err)
		}
		before := time.Now().Truncate(time.Millisecond)
		log.Info().Msg("an entry")
		after := time.Now()
		p.logs.Flush()
		line := out.String()
		var stamp string
		if format == "json" {
			var entry struct{ Time string }
			if err := json.Unmarshal(out.Bytes(), &entry); err != nil {
				t.Fatalf("%s: %q: %v", format, line, err)
			}
			stamp = entry.Time
		} else {
			stamp, _, _ = strings.Cut(line, " ")
		}
		at, err := time.ParseInLocation(layout, stamp, time.Local)
		if err != nil {
			t.Fatalf("%s: the time %q of %q is not %s", format, stamp, line, layout)
		}
		if format == "pretty" {
			y, m, d := before.Date()
			at = time.Date(y, m, d, at.Hour(), at.Minute(), at.Second(), at.Nanosecond(), time.Local)
		}
		if at.Before(before) || at.After(after) {
			t.Errorf("%s: the entry's time %s is not between %s and %s", format, stamp, before.Format(logTime),
				after.Format(logTime))
		}
	}
}
