package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/spf13/cobra"
)

func (cl *cli) healthCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "health",
		Short: "Check that the sandbox answers and is healthy",
		Long: `Check that the sandbox answers and is healthy: exit 0 when it is, 1 with a one-line reason
when not (nothing listening, an answer other than 2xx, a status other than ok).
Without --server or SANDBOX_SERVER it checks the address SANDBOX_ADDR names, a wildcard host
reached on loopback (0.0.0.0:8080 → http://127.0.0.1:8080), so it serves as a container's
HEALTHCHECK.`,
		Args: cobra.NoArgs,
		RunE: cl.run(func(ctx context.Context, _ []string) error {
			h, err := cl.c.Health(ctx)
			if err != nil {
				return cl.unreachable(err)
			}
			if err := cl.show(func(w *tabwriter.Writer) { healthTable(w, h) }); err != nil {
				return err
			}
			if h.Status != "ok" {
				return fmt.Errorf("%s answers status %q", cl.server, h.Status)
			}
			return nil
		}),
	}
}

// healthTable prints what the health check answered: only status and
// version when that is all it shows.
func healthTable(w *tabwriter.Writer, h client.Health) {
	fmt.Fprintf(w, "status\t%s\nversion\t%s\n", h.Status, h.Version)
	if h.World != "" {
		fmt.Fprintf(w, "world\t%s\nscenario\t%s\nseed\t%d\nclock\t%s (%s)\nworlds\t%d\nvault\t%s\n",
			h.World, h.Scenario, h.Seed, h.Clock.Now.Format(time.RFC3339), h.Clock.Mode, h.Worlds, h.VaultURL)
	}
}

// unreachable says on one line why the sandbox did not answer well.
func (cl *cli) unreachable(err error) error {
	var ce *client.Error
	var ue *url.Error
	switch {
	case errors.As(err, &ce):
		return fmt.Errorf("%s answered %d %s: %s", cl.server, ce.Status, ce.Code,
			strings.Join(strings.Fields(ce.Message), " "))
	case errors.As(err, &ue) && isDial(ue.Err):
		return err // explain says how to start one
	case errors.As(err, &ue):
		return fmt.Errorf("%s is not answering: %w", cl.server, ue.Err)
	}
	return fmt.Errorf("%s: %w", cl.server, err)
}
