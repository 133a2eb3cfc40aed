package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

func (cl *cli) worlds(ctx context.Context) error {
	args := cl.args
	switch {
	case len(args) == 0 || args[0] == "list":
		worlds, err := cl.c.Worlds(ctx)
		if err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) {
			fmt.Fprintln(w, "ID\tSCENARIO\tSEED\tCLOCK\tKEYS")
			for _, wd := range worlds {
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
		wd, err := cl.c.CreateWorld(ctx, nw)
		if err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) {
			fmt.Fprintf(w, "world\t%s\nscenario\t%s\nclock\t%s\n", wd.ID, wd.Scenario, wd.Clock.Now.Format(time.RFC3339))
			for _, k := range wd.Keys {
				fmt.Fprintf(w, "key\t%s\t%s\t%s\n", k.Key, k.Kind, strings.Join(k.LegalEntityIDs, ","))
			}
		})
	case args[0] == "delete" && len(args) == 2:
		if err := cl.c.DeleteWorld(ctx, args[1]); err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) { fmt.Fprintf(w, "deleted world %s\n", args[1]) })
	}
	return usageError("usage: slash-sandbox worlds [list | create SCENARIO [id=ID] [ttl=DURATION] | delete ID]")
}

func (cl *cli) snapshots(ctx context.Context) error {
	args := cl.args
	switch {
	case len(args) == 0 || args[0] == "list":
		snaps, err := cl.c.Snapshots(ctx)
		if err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) {
			fmt.Fprintln(w, "ID\tWORLD\tSCENARIO\tCLOCK\tLABEL\tSIZE")
			for _, s := range snaps {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\n", s.ID, s.World, s.Scenario, s.Clock.Format(time.RFC3339), s.Label, s.Size)
			}
		})
	case args[0] == "create":
		s, err := cl.c.CreateSnapshot(ctx, strings.Join(args[1:], " "))
		if err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) {
			fmt.Fprintf(w, "id\t%s\nworld\t%s\nscenario\t%s\nseed\t%d\nclock\t%s\nlabel\t%s\nsize\t%d\n",
				s.ID, s.World, s.Scenario, s.Seed, s.Clock.Format(time.RFC3339), s.Label, s.Size)
		})
	case args[0] == "restore" && len(args) == 2:
		if err := cl.c.Restore(ctx, args[1]); err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) { fmt.Fprintf(w, "restored %s\n", args[1]) })
	}
	return usageError("usage: slash-sandbox snapshots [list | create [LABEL] | restore ID]")
}

func (cl *cli) outbox(ctx context.Context) error {
	if len(cl.args) == 1 {
		m, err := cl.c.Message(ctx, cl.args[0])
		if err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) {
			fmt.Fprintf(w, "id\t%s\nkind\t%s\ncreatedAt\t%s\nto\t%s\ncc\t%s\nsubject\t%s\n",
				m.ID, m.Kind, m.CreatedAt.Format(time.RFC3339), strings.Join(m.To, ","), strings.Join(m.CC, ","), m.Subject)
			if m.RelatedID != "" {
				fmt.Fprintf(w, "relatedId\t%s\n", m.RelatedID)
			}
			for _, name := range slices.Sorted(maps.Keys(m.Links)) {
				fmt.Fprintf(w, "link %s\t%s\n", name, m.Links[name])
			}
			fmt.Fprintf(w, "\n%s\n", m.Text)
		})
	}
	messages, err := cl.c.Outbox(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "ID\tCREATEDAT\tTO\tSUBJECT")
		for _, m := range messages {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", m.ID, m.CreatedAt.Format(time.RFC3339), strings.Join(m.To, ","), m.Subject)
		}
	})
}

func (cl *cli) deliveries(ctx context.Context) error {
	deliveries, err := cl.c.Deliveries(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "ID\tWEBHOOKID\tEVENT\tSTATUS\tATTEMPTCOUNT")
		for _, d := range deliveries {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\n", d.ID, d.WebhookID, d.Event, d.Status, d.AttemptCount)
		}
	})
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
