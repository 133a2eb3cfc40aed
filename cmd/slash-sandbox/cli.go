package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

// cli is a control-API command: it talks to a running sandbox.
type cli struct {
	p      *Program
	c      *client.Client
	json   bool
	args   []string
	stdout io.Writer
	// last is the body of the last response, which --json prints.
	last []byte
}

// controlCommands are the subcommands that drive a running sandbox.
var controlCommands = map[string]func(*cli, context.Context) error{
	"health":     (*cli).health,
	"clock":      (*cli).clock,
	"reset":      (*cli).reset,
	"keys":       (*cli).keys,
	"events":     (*cli).events,
	"worlds":     (*cli).worlds,
	"snapshots":  (*cli).snapshots,
	"outbox":     (*cli).outbox,
	"deliveries": (*cli).deliveries,
}

// control parses the shared flags and runs a control command.
func (p *Program) control(ctx context.Context, name string, args []string) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	server := fs.String("server", envOr(p.Getenv, "SANDBOX_SERVER", "http://127.0.0.1:8080"), "sandbox address (SANDBOX_SERVER)")
	world := fs.String("world", p.Getenv("SANDBOX_WORLD"), "world to act on (SANDBOX_WORLD); default the server's default world")
	token := fs.String("admin-token", p.Getenv("SANDBOX_ADMIN_TOKEN"), "control API token (SANDBOX_ADMIN_TOKEN)")
	asJSON := fs.Bool("json", false, "print the control API's JSON instead of a table")
	if err := fs.Parse(interleave(args)); err != nil {
		return 2
	}
	c := client.New(*server)
	c.World, c.AdminToken = *world, *token
	cl := &cli{p: p, c: c, json: *asJSON, args: fs.Args(), stdout: p.Stdout}
	c.Received = func(_, _ string, _ int, body []byte) { cl.last = body }
	if err := controlCommands[name](cl, ctx); err != nil {
		fmt.Fprintf(p.Stderr, "slash-sandbox %s: %v\n", name, err)
		if _, ok := err.(usageError); ok {
			return 2
		}
		return 1
	}
	return 0
}

// interleave moves flags after positional arguments to the front, so both
// "clock advance 36h --json" and "clock --json advance 36h" work.
func interleave(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--json" || a == "-json":
			flags = append(flags, a)
		case strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && i+1 < len(args):
			flags = append(flags, a, args[i+1])
			i++
		case strings.HasPrefix(a, "-"):
			flags = append(flags, a)
		default:
			pos = append(pos, a)
		}
	}
	return append(flags, pos...)
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

type usageError string

func (u usageError) Error() string { return string(u) }

// show prints the last response's JSON as it came, or a table.
func (cl *cli) show(table func(w *tabwriter.Writer)) error {
	if cl.json {
		var v any
		if err := json.Unmarshal(cl.last, &v); err != nil {
			return err
		}
		enc := json.NewEncoder(cl.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	tw := tabwriter.NewWriter(cl.stdout, 2, 4, 2, ' ', 0)
	table(tw)
	return tw.Flush()
}

func (cl *cli) health(ctx context.Context) error {
	h, err := cl.c.Health(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		if h.World == "" { // asked without the admin token the server requires
			fmt.Fprintf(w, "status\t%s\nversion\t%s\n", h.Status, h.Version)
			return
		}
		fmt.Fprintf(w, "status\t%s\nworld\t%s\nscenario\t%s\nseed\t%d\nclock\t%s (%s)\n", h.Status, h.World, h.Scenario, h.Seed, h.Clock.Now.Format(time.RFC3339), h.Clock.Mode)
	})
}

func (cl *cli) clock(ctx context.Context) error {
	switch {
	case len(cl.args) == 0 || cl.args[0] == "show":
		c, err := cl.c.Clock(ctx)
		if err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) {
			fmt.Fprintf(w, "now\t%s\nmode\t%s\nstart\t%s\n", c.Now.Format(time.RFC3339), c.Mode, c.Start.Format(time.RFC3339))
			if c.NextEventAt != nil {
				fmt.Fprintf(w, "next event\t%s\n", c.NextEventAt.Format(time.RFC3339))
			}
		})
	case cl.args[0] == "advance" && len(cl.args) == 2:
		advance := cl.c.Advance
		if cl.args[1] == "next" || strings.Contains(cl.args[1], "T") {
			advance = cl.c.AdvanceTo
		}
		a, err := advance(ctx, cl.args[1])
		if err != nil {
			return err
		}
		return cl.show(func(w *tabwriter.Writer) {
			fmt.Fprintf(w, "clock\t%s → %s\t%d events ran\n", a.From.Format(time.RFC3339), a.Clock.Now.Format(time.RFC3339), len(a.Events))
			for _, e := range a.Events {
				fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", e.At.Format(time.RFC3339), e.Kind, e.Status, firstOf(e.Summary, e.Error))
			}
		})
	}
	return usageError("usage: slash-sandbox clock [show | advance DURATION | advance RFC3339 | advance next]")
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (cl *cli) reset(ctx context.Context) error {
	if err := cl.c.Reset(ctx); err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) { fmt.Fprintln(w, "reset to the scenario's start") })
}

func (cl *cli) keys(ctx context.Context) error {
	keys, err := cl.c.Keys(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "KEY\tKIND\tREAD-ONLY\tLEGAL ENTITIES\tNAME")
		for _, k := range keys {
			fmt.Fprintf(w, "%s\t%s\t%v\t%s\t%s\n", k.Key, k.Kind, k.ReadOnly, strings.Join(k.LegalEntityIDs, ","), k.Name)
		}
	})
}

func (cl *cli) events(ctx context.Context) error {
	status := "scheduled"
	if len(cl.args) > 0 {
		status = cl.args[0]
	}
	events, err := cl.c.Events(ctx, status)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "AT\tKIND\tSTATUS\tSUMMARY")
		for _, e := range events {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", e.At.Format(time.RFC3339), e.Kind, e.Status, firstOf(e.Summary, e.Error))
		}
	})
}
