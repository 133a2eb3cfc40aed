package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

func (cl *cli) trigger(ctx context.Context) error {
	if len(cl.args) != 1 {
		return usageError("usage: slash-sandbox trigger EVENT [--entity ID] [--legal-entity ID]\n  events: " + strings.Join(client.WebhookEventTypes, ", "))
	}
	tr, err := cl.c.TriggerEvent(ctx, client.EventTrigger{Event: cl.args[0], EntityID: cl.entity, LegalEntityID: cl.legalEntity})
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) { printTriggered(w, tr) })
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

func (cl *cli) listenCommand(ctx context.Context) error {
	if len(cl.args) != 0 || cl.json {
		return usageError("usage: slash-sandbox listen --forward-to URL [--events a,b] [--listen-addr HOST:PORT] [--public-url URL] [--legal-entity ID]")
	}
	cl.listen.Events = list(cl.eventTypes)
	cl.listen.ready = cl.p.Ready
	return listen(ctx, cl.c, cl.listen, cl.stdout, cl.stderr)
}
