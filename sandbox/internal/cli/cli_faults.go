package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/spf13/cobra"
)

func (cl *cli) faultsCommand() *cobra.Command {
	return group("faults", "List the faults injected into public routes, add or clear them", &cobra.Command{
		Use:   "list",
		Short: "List the world's faults",
		Args:  cobra.NoArgs,
		RunE:  cl.run(cl.faultsList),
	}, cl.faultsAddCommand(), &cobra.Command{
		Use:   "clear [ID]",
		Short: "Remove one fault, or every fault of the world",
		Args:  cobra.MaximumNArgs(1),
		ValidArgsFunction: cl.complete(func(ctx context.Context) ([]string, error) {
			faults, err := cl.c.Faults(ctx)
			return column(faults, func(f client.Fault) string { return f.ID }), err
		}),
		RunE: cl.run(func(ctx context.Context, args []string) error {
			if len(args) == 1 {
				if err := cl.c.DeleteFault(ctx, args[0]); err != nil {
					return err
				}
				return cl.show(func(w *tabwriter.Writer) { fmt.Fprintf(w, "cleared %s\n", args[0]) })
			}
			n, err := cl.c.ClearFaults(ctx)
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) { fmt.Fprintf(w, "cleared %s\n", count(n, "fault")) })
		}),
	})
}

func (cl *cli) faultsList(ctx context.Context, _ []string) error {
	faults, err := cl.c.Faults(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "ID\tROUTE\tFAULT\tCALLS\tHITS")
		for _, f := range faults {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", f.ID, f.Route, faultOf(f), callsOf(f), humanize.Comma(int64(f.Hits)))
		}
	})
}

// faultOf says what a fault does to a call: "503", "drop", "503 after 2s".
func faultOf(f client.Fault) string {
	var parts []string
	if f.Drop {
		parts = append(parts, "drop")
	} else if f.Status != 0 {
		parts = append(parts, fmt.Sprint(f.Status))
	}
	if f.LatencyMs > 0 {
		parts = append(parts, "after "+(time.Duration(f.LatencyMs)*time.Millisecond).String())
	}
	return strings.Join(parts, " ")
}

// callsOf says which calls a fault meets: "2 of 3 left", "25%", "every".
func callsOf(f client.Fault) string {
	switch {
	case f.Count > 0:
		return fmt.Sprintf("%d of %d left", f.Remaining, f.Count)
	case f.Probability > 0:
		return strconv.FormatFloat(f.Probability*100, 'f', -1, 64) + "%"
	}
	return "every"
}

func (cl *cli) faultsAddCommand() *cobra.Command {
	var f client.Fault
	var latency time.Duration
	c := &cobra.Command{
		Use:   "add ROUTE",
		Short: "Make calls of a public route (* for every one) fail",
		Long: `Make calls of a public route fail: answer --status in the route's error envelope, wait
--latency first, or --drop the connection; the next --count calls, each call with --probability,
or every call. ROUTE is a public route's name (docs/coverage.md lists them) or * for every one.`,
		Example: `  slash-sandbox faults add card.create --status 503 --count 2
  slash-sandbox faults add '*' --latency 2s --probability 0.1`,
		Args: exactly("add", "a public route's name, such as card.create, or *"),
		RunE: cl.run(func(ctx context.Context, args []string) error {
			f.Route, f.LatencyMs = args[0], int(latency/time.Millisecond)
			if f.Status == 0 && f.LatencyMs == 0 && !f.Drop {
				return usageError("add: say what the fault does: --status, --latency or --drop")
			}
			added, err := cl.c.AddFault(ctx, f)
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) {
				fmt.Fprintf(w, "fault\t%s\nroute\t%s\ndoes\t%s\ncalls\t%s\n", added.ID, added.Route, faultOf(added),
					callsOf(added))
			})
		}),
	}
	c.Flags().IntVar(&f.Status, "status", 0, "status to answer: 400, 401, 403, 404, 409, 429, 500, 502, 503 or 504")
	c.Flags().DurationVar(&latency, "latency", 0, "how long to wait before answering (up to 60s)")
	c.Flags().BoolVar(&f.Drop, "drop", false, "close the connection without an answer")
	c.Flags().IntVar(&f.Count, "count", 0, "how many calls fail; default every call")
	c.Flags().Float64Var(&f.Probability, "probability", 0, "the chance, 0 to 1, that each call fails (seeded)")
	return c
}

func (cl *cli) agentRequestsCommand() *cobra.Command {
	decide := func(verb string, approve bool) *cobra.Command {
		return &cobra.Command{
			Use:               verb + " ID",
			Short:             strings.ToUpper(verb[:1]) + verb[1:] + " an agent request waiting for a decision",
			Args:              exactly(verb, "the agent request's id"),
			ValidArgsFunction: cl.complete(cl.agentRequestIDs),
			RunE: cl.run(func(ctx context.Context, args []string) error {
				ar, err := cl.c.DecideAgentRequest(ctx, args[0], approve)
				if err != nil {
					return err
				}
				return cl.show(func(w *tabwriter.Writer) {
					fmt.Fprintf(w, "%s\t%s\n%s\t%s\n", ar.ID, ar.Status, ar.Operation, ar.Display.Title)
				})
			}),
		}
	}
	return group("agent-requests", "List the agents' requests waiting for a person, approve or reject one",
		&cobra.Command{
			Use:   "list",
			Short: "List the world's agent requests",
			Args:  cobra.NoArgs,
			RunE:  cl.run(cl.agentRequestsList),
		}, decide("approve", true), decide("reject", false))
}

func (cl *cli) agentRequestIDs(ctx context.Context) ([]string, error) {
	ars, err := cl.c.AgentRequests(ctx)
	return column(ars, func(a client.AgentRequest) string { return a.ID }), err
}

func (cl *cli) agentRequestsList(ctx context.Context, _ []string) error {
	ars, err := cl.c.AgentRequests(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "ID\tSTATUS\tOPERATION\tCREATED\tEXPIRES\tTITLE")
		for _, a := range ars {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.Status, a.Operation, a.CreatedAt.Format(time.RFC3339),
				a.ExpiresAt.Format(time.RFC3339), a.Display.Title)
		}
	})
}
