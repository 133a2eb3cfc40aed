package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/spf13/cobra"
)

func (cl *cli) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, and the revision the binary was built from (also --version)",
		Long: `Print the version as the running sandbox reports it (GET /_sandbox/health), then what the
Go toolchain recorded: the module version ("(devel)" for go run and test builds), the version
control revision, whether the checkout had changes and the commit's time, when recorded.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			b := server.ReadBuild()
			if cl.json {
				return cl.printJSON(struct {
					server.Build
					Reported string `json:"reported"`
				}{b, server.Version})
			}
			fmt.Fprintf(cl.stdout, "slash-sandbox %s\n", server.Version)
			w := tabwriter.NewWriter(cl.stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintf(w, "module\t%s\nversion\t%s\n", b.Module, b.Version)
			if b.Revision != "" {
				fmt.Fprintf(w, "revision\t%s\nmodified\t%v\n", b.Revision, b.Modified)
			}
			if b.Time != "" {
				fmt.Fprintf(w, "commit time\t%s\n", b.Time)
			}
			fmt.Fprintf(w, "go\t%s\n", b.Go)
			return w.Flush()
		},
	}
}
