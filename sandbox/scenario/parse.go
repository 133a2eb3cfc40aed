package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Problem is one thing wrong with a scenario file.
type Problem struct {
	File    string
	Line    int
	Message string
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message) }

// Problems is every problem found in a file; it is an error.
type Problems []Problem

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

var lineMsg = regexp.MustCompile(`^\s*(?:yaml: )?line (\d+): (.*)$`)

// Parse decodes and checks a scenario. file names it in problems.
func Parse(file string, data []byte) (*Scenario, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlProblems(file, err)
	}
	sc := &Scenario{File: file, lines: map[string]int{}}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(sc); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlProblems(file, err)
	}
	sc.File = file
	sum := sha256.Sum256(data)
	sc.Hash = hex.EncodeToString(sum[:])
	if len(root.Content) > 0 {
		walkLines(root.Content[0], "", sc.lines)
	}
	if ps := sc.validate(); len(ps) > 0 {
		return nil, ps
	}
	return sc, nil
}

// yamlProblems turns the decoder's errors into problems with lines.
func yamlProblems(file string, err error) Problems {
	var ps Problems
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for _, m := range msgs {
		if sub := lineMsg.FindStringSubmatch(m); sub != nil {
			n, _ := strconv.Atoi(sub[1])
			ps = append(ps, Problem{File: file, Line: n, Message: withoutValue(sub[2])})
			continue
		}
		ps = append(ps, Problem{File: file, Line: 1, Message: withoutValue(strings.TrimPrefix(m, "yaml: "))})
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps
}

// unmarshalMsg is the decoder's type error, which quotes the value it could
// not decode.
var unmarshalMsg = regexp.MustCompile("^cannot unmarshal !!(\\w+) (?:`[^`]*`|.*) into (\\S+)$")

// yamlKinds names the decoder's tags in the scenario's own words.
var yamlKinds = map[string]string{"str": "text", "int": "a whole number", "float": "a number", "bool": "true or false",
	"seq": "a list", "map": "a mapping", "null": "null", "timestamp": "a timestamp", "binary": "binary data"}

// withoutValue rewrites a type error so that it names the kinds involved
// and never quotes the value: a problem must not echo a file's content.
func withoutValue(msg string) string {
	sub := unmarshalMsg.FindStringSubmatch(msg)
	if sub == nil {
		return msg
	}
	found, ok := yamlKinds[sub[1]]
	if !ok {
		found = "a value of another kind"
	}
	return "cannot unmarshal " + found + " into " + goKind(sub[2])
}

// goKind describes the Go type a value was decoded into.
func goKind(t string) string {
	t = strings.TrimLeft(t, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["), strings.Contains(t, "."):
		return "a mapping"
	case t == "string":
		return "text"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	}
	return "a value of another kind"
}

// walkLines records the line of every value under its path, e.g.
// "cards[3].accountId".
func walkLines(n *yaml.Node, path string, lines map[string]int) {
	lines[path] = n.Line
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			lines[p] = k.Line
			walkLines(v, p, lines)
			lines[p] = k.Line
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkLines(c, fmt.Sprintf("%s[%d]", path, i), lines)
		}
	}
}

// Line returns the line of a path, falling back to its nearest ancestor.
func (sc *Scenario) Line(path string) int {
	for p := path; p != ""; {
		if n, ok := sc.lines[p]; ok {
			return n
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 1
}

// Problemf makes a problem at a path of this scenario.
func (sc *Scenario) Problemf(path, format string, args ...any) Problem {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	return Problem{File: sc.File, Line: sc.Line(path), Message: msg}
}
