package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/spf13/cobra"
)

func (cl *cli) triggerCommand() *cobra.Command {
	var tr client.EventTrigger
	c := &cobra.Command{
		Use:   "trigger EVENT",
		Short: "Make the world raise a webhook event through a real action",
		Long: `Make the world raise a webhook event by doing what raises it (issuing a card, a purchase,
an expense report…), so every endpoint of the legal entity receives it as in real use.
Events: ` + strings.Join(client.WebhookEventTypes, ", "),
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(
					"usage: slash-sandbox trigger EVENT [--entity ID] [--legal-entity ID]; events: " + strings.Join(
						client.WebhookEventTypes,
						", ",
					),
				)
			}
			return nil
		},
		ValidArgs: client.WebhookEventTypes,
		RunE: cl.run(func(ctx context.Context, args []string) error {
			tr.Event = args[0]
			done, err := cl.c.TriggerEvent(ctx, tr)
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) { printTriggered(w, done) })
		}),
	}
	c.Flags().StringVar(&tr.EntityID, "entity", "", "the entity to act on; by default the trigger makes what it needs")
	c.Flags().
		StringVar(&tr.LegalEntityID, "legal-entity", "", "the legal entity to act for; by default the entity's, else the"+
			" first of the first key that may write")
	return c
}

// printTriggered shows what a trigger did: the actions, the events they
// raised and the deliveries queued.
func printTriggered(w io.Writer, tr client.Triggered) {
	fmt.Fprintf(w, "event\t%s\t%s\nentity\t%s\nlegal entity\t%s\n", tr.Event, tr.EventID, tr.EntityID, tr.LegalEntityID)
	for _, a := range tr.Actions {
		fmt.Fprintf(w, "did\t%s\n", a)
	}
	for _, e := range tr.Events {
		fmt.Fprintf(w, "raised\t%s\t%s\t%s\n", e.Event, e.EventID, e.EntityID)
	}
	for _, d := range tr.Deliveries {
		fmt.Fprintf(w, "queued\t%s\t%s to %s\t%s\n", d.ID, d.Event, d.WebhookID, d.Status)
	}
	if len(tr.Deliveries) == 0 {
		fmt.Fprintf(w, "queued\tnothing: %s has no endpoint\n", tr.LegalEntityID)
	}
}

func (cl *cli) listenCommand() *cobra.Command {
	var o listenOptions
	var events string
	c := &cobra.Command{
		Use:   "listen --forward-to URL",
		Short: "Receive the world's webhook deliveries and forward them to your app",
		Long: `Register a temporary webhook endpoint that receives the world's deliveries on this machine,
forward each to --forward-to with its body and signature headers unchanged, answer the sandbox
with your app's status, and print a line per delivery. The endpoint is archived on exit.`,
		Args: cobra.NoArgs,
		RunE: cl.run(func(ctx context.Context, _ []string) error {
			if cl.json {
				return usageError("listen prints a line per delivery; it has no --json")
			}
			o.Events = list(events)
			o.ready = cl.ready
			return listen(ctx, cl.c, o, cl.stdout, cl.stderr)
		}),
	}
	c.Flags().
		StringVar(&o.ForwardTo, "forward-to", "", "URL every delivery is forwarded to, such as http://localhost:3000/hooks")
	c.Flags().StringVar(&events, "events", "", "comma-separated event types to forward; by default all")
	c.Flags().
		StringVar(&o.ListenAddr, "listen-addr", "127.0.0.1:0", "address the receiver binds; the sandbox must reach it")
	c.Flags().
		StringVar(&o.PublicURL, "public-url", "", "URL the endpoint is registered with; by default the receiver's address")
	c.Flags().
		StringVar(&o.LegalEntity, "legal-entity", "", "legal entity whose events are received; by default the one trigger"+
			" acts for")
	return c
}
