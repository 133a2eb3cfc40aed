package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// TestLoadSummaryGroupsThousands: the summary of a big load writes its
// count of records with thousands separators, as a person reads it.
func TestLoadSummaryGroupsThousands(t *testing.T) {
	var buf bytes.Buffer
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLoadLog(zerolog.New(&buf), "big", func() time.Time { return start })
	for range 1_234_567 {
		l.record("card")
	}
	l.done("default")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var sum struct {
		Message string
		Records int
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	if want := "loaded scenario big: 1,234,567 records in 0s"; sum.Message != want || sum.Records != 1_234_567 {
		t.Errorf("summary = %+v, want the message %q and the records as a number", sum, want)
	}
}
