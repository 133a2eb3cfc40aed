package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

// Program is the command line, runnable in-process by tests.
type Program struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Terminal       bool
	// Ready, when set, is called with the bound address once serving.
	Ready func(addr string)
	// logs batches the log's writes to Stderr.
	logs *logBuffer
}

const usage = `usage: slash-sandbox [serve] [flags]     serve the sandbox (default)
       slash-sandbox validate FILE...      check scenario files
       slash-sandbox scenarios             list the embedded scenarios

Commands for a running sandbox (--server URL, --world ID, --admin-token T, --json):
       slash-sandbox health
       slash-sandbox clock [show | advance 36h | advance 2026-07-01T00:00:00Z | advance next]
       slash-sandbox reset
       slash-sandbox keys
       slash-sandbox events [scheduled | done]
       slash-sandbox worlds [list | create SCENARIO [id=ID] [ttl=10m] | delete ID]
       slash-sandbox snapshots [list | create [LABEL] | restore ID]
       slash-sandbox outbox [MESSAGE_ID]
       slash-sandbox deliveries

Run "slash-sandbox serve -h" for the serve flags; each has an environment twin.
`

// Run runs a subcommand and returns the process exit code.
func (p *Program) Run(ctx context.Context, args []string) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return p.serve(ctx, args)
	case "validate":
		return p.validate(args)
	case "scenarios":
		for _, n := range scenarios.Names() {
			fmt.Fprintln(p.Stdout, n)
		}
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(p.Stdout, usage)
		return 0
	}
	if _, ok := controlCommands[cmd]; ok {
		return p.control(ctx, cmd, args)
	}
	fmt.Fprintf(p.Stderr, "slash-sandbox: unknown command %q\n\n%s", cmd, usage)
	return 2
}

func (p *Program) validate(files []string) int {
	if len(files) == 0 {
		fmt.Fprintln(p.Stderr, "slash-sandbox validate: name at least one scenario file")
		return 2
	}
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
		return 1
	}
	return 0
}

// options are the serve flags before they are checked.
type options struct {
	addr, scenario, seed, clockStart, clockMode, clockScale string
	data, durability, logLevel, logFormat, adminToken       string
	scenariosDir, allowedHosts, allowedOrigins              string
	resetData                                               bool
}

