package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Program is the command line, runnable in-process by tests.
type Program struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Terminal       bool
	// Ready, when set, is called with the bound address once serving, by
	// listen with its temporary endpoint's id once it is registered, or by
	// requests --follow with "" once it has printed the newest requests and
	// waits for more.
	Ready func(addr string)
	// logs batches the log's writes to Stderr.
	logs *logBuffer
}

// Run runs a command and returns the process exit code: 0 when it did its
// work, 1 when it failed, 2 for a command line it cannot take (an unknown
// command or flag, a missing or bad argument, a file validate --deep cannot
// load) or a command that could not run at all (notRun).
func (p *Program) Run(ctx context.Context, args []string) int {
	root, started := p.root()
	// cobra reads os.Args when given no arguments at all.
	args = append([]string{}, args...)
	if len(args) > 0 && args[0] == "--version" {
		args[0] = "version"
	}
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	if errors.Is(err, errReported) {
		return 1
	}
	var cannot notRun
	if errors.As(err, &cannot) {
		fmt.Fprintf(p.Stderr, "%s: %v\n", cmd.CommandPath(), err)
		return 2
	}
	if errors.Is(err, errUnloadable) {
		return 2
	}
	var usage usageError
	if !*started || errors.As(err, &usage) {
		if cmd.Name() == "help" {
			cmd = root
		}
		fmt.Fprintf(p.Stderr, "slash-sandbox: %v\nRun '%s --help' for usage.\n", err, cmd.CommandPath())
		return 2
	}
	fmt.Fprintf(p.Stderr, "%s: %v\n", cmd.CommandPath(), err)
	return 1
}

// usageError is a command line the command cannot take, found once it
// runs (exit 2).
type usageError string

func (u usageError) Error() string { return string(u) }

// errReported is a failure the command has already described on stderr.
var errReported = errors.New("reported")

// The groups help lists the commands in.
const (
	groupLocal   = "local"
	groupControl = "control"
)

// root builds the command tree. started reports whether a command got past
// the parsing of its flags and arguments: an error before is the command
// line's (exit 2), an error after is the command's (exit 1).
func (p *Program) root() (root *cobra.Command, started *bool) {
	started = new(bool)
	cl := &cli{stdout: p.Stdout, stderr: p.Stderr, getenv: p.Getenv, ready: p.Ready}
	o := &options{}
	root = &cobra.Command{
		Use:   "slash-sandbox",
		Short: "a local, stateful emulator of the Slash API",
		Long: `slash-sandbox serves a local, stateful emulator of the Slash Payments and Cards API.
With no command it serves (as "slash-sandbox serve", with the same flags).`,
		RunE:              func(cmd *cobra.Command, _ []string) error { return p.serve(cmd.Context(), o, cl.token) },
		PersistentPreRunE: func(*cobra.Command, []string) error { *started = true; return nil },
		SilenceErrors:     true,
		SilenceUsage:      true,
	}
	root.SetOut(p.Stdout)
	root.SetErr(p.Stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return err })
	root.SetHelpCommand(helpCommand())
	root.SetUsageTemplate(usageTemplate)
	cl.globalFlags(root)
	root.Flags().AddFlagSet(p.serveFlags(o))
	root.AddGroup(
		&cobra.Group{ID: groupLocal, Title: "Serving and scenarios:"},
		&cobra.Group{ID: groupControl, Title: "Commands for a running sandbox (--server, --world, --admin-token, --json):"},
	)
	for _, c := range []*cobra.Command{p.serveCommand(o, cl), p.validateCommand(), p.scenariosCommand(),
		p.schemaCommand(), cl.driftCommand(), p.recordCommand()} {
		c.GroupID = groupLocal
		root.AddCommand(c)
	}
	for _, c := range cl.commands() {
		c.GroupID = groupControl
		root.AddCommand(c)
	}
	root.AddCommand(cl.versionCommand())
	return root, started
}

// commands are the commands that drive a running sandbox, each built by a
// method of cli: a new one is a method returning its *cobra.Command, named
// here.
func (cl *cli) commands() []*cobra.Command {
	return []*cobra.Command{
		cl.healthCommand(), cl.clockCommand(), cl.resetCommand(), cl.keysCommand(), cl.eventsCommand(),
		cl.worldsCommand(), cl.snapshotsCommand(), cl.outboxCommand(), cl.deliveriesCommand(),
		cl.triggerCommand(), cl.listenCommand(), cl.requestsCommand(), cl.faultsCommand(), cl.agentRequestsCommand(),
	}
}

// helpCommand is "help [command]"; unlike cobra's own, a topic it does not
// know is a command line error.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion,
			cobra.ShellCompDirective) {
			var names []cobra.Completion
			if cmd, rest, err := c.Root().Find(args); err == nil && len(rest) == 0 {
				for _, sub := range cmd.Commands() {
					if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
						names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
					}
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return usageError(fmt.Sprintf("no help topic %q", strings.Join(args, " ")))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// usageTemplate is cobra's, but the root's own flags (serve's) and its
// persistent ones (every command's) are listed apart, as in a subcommand.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

Available Commands:{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

Additional Commands:{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasParent}}{{if` +
	` .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{else}}

Flags (serve's, which it takes without the word serve):
{{.LocalNonPersistentFlags.FlagUsages | trimTrailingWhitespaces}}

Global Flags (before or after any command):
{{.PersistentFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`
