package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/dustin/go-humanize/english"
	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/spf13/cobra"
)

func (cl *cli) clockCommand() *cobra.Command {
	return group("clock", "Show the world's virtual clock, or advance it", &cobra.Command{
		Use:   "show",
		Short: "Show the virtual clock and when the next event is due",
		Args:  cobra.NoArgs,
		RunE:  cl.run(cl.clockShow),
	}, &cobra.Command{
		Use:   "advance DURATION | DATE | RFC3339 | next",
		Short: "Advance the clock, running every event due on the way",
		Long: `Advance the clock by a duration (36h, 3d, 1w), to a day (2026-07-01, its midnight UTC), to an
instant (RFC 3339) or to the next scheduled event, running every event due on the way at its own
instant. Prints the new clock and how many events ran, by kind, and the webhook deliveries still
pending when the advance answered; --json prints the control API's whole answer, each event in it.`,
		Example: `  slash-sandbox clock advance 36h
  slash-sandbox clock advance 2026-07-01
  slash-sandbox clock advance 2026-07-01T12:00:00Z
  slash-sandbox clock advance next --json`,
		Args:      exactly("advance", "a duration (36h, 3d), a date (2026-07-01), an RFC 3339 instant or next"),
		ValidArgs: []cobra.Completion{"next"},
		RunE:      cl.run(cl.advance),
	}, cl.clockNextCommand())
}

func (cl *cli) clockNextCommand() *cobra.Command {
	var skip string
	c := &cobra.Command{
		Use:   "next",
		Short: "Advance the clock to the next business event (not a token price tick)",
		Long: `Advance the clock to the next scheduled event whose kind --skip does not name: by default
the next business event, past the token price ticks (which still run on the way). As the
dashboard's "next business event"; "clock advance next" stops at the next event of any kind.`,
		Example: `  slash-sandbox clock next
  slash-sandbox clock next --skip token_prices.tick,webhook.retry`,
		Args: cobra.NoArgs,
		RunE: cl.run(func(ctx context.Context, _ []string) error {
			a, err := cl.c.AdvanceToNext(ctx, list(skip))
			return cl.advanced(a, err)
		}),
	}
	c.Flags().StringVar(&skip, "skip", "token_prices.tick", "comma-separated event kinds that do not count as the next")
	return c
}

func (cl *cli) clockShow(ctx context.Context, _ []string) error {
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
}

func (cl *cli) advance(ctx context.Context, args []string) error {
	target := args[0]
	if _, err := time.Parse(time.DateOnly, target); err == nil {
		target += "T00:00:00Z"
	}
	advance := cl.c.Advance
	if target == "next" || strings.Contains(target, "T") {
		advance = cl.c.AdvanceTo
	}
	return cl.advanced(advance(ctx, target))
}

// advanced prints what an advance did, or why it stopped early.
func (cl *cli) advanced(a client.Advanced, err error) error {
	var ce *client.Error
	if errors.As(err, &ce) && ce.Details["clock"] != "" {
		return fmt.Errorf("%w\nthe advance stopped early: every event up to %s ran and was kept; advance again to go on",
			err, ce.Details["clock"])
	}
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) { advanceTable(w, a) })
}

// maxFailedShown is how many failed events an advance lists one by one.
const maxFailedShown = 10

// advanceTable says what an advance did: the clock's move, the webhook
// deliveries it made, how many events ran by kind, and each failed one.
func advanceTable(w *tabwriter.Writer, a client.Advanced) {
	fmt.Fprintf(w, "clock\t%s → %s\n", a.From.Format(time.RFC3339), a.Clock.Now.Format(time.RFC3339))
	if a.Clock.NextEventAt != nil {
		fmt.Fprintf(w, "next event\t%s\n", a.Clock.NextEventAt.Format(time.RFC3339))
	}
	if sent := a.Webhooks.Delivered; len(sent) > 0 {
		statuses := map[string]int{}
		for _, s := range sent {
			statuses[s.Status]++
		}
		fmt.Fprintf(w, "webhooks\t%s (%s)\n", count(len(sent), "delivery attempt"), tally(statuses))
	}
	if pending := a.Webhooks.Pending; len(pending) > 0 {
		fmt.Fprintf(w, "not settled\t%s still pending when the advance answered, going on in the background"+
			" (slash-sandbox deliveries)\n", count(len(pending), "delivery"))
		for _, p := range pending {
			fmt.Fprintf(w, "  pending\t%s %s to %s, attempt %d\n", p.DeliveryID, p.Event, p.URL, p.Attempt)
		}
	} else if !a.Webhooks.Settled {
		fmt.Fprintln(w, "not settled\tthe advance did not wait for every delivery due; slash-sandbox deliveries shows them")
	}
	fmt.Fprintf(w, "ran\t%s\n", count(len(a.Events), "event"))
	// Lines without a tab end the aligned block above.
	kinds := byKind(a.Events)
	for _, k := range kinds {
		fmt.Fprintf(w, "  %*s  %s%s\n", len(humanize.Comma(int64(kinds[0].n))), humanize.Comma(int64(k.n)), k.kind,
			k.notes())
	}
	failed := 0
	for _, e := range a.Events {
		if e.Status != "failed" {
			continue
		}
		if failed++; failed <= maxFailedShown {
			fmt.Fprintf(w, "failed %s %s: %s\n", e.At.Format(time.RFC3339), e.Kind, firstOf(e.Error, e.Summary))
		}
	}
	if failed > maxFailedShown {
		fmt.Fprintf(w, "failed … %d more (--json lists each)\n", failed-maxFailedShown)
	}
}

type kindCount struct {
	kind     string
	n        int
	statuses map[string]int
}

// notes names the statuses other than done, e.g. " (1 failed)".
func (k kindCount) notes() string {
	other := map[string]int{}
	for s, n := range k.statuses {
		if s != "done" {
			other[s] = n
		}
	}
	if len(other) == 0 {
		return ""
	}
	return " (" + tally(other) + ")"
}

// byKind counts events by kind, the most frequent first.
func byKind(events []client.Event) []kindCount {
	at := map[string]int{}
	var out []kindCount
	for _, e := range events {
		i, ok := at[e.Kind]
		if !ok {
			i = len(out)
			at[e.Kind] = i
			out = append(out, kindCount{kind: e.Kind, statuses: map[string]int{}})
		}
		out[i].n++
		out[i].statuses[e.Status]++
	}
	slices.SortStableFunc(out, func(a, b kindCount) int { return cmp.Or(b.n-a.n, strings.Compare(a.kind, b.kind)) })
	return out
}

// tally is "2 succeeded, 1 retrying", in the order of the names.
func tally(counts map[string]int) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[name], name))
	}
	return strings.Join(parts, ", ")
}

// count is "1 event", "1,204 events".
func count(n int, noun string) string {
	return humanize.Comma(int64(n)) + " " + english.PluralWord(n, noun, "")
}

// exactly accepts one argument, and says what it should be when missing.
func exactly(command, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return fmt.Errorf("%s: name %s", command, what)
		case len(args) > 1:
			return fmt.Errorf("%s: one argument, %s; got %d: %q", command, what, len(args), args)
		}
		return nil
	}
}
