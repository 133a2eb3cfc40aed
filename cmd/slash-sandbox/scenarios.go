package main

import (
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/scenario"
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

func (p *Program) validateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check scenario files",
		Long: `Check scenario files: each good one prints "FILE: ok", each problem "FILE:LINE: message"
on stderr. Exits 1 when any file has a problem.`,
		Args: func(_ *cobra.Command, files []string) error {
			if len(files) == 0 {
				return fmt.Errorf("validate: name at least one scenario file")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, files []string) error { return p.validate(files) },
	}
}

func (p *Program) validate(files []string) error {
	bad := 0
	for _, f := range files {
		_, err := scenario.Load(f)
		if err == nil {
			fmt.Fprintf(p.Stdout, "%s: ok\n", f)
			continue
		}
		bad++
		if ps, ok := scenario.AsProblems(err); ok {
			for _, pr := range ps {
				fmt.Fprintln(p.Stderr, pr.String())
			}
			continue
		}
		fmt.Fprintf(p.Stderr, "%s:1: %v\n", f, err)
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d files have problems", bad, len(files))
	}
	return nil
}
