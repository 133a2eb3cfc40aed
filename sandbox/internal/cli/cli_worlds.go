package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/spf13/cobra"
)

func (cl *cli) worldsCommand() *cobra.Command {
	return group("worlds", "List the sandbox's worlds, create, export or delete one", &cobra.Command{
		Use:   "list",
		Short: "List the sandbox's worlds",
		Args:  cobra.NoArgs,
		RunE:  cl.run(cl.worldsList),
	}, cl.worldsCreateCommand(), cl.worldsExportCommand(), &cobra.Command{
		Use:               "delete ID",
		Short:             "Delete a world",
		Args:              exactly("delete", "the world's id"),
		ValidArgsFunction: cl.complete(cl.worldIDs),
		RunE: cl.run(func(ctx context.Context, args []string) error {
			if err := cl.c.DeleteWorld(ctx, args[0]); err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) { fmt.Fprintf(w, "deleted world %s\n", args[0]) })
		}),
	})
}

func (cl *cli) worldIDs(ctx context.Context) ([]string, error) {
	worlds, err := cl.c.Worlds(ctx)
	return column(worlds, func(w client.World) string { return w.ID }), err
}

func (cl *cli) worldsList(ctx context.Context, _ []string) error {
	worlds, err := cl.c.Worlds(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "ID\tSCENARIO\tSEED\tCLOCK\tKEYS")
		for _, wd := range worlds {
			fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%d\n", wd.ID, wd.Scenario, wd.Seed, wd.Clock.Now.Format(time.RFC3339), len(wd.Keys))
		}
	})
}

func (cl *cli) worldsCreateCommand() *cobra.Command {
	var nw client.NewWorld
	var seed int64
	c := &cobra.Command{
		Use:   "create SCENARIO",
		Short: "Create an isolated world of a scenario, with its own keys",
		Long: `Create an isolated world of a scenario: an embedded name (or a file of the server's
--scenarios-dir), or a YAML file on this machine, which the command reads and sends inline.
Prints the world's id, clock and keys.`,
		Example: `  slash-sandbox worlds create demo --ttl 10m
  slash-sandbox worlds create ./mine.yaml --id mine`,
		Args: func(_ *cobra.Command, args []string) error {
			for _, a := range args {
				if k, v, ok := strings.Cut(a, "="); ok && k != "" && !strings.ContainsRune(k, os.PathSeparator) {
					return fmt.Errorf("create: %q: options are flags, give it as --%s %s", a, flagOf(k), v)
				}
			}
			return exactly("create", "a scenario: an embedded name or a YAML file")(nil, args)
		},
		RunE: cl.run(func(ctx context.Context, args []string) error {
			w, err := newWorldOf(args[0])
			if ps, ok := scenario.AsProblems(err); ok {
				for _, pr := range ps {
					fmt.Fprintln(cl.stderr, pr.String())
				}
				return errReported
			}
			if err != nil {
				return err
			}
			w.ID, w.TTL, w.ClockStart = nw.ID, nw.TTL, nw.ClockStart
			if nw.Seed != nil {
				w.Seed = &seed
			}
			wd, err := cl.c.CreateWorld(ctx, w)
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) {
				fmt.Fprintf(w, "world\t%s\nscenario\t%s\nclock\t%s\n", wd.ID, wd.Scenario, wd.Clock.Now.Format(time.RFC3339))
				for _, k := range wd.Keys {
					fmt.Fprintf(w, "key\t%s\t%s\t%s\n", k.Key, k.Kind, strings.Join(k.LegalEntityIDs, ","))
				}
			})
		}),
	}
	c.Flags().StringVar(&nw.ID, "id", "", "the world's id; default a generated one")
	c.Flags().StringVar(&nw.TTL, "ttl", "", "delete the world after this long without a request (10m, 2h)")
	c.Flags().StringVar(&nw.ClockStart, "clock-start", "", "the world's clock start, RFC 3339; default the scenario's")
	c.Flags().Int64Var(&seed, "seed", 0, "seed of every generated value; default the scenario's")
	c.PreRun = func(cmd *cobra.Command, _ []string) {
		if cmd.Flags().Changed("seed") {
			nw.Seed = &seed
		}
	}
	return c
}

func (cl *cli) worldsExportCommand() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "export [ID]",
		Short: "Write a world as a scenario file",
		Long: `Write a world (the default one without ID) as a scenario that loads into a world answering
every public GET the same, ids included, at the same clock: every record written explicitly.
Prints it, or writes it to --out: whole or not at all.`,
		Example: `  slash-sandbox worlds export > world.yaml
  slash-sandbox worlds export w1 --out w1.yaml`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: cl.complete(cl.worldIDs),
		RunE: cl.run(func(ctx context.Context, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			file, err := cl.c.ExportWorld(ctx, id)
			if err != nil {
				return err
			}
			if out == "" {
				_, err := cl.stdout.Write(file)
				return err
			}
			if err := writeAtomically(out, file); err != nil {
				return err
			}
			fmt.Fprintf(cl.stderr, "wrote %s (%s)\n", out, humanize.IBytes(uint64(len(file))))
			return nil
		}),
	}
	c.Flags().StringVar(&out, "out", "", "the file to write; default standard output")
	return c
}

