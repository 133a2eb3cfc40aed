package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestLogBufferKeepsOrderAndFlushes(t *testing.T) {
	var out bytes.Buffer
	b := newLogBuffer(&out)
	line := []byte("one\n")
	b.Write(line)
	line[0] = 'X' // zerolog reuses its buffer: the log must have copied it
	b.Write([]byte("two\n"))
	b.Flush()
	if out.String() != "one\ntwo\n" {
		t.Fatalf("after Flush: %q", out.String())
	}
	big := strings.Repeat("x", logFlushSize) + "\n"
	b.Write([]byte(big))
	if out.Len() != len("one\ntwo\n")+len(big) {
		t.Fatalf("a full buffer was not written at once: %d bytes out", out.Len())
	}
	b.Flush()
	if out.Len() != len("one\ntwo\n")+len(big) {
		t.Fatal("Flush wrote something twice")
	}
}
