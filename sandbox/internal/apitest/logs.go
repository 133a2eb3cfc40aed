package apitest

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

// LogLine is one JSON line of the server's log.
type LogLine map[string]any

// LogLines parses a log, failing on a line that is not JSON.
func LogLines(t *testing.T, log string) []LogLine {
	t.Helper()
	var out []LogLine
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l LogLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, sc.Text())
		}
		out = append(out, l)
	}
	return out
}

// Where keeps the lines whose message starts with prefix.
func Where(lines []LogLine, prefix string) []LogLine {
	var out []LogLine
	for _, l := range lines {
		if msg, _ := l["message"].(string); strings.HasPrefix(msg, prefix) {
			out = append(out, l)
		}
	}
	return out
}
