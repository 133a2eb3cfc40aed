package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

func (cl *cli) worlds(ctx context.Context) error {
	args := cl.args
	switch {
	case len(args) == 0 || args[0] == "list":
		var v struct{ Items []client.World }
		raw, err := cl.get(ctx, "/_sandbox/worlds", &v)
		if err != nil {
			return err
		}
		return cl.show(raw, func(w *tabwriter.Writer) {
			fmt.Fprintln(w, "ID\tSCENARIO\tSEED\tCLOCK\tKEYS")
			for _, wd := range v.Items {
				fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%d\n", wd.ID, wd.Scenario, wd.Seed, wd.Clock.Now.Format(time.RFC3339), len(wd.Keys))
			}
		})
	case args[0] == "create" && len(args) >= 2:
		nw, err := newWorldOf(args[1])
		if err != nil {
			return err
		}
		for _, opt := range args[2:] {
			k, v, _ := strings.Cut(opt, "=")
			switch k {
			case "ttl":
				nw.TTL = v
			case "id":
				nw.ID = v
			case "clockStart":
				nw.ClockStart = v
			default:
				return usageError("worlds create SCENARIO [id=ID] [ttl=DURATION] [clockStart=RFC3339]")
			}
		}
		var wd client.World
		raw, err := cl.c.Do(ctx, http.MethodPost, "/_sandbox/worlds", nw, &wd)
		if err != nil {
			return err
		}
		return cl.show(raw, func(w *tabwriter.Writer) {
			fmt.Fprintf(w, "world\t%s\nscenario\t%s\nclock\t%s\n", wd.ID, wd.Scenario, wd.Clock.Now.Format(time.RFC3339))
			for _, k := range wd.Keys {
				fmt.Fprintf(w, "key\t%s\t%s\t%s\n", k.Key, k.Kind, strings.Join(k.LegalEntityIDs, ","))
			}
		})
	case args[0] == "delete" && len(args) == 2:
		raw, err := cl.c.Do(ctx, http.MethodDelete, "/_sandbox/worlds/"+args[1], nil, nil)
		if err != nil {
			return err
		}
		return cl.show(raw, func(w *tabwriter.Writer) { fmt.Fprintf(w, "deleted world %s\n", args[1]) })
	}
	return usageError("usage: slash-sandbox worlds [list | create SCENARIO [id=ID] [ttl=DURATION] | delete ID]")
}

func (cl *cli) snapshots(ctx context.Context) error {
	args := cl.args
	switch {
	case len(args) == 0 || args[0] == "list":
		return cl.table(ctx, "/_sandbox/snapshots", []string{"id", "world", "scenario", "clock", "label", "size"})
	case args[0] == "create":
		label := strings.Join(args[1:], " ")
		raw, err := cl.c.Do(ctx, http.MethodPost, "/_sandbox/snapshots", map[string]string{"label": label}, nil)
		if err != nil {
			return err
		}
		return cl.showObject(raw)
	case args[0] == "restore" && len(args) == 2:
		raw, err := cl.c.Do(ctx, http.MethodPost, "/_sandbox/snapshots/"+args[1]+"/restore", nil, nil)
		if err != nil {
			return err
		}
		return cl.show(raw, func(w *tabwriter.Writer) { fmt.Fprintf(w, "restored %s\n", args[1]) })
	}
	return usageError("usage: slash-sandbox snapshots [list | create [LABEL] | restore ID]")
}

func (cl *cli) outbox(ctx context.Context) error {
	if len(cl.args) == 1 {
		raw, err := cl.get(ctx, "/_sandbox/outbox/"+cl.args[0], nil)
		if err != nil {
			return err
		}
		return cl.showObject(raw)
	}
	return cl.table(ctx, "/_sandbox/outbox", []string{"id", "createdAt", "to", "subject"})
}

func (cl *cli) deliveries(ctx context.Context) error {
	return cl.table(ctx, "/_sandbox/webhook-deliveries", []string{"id", "webhookId", "event", "status", "attemptCount"})
}

// table prints chosen columns of a control collection.
func (cl *cli) table(ctx context.Context, path string, cols []string) error {
	var v struct {
		Items []map[string]any `json:"items"`
	}
	raw, err := cl.get(ctx, path, &v)
	if err != nil {
		return err
	}
	return cl.show(raw, func(w *tabwriter.Writer) {
		fmt.Fprintln(w, strings.ToUpper(strings.Join(cols, "\t")))
		for _, it := range v.Items {
			cells := make([]string, len(cols))
			for i, c := range cols {
				cells[i] = cell(it[c])
			}
			fmt.Fprintln(w, strings.Join(cells, "\t"))
		}
	})
}

// showObject prints an object's top-level properties, one a line.
func (cl *cli) showObject(raw []byte) error {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	return cl.show(raw, func(w *tabwriter.Writer) {
		for k, v := range m {
			fmt.Fprintf(w, "%s\t%s\n", k, cell(v))
		}
	})
}

func cell(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case []any:
		parts := make([]string, len(t))
		for i, p := range t {
			parts[i] = cell(p)
		}
		return strings.Join(parts, ",")
	case float64:
		return fmt.Sprint(t)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// newWorldOf asks for a world of a scenario: an embedded name (or one of
// the server's --scenarios-dir), or a file on this machine, which the
// command reads and sends as inline YAML: the server reads no path a
// request names.
func newWorldOf(scenario string) (client.NewWorld, error) {
	if !strings.ContainsRune(scenario, os.PathSeparator) && !strings.HasSuffix(scenario, ".yaml") && !strings.HasSuffix(scenario, ".yml") {
		return client.NewWorld{Scenario: scenario}, nil
	}
	f, err := os.Open(scenario)
	if err != nil {
		return client.NewWorld{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInlineScenario+1))
	if err != nil {
		return client.NewWorld{}, err
	}
	if len(data) > maxInlineScenario {
		return client.NewWorld{}, fmt.Errorf("%s is larger than a request takes (%d KiB): put it in the server's --scenarios-dir and name it", scenario, maxInlineScenario>>10)
	}
	return client.NewWorld{YAML: string(data)}, nil
}

// maxInlineScenario leaves room in a 1 MiB request body for the JSON
// around the YAML.
const maxInlineScenario = 900 << 10