// writeAtomically writes data to a new file beside path and renames it to
// path: path holds the whole data or what it held before, never a part.
func writeAtomically(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// flagOf is the flag of an option given the older way, "clockStart=…".
func flagOf(option string) string {
	if option == "clockStart" {
		return "clock-start"
	}
	return option
}

func (cl *cli) snapshotsCommand() *cobra.Command {
	return group("snapshots", "List the snapshots, save or restore one", &cobra.Command{
		Use:   "list",
		Short: "List the snapshots of every world",
		Args:  cobra.NoArgs,
		RunE:  cl.run(cl.snapshotsList),
	}, &cobra.Command{
		Use:   "create [LABEL...]",
		Short: "Save the world's state, under a label",
		RunE: cl.run(func(ctx context.Context, args []string) error {
			s, err := cl.c.CreateSnapshot(ctx, strings.Join(args, " "))
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) {
				fmt.Fprintf(w, "id\t%s\nworld\t%s\nscenario\t%s\nseed\t%d\nclock\t%s\nlabel\t%s\nsize\t%s\n",
					s.ID, s.World, s.Scenario, s.Seed, s.Clock.Format(time.RFC3339), s.Label, humanize.IBytes(uint64(s.Size)))
			})
		}),
	}, &cobra.Command{
		Use:   "restore ID",
		Short: "Put the world into a snapshot's state",
		Args:  exactly("restore", "the snapshot's id"),
		ValidArgsFunction: cl.complete(func(ctx context.Context) ([]string, error) {
			snaps, err := cl.c.Snapshots(ctx)
			return column(snaps, func(s client.Snapshot) string { return s.ID }), err
		}),
		RunE: cl.run(func(ctx context.Context, args []string) error {
			if err := cl.c.Restore(ctx, args[0]); err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) { fmt.Fprintf(w, "restored %s\n", args[0]) })
		}),
	})
}

func (cl *cli) snapshotsList(ctx context.Context, _ []string) error {
	snaps, err := cl.c.Snapshots(ctx)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintln(w, "ID\tWORLD\tSCENARIO\tCLOCK\tLABEL\tSIZE")
		for _, s := range snaps {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.World, s.Scenario, s.Clock.Format(time.RFC3339), s.Label,
				humanize.IBytes(uint64(s.Size)))
		}
	})
}

func (cl *cli) outboxCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "outbox [MESSAGE_ID]",
		Short: "List the emails the sandbox would have sent, or show one",
		Args:  cobra.MaximumNArgs(1),
		ValidArgsFunction: cl.complete(func(ctx context.Context) ([]string, error) {
			messages, err := cl.c.Outbox(ctx)
			return column(messages, func(m client.Message) string { return m.ID }), err
		}),
		RunE: cl.run(func(ctx context.Context, args []string) error {
			if len(args) == 1 {
				return cl.message(ctx, args[0])
			}
			messages, err := cl.c.Outbox(ctx)
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) {
				fmt.Fprintln(w, "ID\tCREATED\tTO\tSUBJECT")
				for _, m := range messages {
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", m.ID, m.CreatedAt.Format(time.RFC3339), strings.Join(m.To, ","), m.Subject)
				}
			})
		}),
	}
}

func (cl *cli) message(ctx context.Context, id string) error {
	m, err := cl.c.Message(ctx, id)
	if err != nil {
		return err
	}
	return cl.show(func(w *tabwriter.Writer) {
		fmt.Fprintf(w, "id\t%s\nkind\t%s\ncreated\t%s\nto\t%s\ncc\t%s\nsubject\t%s\n",
			m.ID, m.Kind, m.CreatedAt.Format(time.RFC3339), strings.Join(m.To, ","), strings.Join(m.CC, ","), m.Subject)
		if m.RelatedID != "" {
			fmt.Fprintf(w, "related\t%s\n", m.RelatedID)
		}
		for _, name := range slices.Sorted(maps.Keys(m.Links)) {
			fmt.Fprintf(w, "link %s\t%s\n", name, m.Links[name])
		}
		fmt.Fprintf(w, "\n%s\n", m.Text)
	})
}

func (cl *cli) deliveriesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "deliveries",
		Short: "List the world's webhook deliveries (the first page, 100)",
		Args:  cobra.NoArgs,
		RunE: cl.run(func(ctx context.Context, _ []string) error {
			deliveries, err := cl.c.Deliveries(ctx)
			if err != nil {
				return err
			}
			return cl.show(func(w *tabwriter.Writer) {
				fmt.Fprintln(w, "ID\tWEBHOOK\tEVENT\tSTATUS\tATTEMPTS")
				for _, d := range deliveries {
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\n", d.ID, d.WebhookID, d.Event, d.Status, d.AttemptCount)
				}
			})
		}),
	}
}

// newWorldOf asks for a world of a scenario: an embedded name (or one of
// the server's --scenarios-dir), or a file on this machine, which the
// command checks as validate does, then reads and sends as inline YAML:
// the server reads no path a request names.
func newWorldOf(name string) (client.NewWorld, error) {
	if !strings.ContainsRune(name, os.PathSeparator) && !strings.HasSuffix(name, ".yaml") &&
		!strings.HasSuffix(name, ".yml") {
		return client.NewWorld{Scenario: name}, nil
	}
	if _, err := scenario.Load(name); err != nil {
		return client.NewWorld{}, err
	}
	f, err := os.Open(name)
	if err != nil {
		return client.NewWorld{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInlineScenario+1))
	if err != nil {
		return client.NewWorld{}, err
	}
	if len(data) > maxInlineScenario {
		return client.NewWorld{}, fmt.Errorf(
			"%s is larger than a request takes (%d KiB): put it in the server's --scenarios-dir and name it",
			name,
			maxInlineScenario>>10,
		)
	}
	return client.NewWorld{YAML: string(data)}, nil
}

// maxInlineScenario leaves room in a 1 MiB request body for the JSON
// around the YAML.
const maxInlineScenario = 900 << 10
