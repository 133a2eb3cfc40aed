package drift

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is what a run found. Its JSON is the --json output; FormatVersion
// changes only when a field changes meaning or goes away.
type Report struct {
	// FormatVersion is 1.
	FormatVersion int `json:"formatVersion"`
	// Against is the service probed.
	Against string `json:"against"`
	// LegalEntity is the legal entity the requests acted for ("" when none).
	LegalEntity string `json:"legalEntity"`
	// Requests is the number of requests sent, every one a GET.
	Requests int `json:"requests"`
	// Checked are the operations whose answers were checked, by operationId.
	Checked []string `json:"checked"`
	// Skipped are the operations that could not be read, each with why.
	Skipped []Skip `json:"skipped"`
	// Stopped, when set, says why the run ended before probing every
	// operation (a bound of the run).
	Stopped string `json:"stopped,omitempty"`
	// Differences are where production's answers differ from the sandbox's
	// contract, sorted by operation, probe and pointer.
	Differences []Difference `json:"differences"`
}

// Skip is an operation the run did not check.
type Skip struct {
	Operation string `json:"operation"`
	Reason    string `json:"reason"`
}

// Difference is one place where production differs from the sandbox.
type Difference struct {
	// Operation is the operationId of the sandbox's OpenAPI document.
	Operation string `json:"operation"`
	// Probe is what the request asked: read, unknown_id or bad_filter.
	Probe string `json:"probe"`
	// Request is the first request that showed it, "GET /path?query".
	Request string `json:"request"`
	// Pointer is the JSON pointer in the answer's body ("" for the status
	// or the body as a whole).
	Pointer string `json:"pointer"`
	// Kind is unknown_field, missing_field, unknown_enum_value, type,
	// format, status or body.
	Kind string `json:"kind"`
	// Production is what production sent; Sandbox what the sandbox expects.
	Production string `json:"production"`
	Sandbox    string `json:"sandbox"`
	// Count is how many times it was seen (array elements and followed ids
	// alike).
	Count int `json:"count"`
}

var index = regexp.MustCompile(`/[0-9]+(/|$)`)

// add records a finding, folded with the same one at the same place in
// another array element or another followed id.
func (r *run) add(opID, probe, path string, f finding) {
	key := strings.Join([]string{opID, probe, f.kind, index.ReplaceAllString(f.pointer, "/*$1")}, " ")
	if f.kind == KindUnknownEnum {
		key += " " + f.production
	}
	if d, ok := r.diffs[key]; ok {
		d.Count++
		return
	}
	r.diffs[key] = &Difference{Operation: opID, Probe: probe, Request: "GET " + path, Pointer: f.pointer,
		Kind: f.kind, Production: f.production, Sandbox: f.sandbox, Count: 1}
}

func (rep *Report) skip(opID, reason string) {
	rep.Skipped = append(rep.Skipped, Skip{opID, reason})
}

// finish sorts the differences into the report.
func (rep *Report) finish(diffs map[string]*Difference) {
	rep.Differences = []Difference{}
	for _, d := range diffs {
		rep.Differences = append(rep.Differences, *d)
	}
	sort.Slice(rep.Differences, func(i, j int) bool {
		a, b := rep.Differences[i], rep.Differences[j]
		if a.Operation != b.Operation {
			return a.Operation < b.Operation
		}
		if a.Probe != b.Probe {
			return a.Probe < b.Probe
		}
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.Kind < b.Kind
	})
	if rep.Checked == nil {
		rep.Checked = []string{}
	}
	if rep.Skipped == nil {
		rep.Skipped = []Skip{}
	}
}

// WriteTable prints the differences as a table, then what was skipped and
// a summary line.
func (rep *Report) WriteTable(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	if len(rep.Differences) > 0 {
		fmt.Fprintln(w, "OPERATION\tREQUEST\tPOINTER\tPRODUCTION\tSANDBOX")
	}
	for _, d := range rep.Differences {
		op := d.Operation
		if d.Probe != ProbeRead {
			op += " (" + strings.ReplaceAll(d.Probe, "_", " ") + ")"
		}
		pointer := d.Pointer
		switch {
		case d.Kind == KindStatus:
			pointer = "(status)"
		case pointer == "":
			pointer = "(body)"
		}
		sandbox := d.Sandbox
		if d.Count > 1 {
			sandbox += fmt.Sprintf(" (seen %d times)", d.Count)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", op, d.Request, pointer, d.Production, sandbox)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(out, "skipped %s: %s\n", s.Operation, s.Reason)
	}
	if rep.Stopped != "" {
		fmt.Fprintf(out, "stopped early: %s\n", rep.Stopped)
	}
	_, err := fmt.Fprintf(out, "%s: %d requests, %d operations checked, %d skipped, %d differences\n",
		rep.Against, rep.Requests, len(rep.Checked), len(rep.Skipped), len(rep.Differences))
	return err
}
