package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/spf13/cobra"
)

// cli is what the commands for a running sandbox share: the global flags
// and, once a command runs, the client they make.
type cli struct {
	// server, world and token are the global flags; json asks for the
	// control API's JSON instead of a table.
	server, world, token string
	json                 bool
	// serverFlag is whether --server was given.
	serverFlag     bool
	c              *client.Client
	stdout, stderr io.Writer
	getenv         func(string) string
	// ready, when set, is told a listen's endpoint once it is registered.
	ready func(string)
	// last is the body of the last response, which --json prints.
	last []byte
}

// globalFlags are the flags every command takes, before or after its name.
func (cl *cli) globalFlags(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringVar(&cl.server, "server", defaultServer(cl.getenv),
		"sandbox address (SANDBOX_SERVER); without either, the address SANDBOX_ADDR names")
	pf.StringVar(&cl.world, "world", cl.getenv("SANDBOX_WORLD"),
		"world to act on (SANDBOX_WORLD); default the server's default world")
	pf.StringVar(&cl.token, "admin-token", cl.getenv("SANDBOX_ADMIN_TOKEN"),
		"control API token: serve requires it, the other commands send it (SANDBOX_ADMIN_TOKEN)")
	pf.BoolVar(&cl.json, "json", false, "print the control API's JSON instead of a table")
	root.RegisterFlagCompletionFunc("world", cl.complete(cl.worldIDs))
}

// defaultServer is the sandbox the commands talk to without --server:
// SANDBOX_SERVER, else the address SANDBOX_ADDR makes the sandbox listen
// on (so "slash-sandbox health" inside its container needs no flag), else
// the default listen address. "" when SANDBOX_ADDR names no reachable
// address.
func defaultServer(getenv func(string) string) string {
	if s := getenv("SANDBOX_SERVER"); s != "" {
		return s
	}
	addr := envOr(getenv, "SANDBOX_ADDR", "127.0.0.1:8080")
	u, err := serverOf(addr)
	if err != nil {
		return ""
	}
	return u
}

// serverOf is the URL that reaches a listen address: a wildcard host
// (0.0.0.0, ::, none) is reached on loopback.
func serverOf(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return "", fmt.Errorf("SANDBOX_ADDR %q names no fixed port to reach: give --server URL (or SANDBOX_SERVER)", addr)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// connect makes the client of the global flags.
func (cl *cli) connect() error {
	if cl.server == "" {
		if _, err := serverOf(cl.getenv("SANDBOX_ADDR")); err != nil {
			return usageError(err.Error())
		}
		return usageError("--server is empty: give the sandbox's URL, e.g. http://127.0.0.1:8080")
	}
	if !strings.HasPrefix(cl.server, "http://") && !strings.HasPrefix(cl.server, "https://") {
		return usageError(fmt.Sprintf("--server %q is not an http:// or https:// URL", cl.server))
	}
	cl.c = client.New(cl.server)
	cl.c.World, cl.c.AdminToken = cl.world, cl.token
	cl.c.Received = func(_, _ string, _ int, body []byte) { cl.last = body }
	return nil
}

// run is the RunE of a command for a running sandbox.
func (cl *cli) run(f func(ctx context.Context, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		cl.serverFlag = cmd.Flags().Changed("server")
		if err := cl.connect(); err != nil {
			return err
		}
		return cl.explain(f(cmd.Context(), args))
	}
}

// complete completes an argument or flag with what the sandbox lists.
func (cl *cli) complete(list func(context.Context) ([]string, error)) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if cl.connect() != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names, err := list(cmd.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		var out []cobra.Completion
		for _, n := range names {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// group is a command with subcommands that, named alone, runs the first
// (as "clock" runs "clock show").
func group(use, short string, first *cobra.Command, more ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   use,
		Short: short + " (alone: " + use + " " + first.Name() + ")",
		Args:  cobra.NoArgs,
		RunE:  first.RunE,
	}
	c.AddCommand(append([]*cobra.Command{first}, more...)...)
	return c
}

func column[T any](items []T, f func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

// show prints the last response's JSON as it came, or a table.
func (cl *cli) show(table func(w *tabwriter.Writer)) error {
	if cl.json {
		var v any
		if err := json.Unmarshal(cl.last, &v); err != nil {
			return err
		}
		return cl.printJSON(v)
	}
	tw := tabwriter.NewWriter(cl.stdout, 2, 4, 2, ' ', 0)
	table(tw)
	return tw.Flush()
}

func (cl *cli) printJSON(v any) error {
	enc := json.NewEncoder(cl.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func (cl *cli) resetCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "reset",
		Short: "Put the world back to its scenario's start",
		Args:  cobra.NoArgs,
		RunE: cl.run(func(ctx context.Context, _ []string) error {
			if err := cl.c.Reset(ctx); err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) { fmt.Fprintln(w, "reset to the scenario's start") })
		}),
	}
}

func (cl *cli) keysCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "keys",
		Short: "List the world's API keys",
		Args:  cobra.NoArgs,
		RunE: cl.run(func(ctx context.Context, _ []string) error {
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
		}),
	}
}

func (cl *cli) eventsCommand() *cobra.Command {
	return &cobra.Command{
		Use:       "events [scheduled | done]",
		Short:     "List the world's scheduled events (default) or those that ran",
		Args:      cobra.MatchAll(cobra.MaximumNArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []cobra.Completion{"scheduled", "done"},
		RunE: cl.run(func(ctx context.Context, args []string) error {
			status := "scheduled"
			if len(args) > 0 {
				status = args[0]
			}
			events, err := cl.c.Events(ctx, status)
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) {
				fmt.Fprintln(w, "AT\tKIND\tSTATUS\tSUMMARY")
				for _, e := range events {
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", e.At.Format(time.RFC3339), e.Kind, e.Status, summaryOf(e))
				}
			})
		}),
	}
}

// summaryOf says what an event is about: the summary it ran with, its
// error, else what its payload names (a scheduled event has not run yet).
func summaryOf(e client.Event) string {
	if s := firstOf(e.Summary, e.Error); s != "" {
		return s
	}
	var payload map[string]any
	if json.Unmarshal(e.Payload, &payload) != nil {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(payload)) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, payload[k]))
	}
	return strings.Join(parts, " ")
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
