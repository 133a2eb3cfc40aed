package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pb33f/go-yaml"
)

// Position is a place in a scenario file: 1-based line and column.
type Position struct {
	Line, Column int
}

// Problem is one thing wrong with a scenario file.
type Problem struct {
	File    string
	Line    int
	Column  int
	Message string
}

// String is file:line:column: message (file:line: message without a
// column).
func (p Problem) String() string {
	if p.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
}

// Problems is every problem found in a file; it is an error.
type Problems []Problem

// Error lists the problems, one a line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// AsProblems extracts Problems from an error.
func AsProblems(err error) (Problems, bool) {
	var ps Problems
	ok := errors.As(err, &ps)
	return ps, ok
}

// Parse decodes and checks a scenario and reports every problem it finds,
// each with its line and column. file names it in problems.
func Parse(file string, data []byte) (*Scenario, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, Problems{syntaxProblem(file, data, err)}
	}
	sc := &Scenario{File: file}
	d := newDecoder(file, len(data))
	if len(root.Content) > 0 {
		d.decode("", root.Content[0], reflectValue(sc))
	}
	sc.File, sc.pos = file, d.pos
	sum := sha256.Sum256(data)
	sc.Hash = hex.EncodeToString(sum[:])
	ps := append(d.ps, sc.validate(d.bad)...)
	if len(ps) > 0 {
		return nil, sorted(ps)
	}
	return sc, nil
}

// syntaxProblem places a YAML syntax error. The message is the parser's,
// which names the construct, never the file's content.
func syntaxProblem(file string, data []byte, err error) Problem {
	var le *yaml.LoadError
	if errors.As(err, &le) {
		msg := le.Message
		if i := le.Mark.Index; i >= 0 && i < len(data) && data[i] == '\t' {
			msg += " (a tab: YAML indents with spaces)"
		}
		if le.ContextMsg != "" {
			msg += " " + le.ContextMsg
			if le.ContextMark.Line > 0 && le.ContextMark != le.Mark {
				msg += fmt.Sprintf(" started at line %d, column %d", le.ContextMark.Line, le.ContextMark.Column)
			}
		}
		return Problem{File: file, Line: max(le.Mark.Line, 1), Column: max(le.Mark.Column, 1), Message: "YAML syntax: " + msg}
	}
	return Problem{File: file, Line: 1, Column: 1, Message: "YAML syntax: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

// sorted orders problems as they appear in the file, once each.
func sorted(ps Problems) Problems {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Column < ps[j].Column
	})
	out := ps[:0]
	for i, p := range ps {
		if i == 0 || p != ps[i-1] {
			out = append(out, p)
		}
	}
	return out
}

// Position returns where a path is, e.g. "cards[3].accountId": its value
// when that is a scalar, else its key or list item, falling back to the
// nearest ancestor the file has.
func (sc *Scenario) Position(path string) Position {
	for p := path; p != ""; {
		if at, ok := sc.pos[p]; ok {
			return at
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	if at, ok := sc.pos[""]; ok {
		return at
	}
	return Position{Line: 1, Column: 1}
}

// Line returns the line of a path (see Position).
func (sc *Scenario) Line(path string) int { return sc.Position(path).Line }

// Problemf makes a problem at a path of this scenario.
func (sc *Scenario) Problemf(path, format string, args ...any) Problem {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	at := sc.Position(path)
	return Problem{File: sc.File, Line: at.Line, Column: at.Column, Message: msg}
}
