package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

// explain adds to a failed call what to do about it: where a sandbox that
// is not answering was looked for and how to start one, and which flag
// carries the control API's token when the sandbox refuses the one sent.
func (cl *cli) explain(err error) error {
	var ce *client.Error
	var ue *url.Error
	switch {
	case errors.As(err, &ce) && ce.Status == http.StatusUnauthorized:
		if cl.token == "" {
			return fmt.Errorf("%w; this sandbox requires its control API token: give it with --admin-token "+
				"or SANDBOX_ADMIN_TOKEN", err)
		}
		return fmt.Errorf("%w; the token --admin-token (or SANDBOX_ADMIN_TOKEN) gave is not this sandbox's", err)
	case errors.As(err, &ue) && isDial(ue.Err):
		return fmt.Errorf("%s (%s) is not answering: %w; %s", cl.server, cl.serverSource(), ue.Err, startHint)
	}
	return err
}

// startHint says how to reach a sandbox, or start one.
const startHint = "start one with 'slash-sandbox serve' (or 'go run ./cmd/slash-sandbox'), " +
	"or point --server (or SANDBOX_SERVER) at the one running"

// serverSource names where the address the commands talk to came from.
func (cl *cli) serverSource() string {
	switch {
	case cl.serverFlag:
		return "--server"
	case cl.getenv("SANDBOX_SERVER") != "":
		return "SANDBOX_SERVER"
	case cl.getenv("SANDBOX_ADDR") != "":
		return "from SANDBOX_ADDR"
	}
	return "the default"
}

// isDial reports whether err is a failure to connect at all.
func isDial(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