func (p *Program) flags(args []string) (*options, error) {
	env := func(name, def string) string {
		if v := p.Getenv(name); v != "" {
			return v
		}
		return def
	}
	o := &options{}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	fs.StringVar(&o.addr, "addr", env("SANDBOX_ADDR", "127.0.0.1:8080"), "listen address (SANDBOX_ADDR)")
	fs.StringVar(&o.scenario, "scenario", env("SANDBOX_SCENARIO", "demo"), "embedded scenario name or a YAML file path (SANDBOX_SCENARIO)")
	fs.StringVar(&o.seed, "seed", env("SANDBOX_SEED", ""), "seed of every generated value; default the scenario's (SANDBOX_SEED)")
	fs.StringVar(&o.clockStart, "clock-start", env("SANDBOX_CLOCK_START", ""), "virtual clock start, RFC 3339; default the scenario's, else now (SANDBOX_CLOCK_START)")
	fs.StringVar(&o.clockMode, "clock", env("SANDBOX_CLOCK", "frozen"), "clock mode: frozen, real or scaled (SANDBOX_CLOCK)")
	fs.StringVar(&o.clockScale, "clock-scale", env("SANDBOX_CLOCK_SCALE", "60"), "speed of the scaled clock (SANDBOX_CLOCK_SCALE)")
	fs.StringVar(&o.data, "data", env("SANDBOX_DATA", ""), "buntdb file that keeps the state across restarts; default in memory (SANDBOX_DATA)")
	resetData, err := strconv.ParseBool(env("SANDBOX_RESET_DATA", "false"))
	if err != nil {
		return nil, fmt.Errorf("SANDBOX_RESET_DATA: %q is not true or false", p.Getenv("SANDBOX_RESET_DATA"))
	}
	fs.BoolVar(&o.resetData, "reset-data", resetData, "with --data: discard the world the file holds and seed it afresh (SANDBOX_RESET_DATA)")
	fs.StringVar(&o.durability, "durability", env("SANDBOX_DURABILITY", "always"), "with --data: always, everysecond or never fsync (SANDBOX_DURABILITY)")
	fs.StringVar(&o.logLevel, "log-level", env("SANDBOX_LOG_LEVEL", "info"), "debug, info, warn or error (SANDBOX_LOG_LEVEL)")
	fs.StringVar(&o.logFormat, "log-format", env("SANDBOX_LOG_FORMAT", ""), "pretty or json; default pretty on a terminal (SANDBOX_LOG_FORMAT)")
	fs.StringVar(&o.adminToken, "admin-token", env("SANDBOX_ADMIN_TOKEN", ""), "when set, the control API requires it (SANDBOX_ADMIN_TOKEN)")
	fs.StringVar(&o.scenariosDir, "scenarios-dir", env("SANDBOX_SCENARIOS_DIR", ""), "directory whose scenario files POST /_sandbox/worlds may name; default none (SANDBOX_SCENARIOS_DIR)")
	fs.StringVar(&o.allowedHosts, "allowed-hosts", env("SANDBOX_ALLOWED_HOSTS", ""), "comma-separated Host names the control API and dashboard answer besides loopback and IP addresses (SANDBOX_ALLOWED_HOSTS)")
	fs.StringVar(&o.allowedOrigins, "allowed-origins", env("SANDBOX_ALLOWED_ORIGINS", ""), "comma-separated browser origins allowed to call the control API, e.g. http://localhost:5173 (SANDBOX_ALLOWED_ORIGINS)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return o, nil
}

// config checks the options and turns them into a server configuration.
func (p *Program) config(o *options) (server.Config, error) {
	cfg := server.Config{Addr: o.addr, Scenario: o.scenario, DataPath: o.data, ResetData: o.resetData, AdminToken: o.adminToken,
		ScenariosDir: o.scenariosDir, AllowedHosts: list(o.allowedHosts), AllowedOrigins: list(o.allowedOrigins)}
	var err error
	if o.resetData && o.data == "" {
		return cfg, fmt.Errorf("--reset-data: there is no data file to reset; name it with --data")
	}
	if o.seed != "" {
		n, err := strconv.ParseInt(o.seed, 10, 64)
		if err != nil {
			return cfg, fmt.Errorf("--seed: %q is not an integer", o.seed)
		}
		cfg.Seed = &n
	}
	if o.clockStart != "" {
		t, err := time.Parse(time.RFC3339, o.clockStart)
		if err != nil {
			return cfg, fmt.Errorf("--clock-start: %q is not an RFC 3339 instant", o.clockStart)
		}
		if err := clock.InRange(t); err != nil {
			return cfg, fmt.Errorf("--clock-start: %v", err)
		}
		cfg.ClockStart = &t
	}
	if cfg.ClockMode, err = clock.ParseMode(o.clockMode); err != nil {
		return cfg, fmt.Errorf("--clock: %v", err)
	}
	if cfg.ClockScale, err = strconv.ParseFloat(o.clockScale, 64); err != nil || cfg.ClockScale <= 0 || cfg.ClockScale > clock.MaxScale {
		return cfg, fmt.Errorf("--clock-scale: %q is not a number above 0 and at most %d", o.clockScale, clock.MaxScale)
	}
	if cfg.Durability, err = store.ParseDurability(o.durability); err != nil {
		return cfg, fmt.Errorf("--durability: %v", err)
	}
	cfg.Log, err = p.logger(o.logLevel, o.logFormat)
	return cfg, err
}

// list splits a comma-separated flag value, dropping empty items.
func list(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func (p *Program) logger(level, format string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", level)
	}
	p.logs = newLogBuffer(p.Stderr)
	var out io.Writer = p.logs
	switch format {
	case "":
		if p.Terminal {
			out = zerolog.ConsoleWriter{Out: p.logs, TimeFormat: "15:04:05.000"}
		}
	case "pretty":
		out = zerolog.ConsoleWriter{Out: p.logs, TimeFormat: "15:04:05.000", NoColor: !p.Terminal}
	case "json":
	default:
		return zerolog.Nop(), fmt.Errorf("--log-format: %q is not pretty or json", format)
	}
	return zerolog.New(out).Level(lvl).With().Timestamp().Logger(), nil
}

func (p *Program) serve(ctx context.Context, args []string) int {
	o, err := p.flags(args)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		fmt.Fprintf(p.Stderr, "slash-sandbox: %v\n", err)
		return 2
	}
	cfg, err := p.config(o)
	if err != nil {
		fmt.Fprintf(p.Stderr, "slash-sandbox: %v\n", err)
		return 2
	}
	defer p.logs.Flush()
	srv, err := server.New(cfg)
	if errors.Is(err, server.ErrDataHoldsAnotherWorld) {
		fmt.Fprintf(p.Stderr, "slash-sandbox: %v\nTo start over, run with --reset-data (SANDBOX_RESET_DATA=true), which discards what the file holds "+
			"and seeds it afresh, or delete %s. To keep it, start with the scenario and seed it holds.\n", err, cfg.DataPath)
		return 1
	}
	if err != nil {
		fmt.Fprintf(p.Stderr, "slash-sandbox: %v\n", err)
		return 1
	}
	if cfg.ResetData {
		cfg.Log.Warn().Str("data", cfg.DataPath).Msg("the data file was seeded afresh (--reset-data); start without it to keep the state across restarts")
	}
	keepMemoryLimit(ctx, p.Getenv)
	if err := srv.Listen(cfg.Addr); err != nil {
		srv.Engine.Close()
		fmt.Fprintf(p.Stderr, "slash-sandbox: %v\n", err)
		return 1
	}
	w := srv.Engine.Default()
	cfg.Log.Info().Str("addr", srv.Addr()).Str("scenario", w.Scenario).Int64("seed", w.Seed).
		Time("clock", w.Now()).Bool("persistent", w.Persistent()).Msg("slash-sandbox listening on http://" + srv.Addr())
	p.logs.Flush()
	if p.Ready != nil {
		p.Ready(srv.Addr())
	}
	if err := srv.Serve(ctx); err != nil {
		cfg.Log.Error().Err(err).Msg("shutdown")
		return 1
	}
	cfg.Log.Info().Msg("stopped")
	return 0
}
