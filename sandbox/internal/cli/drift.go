package cli

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/drift"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parts"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/spf13/cobra"
)

// notRun is a command that could not do its work for a reason outside the
// command line (a service unreachable, a key refused): exit 2, the reason
// on stderr.
type notRun struct{ reason string }

func (e notRun) Error() string { return e.reason }

func (cl *cli) driftCommand() *cobra.Command {
	o := drift.Options{}
	c := &cobra.Command{
		Use:   "drift --against URL --api-key KEY",
		Short: "Report where a live Slash API answers differently from the sandbox",
		Long: `Probe a live service read-only (GET requests only) and check every answer against the
sandbox's contract: its OpenAPI document read strictly (unknown properties, unknown enum values,
missing required properties, other JSON types, dates) and the status and error envelope of the
requests the sandbox refuses (an unknown id: 404; a filter value outside its set: 400). Every GET
operation of the document that the real service has is read, following up to --max-ids ids of
each list; operations an API key cannot call are listed as skipped.

Prints a table of differences (or, with --json, a report for CI) and exits 0 with none, 1 with
some, 2 when it could not run (a bad URL, the service unreachable, the key refused). A 429 is
waited out as its Retry-After says (up to --max-wait); --max-requests and --timeout bound the run,
and a run they stop says so.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Against == "" || o.APIKey == "" {
				return usageError("drift needs --against URL and --api-key KEY")
			}
			return cl.drift(cmd.Context(), o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.Against, "against", "", "base URL of the service to probe, e.g. https://api.slash.com")
	f.StringVar(&o.APIKey, "api-key", cl.getenv("SLASH_API_KEY"), "API key to read with; a read-only key is enough "+
		"(SLASH_API_KEY)")
	f.StringVar(&o.LegalEntity, "legal-entity", "", "legal entity to act for (x-legal-entity); default the first "+
		"GET /legal-entity lists")
	f.IntVar(&o.MaxIDs, "max-ids", 3, "ids of each list followed")
	f.IntVar(&o.MaxRequests, "max-requests", 500, "most requests sent")
	f.DurationVar(&o.Timeout, "timeout", 5*time.Minute, "longest the whole run may take")
	f.DurationVar(&o.MaxWait, "max-wait", time.Minute, "longest Retry-After of a 429 waited out")
	return c
}

// drift runs the probe and prints its report.
func (cl *cli) drift(ctx context.Context, o drift.Options) error {
	doc, err := server.Document(parts.All(server.Config{}))
	if err != nil {
		return err
	}
	o.UserAgent = "slash-sandbox-drift/" + server.Version
	rep, err := drift.Run(ctx, doc, o)
	var cannot *drift.Error
	if errors.As(err, &cannot) {
		return notRun{"could not run: " + cannot.Reason}
	}
	if err != nil {
		return err
	}
	if cl.json {
		enc := json.NewEncoder(cl.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = rep.WriteTable(cl.stdout)
	}
	if err != nil {
		return err
	}
	if len(rep.Differences) > 0 {
		return errReported
	}
	return nil
}
