package cli

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/checker"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/scenarios"
	"github.com/spf13/cobra"
)

func (p *Program) scenariosCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "List the embedded scenarios",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, n := range scenarios.Names() {
				fmt.Fprintln(p.Stdout, n)
			}
			return nil
		},
	}
}

func (p *Program) schemaCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the scenario format",
		Long: `Print the JSON Schema (draft 2020-12) of the scenario format, for editors that complete and
check YAML: save it and name it on a scenario's first line,
  # yaml-language-server: $schema=./scenario.schema.json
A running sandbox serves the same schema at /_sandbox/scenario.schema.json.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := p.Stdout.Write(scenario.JSONSchema())
			return err
		},
	}
}

// validateOptions are validate's flags.
type validateOptions struct {
	deep             bool
	seed, clockStart string
}

func (p *Program) validateCommand() *cobra.Command {
	o := &validateOptions{}
	c := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check scenario files",
		Long: `Check scenario files: each good one prints "FILE: ok", each problem "FILE:LINE: message"
on stderr. Each file that reads well is then loaded into a scratch world in memory, under the
same memory budget as start-up (SANDBOX_MEMORY_BUDGET), so a file start-up would refuse (an
ACH an account cannot pay) is refused here with the same message. Exits 1 when any file has a
problem.

With --deep, the loaded world is then checked against its own rules: card purchases against
their card's and group's constraints and status, balances against entries, dates against
creation, invoices against their payments, information requests against their contacts. Each
record that contradicts one prints "FILE:LINE: warning: RULE: what" on stderr (with --json, a
JSON array of findings on stdout); a record whose breaks key names the rule is accepted. Exits 0
with no findings, 1 with findings, 2 when a file cannot be read or loaded.`,
		Args: func(_ *cobra.Command, files []string) error {
			if len(files) == 0 {
				return fmt.Errorf("validate: name at least one scenario file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, files []string) error {
			asJSON, _ := cmd.Flags().GetBool("json")
			return p.validate(files, o, asJSON)
		},
	}
	c.Flags().BoolVar(&o.deep, "deep", false, "check the loaded world against its own rules and report each contradiction")
	c.Flags().StringVar(&o.seed, "seed", "", "load at this seed; default the scenario's")
	c.Flags().StringVar(&o.clockStart, "clock-start", "", "load at this clock start, RFC 3339; default the scenario's")
	return c
}

// printProblems prints a scenario's problems, one file:line:column:
// message a line.
func (p *Program) printProblems(ps scenario.Problems) {
	for _, pr := range ps {
		fmt.Fprintln(p.Stderr, pr.String())
	}
}

// errUnloadable is validate --deep's failure when a file cannot be read
// or loaded (exit 2), already described on stderr.
var errUnloadable = errors.New("unloadable")

func (p *Program) validate(files []string, o *validateOptions, asJSON bool) error {
	cfg, err := o.config(p.Getenv)
	if err != nil {
		return usageError(err.Error())
	}
	asJSON = asJSON && o.deep
	bad, unloadable := 0, 0
	findings := []checker.Finding{}
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err == nil {
			var found []checker.Finding
			if o.deep {
				found, err = server.CheckScratch(cfg, sc)
			} else {
				err = server.LoadScratch(cfg, sc)
			}
			if err == nil {
				findings = append(findings, found...)
				if len(found) > 0 {
					bad++
				} else if !asJSON {
					fmt.Fprintf(p.Stdout, "%s: ok\n", f)
				}
				continue
			}
			// What start-up says after "slash-sandbox serve: ".
			unloadable++
			fmt.Fprintln(p.Stderr, err)
			continue
		}
		unloadable++
		if ps, ok := scenario.AsProblems(err); ok {
			p.printProblems(ps)
			continue
		}
		fmt.Fprintf(p.Stderr, "%s:1: %v\n", f, err)
	}
	if err := p.printFindings(findings, asJSON); err != nil {
		return err
	}
	switch {
	case unloadable > 0 && o.deep:
		return errUnloadable
	case unloadable+bad > 0:
		return errReported
	}
	return nil
}

// config is the configuration the files are loaded with.
func (o *validateOptions) config(getenv func(string) string) (server.Config, error) {
	budget, err := memoryBudget(envOr(getenv, "SANDBOX_MEMORY_BUDGET", "2GiB"))
	cfg := server.Config{MemoryBudget: budget}
	if err != nil {
		return cfg, err
	}
	cfg.Seed, cfg.ClockStart, err = seedAndClockStart(o.seed, o.clockStart)
	return cfg, err
}

// printFindings prints the checker's findings: one warning a line on
// stderr, or all of them as a JSON array on stdout.
func (p *Program) printFindings(findings []checker.Finding, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(p.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(findings)
	}
	for _, f := range findings {
		fmt.Fprintln(p.Stderr, f)
	}
	return nil
}
