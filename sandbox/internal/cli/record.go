package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/record"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/spf13/cobra"
)

// recordFlags are record's flags.
type recordFlags struct {
	from, key, out string
	les            []string
	seed           int64
	keepNames      bool
}

// recordCommand is "record": an account read through the API, written as
// a scenario.
func (p *Program) recordCommand() *cobra.Command {
	f := &recordFlags{}
	cmd := &cobra.Command{
		Use:   "record --from URL --api-key KEY --out FILE",
		Short: "Record an account of the Slash API as a scenario",
		Long: `Read an account through the Slash API, with GET requests only (a read-only key is enough), and
write a scenario that loads into a world shaped like it: the same ids, amounts, dates, statuses,
relationships and balances. Names, emails, addresses, phone and bank numbers are replaced by fake
ones of the same shape, the same for the same --seed, unless --keep-names; card numbers and CVVs
are never read. A user key records every legal entity it reads, or those --legal-entity names.
The file is written only when the whole account was read and the scenario loads; a summary on
stdout says what was recorded and what the API does not let a recording read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.record(cmd.Context(), f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.from, "from", "", "the API's base URL, such as https://api.slash.com")
	fl.StringVar(&f.key, "api-key", p.Getenv("SLASH_API_KEY"), "an API key of the account (SLASH_API_KEY)")
	fl.StringArrayVar(&f.les, "legal-entity", nil, "record this legal entity only (repeatable); default every one")
	fl.StringVar(&f.out, "out", "", "the scenario file to write")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the fake names")
	fl.BoolVar(&f.keepNames, "keep-names", false, "keep names, emails, addresses, phone and bank numbers as they are")
	return cmd
}

// record records the account f names into f.out.
func (p *Program) record(ctx context.Context, f *recordFlags) error {
	switch {
	case f.from == "":
		return usageError("record: --from is required: the API's base URL")
	case f.key == "":
		return usageError("record: --api-key (or SLASH_API_KEY) is required")
	case f.out == "":
		return usageError("record: --out is required: the scenario file to write")
	}
	if !strings.HasPrefix(f.from, "http://") && !strings.HasPrefix(f.from, "https://") {
		return usageError(fmt.Sprintf("record: --from %q is not an http:// or https:// URL", f.from))
	}
	res, err := record.Record(ctx, record.Options{From: f.from, APIKey: f.key, LegalEntities: f.les, Seed: f.seed,
		KeepNames: f.keepNames, Progress: func(format string, args ...any) {
			fmt.Fprintf(p.Stderr, "record: "+format+"\n", args...)
		}})
	if err != nil {
		return fmt.Errorf("%w; nothing written", err)
	}
	data, err := scenario.Encode(res.Scenario)
	if err != nil {
		return fmt.Errorf("%w; nothing written", err)
	}
	if err := writeLoadable(f.out, data); err != nil {
		return err
	}
	p.recordSummary(f.out, res)
	return nil
}

// maxProblems is how many of a recording's problems an error shows.
const maxProblems = 10

// writeLoadable writes a scenario to path through a file beside it,
// renamed into place once it loads: path is the whole scenario or nothing.
func writeLoadable(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%w; nothing written", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("%w; nothing written", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("%w; nothing written", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%w; nothing written", err)
	}
	sc, err := scenario.Load(tmp.Name())
	if err == nil {
		err = server.LoadScratch(server.Config{}, sc)
	}
	if err != nil {
		lines := strings.Split(err.Error(), "\n")
		if len(lines) > maxProblems {
			lines = append(lines[:maxProblems], fmt.Sprintf("… and %d more", len(lines)-maxProblems))
		}
		return fmt.Errorf("the recording does not load, so nothing was written: %s", strings.Join(lines, "\n"))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return errors.Join(err, errors.New("nothing written"))
	}
	return nil
}

// recordSummary prints what was recorded, the keys to use and what could
// not be read.
func (p *Program) recordSummary(out string, res *record.Result) {
	fmt.Fprintf(p.Stdout, "recorded %s (%d GET requests)\n", out, res.Requests)
	tw := tabwriter.NewWriter(p.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, c := range res.Counts {
		fmt.Fprintf(tw, "%d\t  %s\n", c.N, c.What)
	}
	tw.Flush()
	fmt.Fprintln(p.Stdout, "keys:")
	for _, k := range res.Scenario.Keys {
		fmt.Fprintf(p.Stdout, "  %s  %s\n", k.Key, k.Name)
	}
	fmt.Fprintln(p.Stdout, "not recorded (the API does not let a recording read it):")
	for _, u := range res.Unread {
		fmt.Fprintf(p.Stdout, "  - %s\n", u)
	}
}
