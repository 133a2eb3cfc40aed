package store

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// The commands of the data file are buntdb's: RESP arrays of bulk strings,
// "set key value", "del key" and "flushdb". A file in buntdb's own format
// is nothing but these commands, one after another.

func appendBulk(b []byte, s string) []byte {
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, '\r', '\n')
	b = append(b, s...)
	return append(b, '\r', '\n')
}

func appendSet(b []byte, key, val string) []byte {
	b = append(b, "*3\r\n$3\r\nset\r\n"...)
	return appendBulk(appendBulk(b, key), val)
}

func appendDel(b []byte, key string) []byte {
	return appendBulk(append(b, "*2\r\n$3\r\ndel\r\n"...), key)
}

// setFraming is about what appendSet's command adds to a key and its
// value: the command, and each length in decimal (two and three digits,
// as a world's keys and records mostly have).
const setFraming = int64(len("*3\r\n$3\r\nset\r\n") + 2*len("$\r\n\r\n") + 2 + 3)

// command is one parsed command; key and val point into the parsed bytes.
type command struct {
	op       byte // 's'et, 'd'el or 'f'lushdb
	key, val []byte
}

// errIncomplete: the bytes end inside a command.
var errIncomplete = errors.New("incomplete command")

// parseCommand reads the command at the start of b and how many bytes it
// took. It returns errIncomplete when b ends inside the command, another
// error when the bytes are not a command the file may hold.
func parseCommand(b []byte) (c command, n int, err error) {
	count, n, err := parseLength(b, '*')
	if err != nil {
		return c, 0, err
	}
	if count < 1 || count > 3 {
		return c, 0, fmt.Errorf("a command of %d parts", count)
	}
	var parts [3][]byte
	for i := range count {
		m, size, err := parseLength(b[n:], '$')
		if err != nil {
			return c, 0, err
		}
		start := n + size
		if len(b) < start+m+2 {
			return c, 0, errIncomplete
		}
		if b[start+m] != '\r' || b[start+m+1] != '\n' {
			return c, 0, errors.New("a string not followed by CRLF")
		}
		parts[i], n = b[start:start+m], start+m+2
	}
	name := parts[0]
	switch {
	case count == 3 && bytes.EqualFold(name, []byte("set")):
		c = command{op: 's', key: parts[1], val: parts[2]}
	case count == 2 && bytes.EqualFold(name, []byte("del")):
		c = command{op: 'd', key: parts[1]}
	case count == 1 && bytes.EqualFold(name, []byte("flushdb")):
		c = command{op: 'f'}
	default:
		return c, 0, fmt.Errorf("an unknown command %.20q of %d parts", name, count)
	}
	return c, n, nil
}

// parseLength reads a RESP length line that starts with the byte kind:
// the length and the bytes the line took.
func parseLength(b []byte, kind byte) (length, n int, err error) {
	if len(b) == 0 {
		return 0, 0, errIncomplete
	}
	if b[0] != kind {
		return 0, 0, fmt.Errorf("%q where %q should start a line", b[0], kind)
	}
	for n = 1; n < len(b) && b[n] != '\r'; n++ {
		if b[n] < '0' || b[n] > '9' || n > 10 {
			return 0, 0, fmt.Errorf("a malformed length %.12q", b[:n+1])
		}
		length = length*10 + int(b[n]-'0')
	}
	if n+1 >= len(b) {
		return 0, 0, errIncomplete
	}
	if n == 1 || b[n+1] != '\n' {
		return 0, 0, fmt.Errorf("a malformed length %.12q", b[:n+2])
	}
	return length, n + 2, nil
}
