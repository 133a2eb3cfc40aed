package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/spf13/cobra"
)

// How --follow waits for new requests: a long poll of the world's changes
// of at most changesPoll, and a pause of unchangedPause after a poll that
// answered without a change (a sandbox holding too many polls answers at
// once), so that it never asks in a tight loop.
const (
	changesPoll    = 25 * time.Second
	unchangedPause = time.Second
	// journalCap is how many entries the journal keeps, the most a read
	// answers.
	journalCap = 1000
)

func (cl *cli) requestsCommand() *cobra.Command {
	var limit int
	var follow bool
	c := &cobra.Command{
		Use:   "requests",
		Short: "List the world's request journal, or follow it as requests come",
		Long: `List the newest requests of the world's journal, oldest first: the time, method, path, route
name, status and latency of each (a request that matched no route shows the one it most likely
meant). With --follow it then prints each new request as it comes, until interrupted (Ctrl-C);
with --json, one JSON object a line.`,
		Example: `  slash-sandbox requests --limit 50
  slash-sandbox requests --follow`,
		Args: cobra.NoArgs,
		RunE: cl.run(func(ctx context.Context, _ []string) error {
			if limit < 1 || limit > journalCap {
				return usageError(fmt.Sprintf("--limit: %d is not between 1 and %d", limit, journalCap))
			}
			if follow {
				return cl.follow(ctx, limit)
			}
			entries, err := cl.c.Requests(ctx, limit)
			if err != nil {
				return err
			}
			if cl.json {
				return cl.show(nil)
			}
			slices.Reverse(entries)
			for _, e := range entries {
				printRequest(cl.stdout, e)
			}
			return nil
		}),
	}
	c.Flags().IntVar(&limit, "limit", 20, "how many of the newest requests to print first (1 to 1000)")
	c.Flags().BoolVarP(&follow, "follow", "f", false, "then print each new request as it comes, until interrupted")
	return c
}

// follow prints the newest limit requests, then each new one as the
// journal records it, until ctx ends: it long-polls the world's changes
// and reads the journal again each time they move.
func (cl *cli) follow(ctx context.Context, limit int) error {
	version, err := cl.c.Changes(ctx, -1, 0)
	if err != nil {
		return err
	}
	entries, err := cl.c.Requests(ctx, limit)
	if err != nil {
		return err
	}
	last := cl.printNew(entries, 0)
	if cl.ready != nil {
		cl.ready("")
	}
	for {
		v, err := cl.c.Changes(ctx, int64(version), changesPoll)
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			return err
		case v == version:
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(unchangedPause):
			}
			continue
		}
		version = v
		entries, err := cl.c.Requests(ctx, journalCap)
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		if len(entries) == journalCap && entries[len(entries)-1].Seq > last+1 {
			fmt.Fprintf(cl.stderr, "… %d requests came faster than the journal keeps them\n",
				entries[len(entries)-1].Seq-last-1)
		}
		last = cl.printNew(entries, last)
	}
}

// printNew prints the entries (newest first) after seq last, oldest first,
// and answers the newest seq printed.
func (cl *cli) printNew(entries []client.Request, last int64) int64 {
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Seq <= last {
			continue
		}
		last = e.Seq
		if cl.json {
			line, _ := json.Marshal(e)
			fmt.Fprintf(cl.stdout, "%s\n", line)
			continue
		}
		printRequest(cl.stdout, e)
	}
	return last
}

// printRequest prints a journal entry on one line.
func printRequest(w io.Writer, e client.Request) {
	route := e.Route
	if e.Hint != "" {
		route += " (meant " + e.Hint + "?)"
	}
	fmt.Fprintf(w, "%s  %-6s %-40s %d  %-28s %.1fms\n", e.At.Local().Format(time.TimeOnly), e.Method, e.Path,
		e.Status, route, e.LatencyMs)
}
