package cli

import (
	"fmt"

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

func (p *Program) validateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check scenario files",
		Long: `Check scenario files: each good one prints "FILE: ok", each problem "FILE:LINE: message"
on stderr. Each file that reads well is then loaded into a scratch world in memory, under the
same memory budget as start-up (SANDBOX_MEMORY_BUDGET), so a file start-up would refuse (an
ACH an account cannot pay) is refused here with the same message. Exits 1 when any file has a
problem.`,
		Args: func(_ *cobra.Command, files []string) error {
			if len(files) == 0 {
				return fmt.Errorf("validate: name at least one scenario file")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, files []string) error { return p.validate(files) },
	}
}

// printProblems prints a scenario's problems, one file:line:column:
// message a line.
func (p *Program) printProblems(ps scenario.Problems) {
	for _, pr := range ps {
		fmt.Fprintln(p.Stderr, pr.String())
	}
}

func (p *Program) validate(files []string) error {
	budget, err := memoryBudget(envOr(p.Getenv, "SANDBOX_MEMORY_BUDGET", "2GiB"))
	if err != nil {
		return usageError(err.Error())
	}
	bad := 0
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err == nil {
			err = server.LoadScratch(server.Config{MemoryBudget: budget}, sc)
			if err == nil {
				fmt.Fprintf(p.Stdout, "%s: ok\n", f)
				continue
			}
			// What start-up says after "slash-sandbox serve: ".
			bad++
			fmt.Fprintln(p.Stderr, err)
			continue
		}
		bad++
		if ps, ok := scenario.AsProblems(err); ok {
			p.printProblems(ps)
			continue
		}
		fmt.Fprintf(p.Stderr, "%s:1: %v\n", f, err)
	}
	if bad > 0 {
		return errReported
	}
	return nil
}
