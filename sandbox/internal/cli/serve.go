package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parts"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// options are the serve flags before they are checked.
type options struct {
	addr, scenario, seed, clockStart, clockMode, clockScale string
	data, durability, logLevel, logFormat                   string
	scenariosDir, allowedHosts, allowedOrigins              string
	webhookTimeout, advanceWait, memoryBudget               string
	idleTimeout, bodyReadTimeout                            string
	resetData, check                                        bool
	// resetDataEnv and checkEnv are SANDBOX_RESET_DATA and SANDBOX_CHECK as
	// given, checked with the rest.
	resetDataEnv, checkEnv string
}

func (p *Program) serveCommand(o *options, cl *cli) *cobra.Command {
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the sandbox (the default command)",
		Long: `Serve the sandbox until SIGINT or SIGTERM, then shut down gracefully.
Every flag has an environment twin; a flag wins over its twin.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.serve(cmd.Context(), o, cl.token) },
	}
	c.Flags().AddFlagSet(p.serveFlags(o))
	return c
}

// serveFlags are the flags of serve, which the root command takes too:
// "slash-sandbox --addr :9000" serves. The admin token is a global flag.
func (p *Program) serveFlags(o *options) *pflag.FlagSet {
	env := func(name, def string) string { return envOr(p.Getenv, name, def) }
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", env("SANDBOX_ADDR", "127.0.0.1:8080"), "listen address (SANDBOX_ADDR)")
	fs.StringVar(&o.scenario, "scenario", env("SANDBOX_SCENARIO", "demo"),
		"embedded scenario name or a YAML file path (SANDBOX_SCENARIO)")
	fs.StringVar(&o.seed, "seed", env("SANDBOX_SEED", ""),
		"seed of every generated value; default the scenario's (SANDBOX_SEED)")
	fs.StringVar(&o.clockStart, "clock-start", env("SANDBOX_CLOCK_START", ""),
		"virtual clock start, RFC 3339; default the scenario's, else now (SANDBOX_CLOCK_START)")
	fs.StringVar(&o.clockMode, "clock", env("SANDBOX_CLOCK", "frozen"),
		"clock mode: frozen, real or scaled (SANDBOX_CLOCK)")
	fs.StringVar(&o.clockScale, "clock-scale", env("SANDBOX_CLOCK_SCALE", "60"),
		"speed of the scaled clock (SANDBOX_CLOCK_SCALE)")
	fs.StringVar(&o.data, "data", env("SANDBOX_DATA", ""),
		"file that keeps the state across restarts; default in memory (SANDBOX_DATA)")
	o.resetDataEnv = p.Getenv("SANDBOX_RESET_DATA")
	resetData, _ := strconv.ParseBool(o.resetDataEnv)
	fs.BoolVar(&o.resetData, "reset-data", resetData,
		"with --data: discard the world the file holds and seed it afresh (SANDBOX_RESET_DATA)")
	o.checkEnv = p.Getenv("SANDBOX_CHECK")
	check, _ := strconv.ParseBool(o.checkEnv)
	fs.BoolVar(&o.check, "check", check,
		"check the scenario against the world's own rules at start-up and log each record that contradicts one as a"+
			" warning, as validate --deep does (SANDBOX_CHECK)")
	fs.StringVar(&o.durability, "durability", env("SANDBOX_DURABILITY", "always"),
		"with --data: always, everysecond or never fsync (SANDBOX_DURABILITY)")
	fs.StringVar(&o.logLevel, "log-level", env("SANDBOX_LOG_LEVEL", "info"),
		"debug, info, warn or error (SANDBOX_LOG_LEVEL)")
	fs.StringVar(&o.logFormat, "log-format", env("SANDBOX_LOG_FORMAT", ""),
		"pretty or json; default pretty on a terminal (SANDBOX_LOG_FORMAT)")
	fs.StringVar(&o.scenariosDir, "scenarios-dir", env("SANDBOX_SCENARIOS_DIR", ""),
		"directory whose scenario files POST /_sandbox/worlds may name; default none (SANDBOX_SCENARIOS_DIR)")
	fs.StringVar(&o.allowedHosts, "allowed-hosts", env("SANDBOX_ALLOWED_HOSTS", ""),
		"comma-separated Host names the control API and dashboard answer besides loopback and IP addresses"+
			" (SANDBOX_ALLOWED_HOSTS)")
	fs.StringVar(&o.allowedOrigins, "allowed-origins", env("SANDBOX_ALLOWED_ORIGINS", ""),
		"comma-separated browser origins allowed to call the control API, e.g. http://localhost:5173"+
			" (SANDBOX_ALLOWED_ORIGINS)")
	fs.StringVar(&o.webhookTimeout, "webhook-timeout", env("SANDBOX_WEBHOOK_TIMEOUT", "10s"),
		"how long a webhook receiver has to answer a delivery (SANDBOX_WEBHOOK_TIMEOUT)")
	fs.StringVar(&o.memoryBudget, "memory-budget", env("SANDBOX_MEMORY_BUDGET", "2GiB"),
		"memory the worlds and snapshots may hold together, such as 512MiB or 4GiB; work that needs more is refused with"+
			" 507; 0 or off: no limit (SANDBOX_MEMORY_BUDGET)")
	fs.StringVar(&o.advanceWait, "webhook-advance-wait", env("SANDBOX_WEBHOOK_ADVANCE_WAIT", "5s"),
		"how long a clock advance waits for the deliveries due at one instant; the first wait that runs out ends the"+
			" waiting (SANDBOX_WEBHOOK_ADVANCE_WAIT)")
	fs.StringVar(&o.idleTimeout, "idle-timeout", env("SANDBOX_IDLE_TIMEOUT", "2m"),
		"how long an idle keep-alive connection stays open (SANDBOX_IDLE_TIMEOUT)")
	fs.StringVar(&o.bodyReadTimeout, "body-read-timeout", env("SANDBOX_BODY_READ_TIMEOUT", "60s"),
		"how long each MiB of a request body may take to arrive; a slower body is answered 408 (SANDBOX_BODY_READ_TIMEOUT)")
	return fs
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

// seedAndClockStart reads --seed and --clock-start, each nil when not given.
func seedAndClockStart(seed, clockStart string) (*int64, *time.Time, error) {
	var n *int64
	if seed != "" {
		v, err := strconv.ParseInt(seed, 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("--seed: %q is not an integer", seed)
		}
		n = &v
	}
	if clockStart == "" {
		return n, nil, nil
	}
	t, err := time.Parse(time.RFC3339, clockStart)
	if err != nil {
		return nil, nil, fmt.Errorf("--clock-start: %q is not an RFC 3339 instant", clockStart)
	}
	if err := clock.InRange(t); err != nil {
		return nil, nil, fmt.Errorf("--clock-start: %w", err)
	}
	return n, &t, nil
}

// config checks the options and turns them into a server configuration.
func (p *Program) config(o *options, adminToken string) (server.Config, error) {
	cfg := server.Config{Addr: o.addr, Scenario: o.scenario, DataPath: o.data, AdminToken: adminToken,
		ScenariosDir: o.scenariosDir, AllowedHosts: list(o.allowedHosts), AllowedOrigins: list(o.allowedOrigins),
		Analytics: parts.SQLite, MCP: parts.MCP}
	cfg.ResetData = o.resetData
	if _, err := strconv.ParseBool(o.resetDataEnv); o.resetDataEnv != "" && err != nil {
		return cfg, fmt.Errorf("SANDBOX_RESET_DATA: %q is not true or false", o.resetDataEnv)
	}
	if _, err := strconv.ParseBool(o.checkEnv); o.checkEnv != "" && err != nil {
		return cfg, fmt.Errorf("SANDBOX_CHECK: %q is not true or false", o.checkEnv)
	}
	if o.resetData && o.data == "" {
		return cfg, fmt.Errorf("--reset-data: there is no data file to reset; name it with --data")
	}
	var err error
	if cfg.Seed, cfg.ClockStart, err = seedAndClockStart(o.seed, o.clockStart); err != nil {
		return cfg, err
	}
	if cfg.ClockMode, err = clock.ParseMode(o.clockMode); err != nil {
		return cfg, fmt.Errorf("--clock: %w", err)
	}
	if cfg.ClockScale, err = strconv.ParseFloat(o.clockScale, 64); err != nil || cfg.ClockScale <= 0 ||
		cfg.ClockScale > clock.MaxScale {
		return cfg, fmt.Errorf("--clock-scale: %q is not a number above 0 and at most %d", o.clockScale, clock.MaxScale)
	}
	if cfg.Webhooks.Timeout, err = duration("--webhook-timeout", o.webhookTimeout); err != nil {
		return cfg, err
	}
	if cfg.Webhooks.AdvanceWait, err = duration("--webhook-advance-wait", o.advanceWait); err != nil {
		return cfg, err
	}
	if cfg.IdleTimeout, err = duration("--idle-timeout", o.idleTimeout); err != nil {
		return cfg, err
	}
	if cfg.BodyReadTimeout, err = duration("--body-read-timeout", o.bodyReadTimeout); err != nil {
		return cfg, err
	}
	if cfg.MemoryBudget, err = memoryBudget(o.memoryBudget); err != nil {
		return cfg, err
	}
	if cfg.Durability, err = store.ParseDurability(o.durability); err != nil {
		return cfg, fmt.Errorf("--durability: %w", err)
	}
	cfg.Log, err = p.logger(o.logLevel, o.logFormat)
	return cfg, err
}

// duration reads a positive duration flag of at most ten minutes.
func duration(flag, s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 || d > 10*time.Minute {
		return 0, fmt.Errorf("%s: %q is not a duration from 1ms to 10m, such as 5s", flag, s)
	}
	return d, nil
}

// startOver reports a data file the sandbox cannot start on, and how to
// start over: --reset-data, or what else names.
func (p *Program) startOver(err error, orElse string) {
	fmt.Fprintf(p.Stderr, "slash-sandbox: %v\nTo start over, run with --reset-data (SANDBOX_RESET_DATA=true), which "+
		"discards what the file holds and seeds it afresh, or %s.\n", err, orElse)
}

// memoryBudget reads --memory-budget: a size (512MiB, 4GiB, 2GB), or 0 or
// off for no limit.
func memoryBudget(s string) (int64, error) {
	if s == "0" || strings.EqualFold(s, "off") {
		return server.NoMemoryBudget, nil
	}
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > math.MaxInt64 {
		return 0, fmt.Errorf("--memory-budget: %q is not a size such as 512MiB or 4GiB, or 0 or off for no limit", s)
	}
	return int64(n), nil
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
	return zerolog.New(out).Level(lvl).Hook(stamp{}), nil
}

// serve checks the options, builds the server and serves until ctx ends.
func (p *Program) serve(ctx context.Context, o *options, adminToken string) error {
	cfg, err := p.config(o, adminToken)
	if err != nil {
		return usageError(err.Error())
	}
	defer p.logs.Flush()
	srv, err := server.New(cfg)
	switch {
	case errors.Is(err, server.ErrDataHoldsAnotherWorld):
		p.startOver(err, "delete "+cfg.DataPath+". To keep it, start with the scenario and seed it holds")
		return errReported
	case errors.Is(err, store.ErrDamaged):
		p.startOver(err, "restore a copy of "+cfg.DataPath)
		return errReported
	}
	if ps, ok := scenario.AsProblems(err); ok {
		p.printProblems(ps)
		return errReported
	}
	if err != nil {
		return err
	}
	if o.check {
		if err := p.checkAtStartUp(cfg); err != nil {
			srv.Engine.Close()
			return err
		}
	}
	if cfg.ResetData {
		cfg.Log.Warn().
			Str("data", cfg.DataPath).
			Msg("the data file was seeded afresh (--reset-data); start without it to keep the state across restarts")
	}
	// The environment is read before the sandbox is announced ready:
	// Getenv need not be safe for use alongside whoever waits for that.
	pace := p.Getenv("GOGC") == "" && p.Getenv("GOMEMLIMIT") == ""
	if err := srv.Listen(cfg.Addr); err != nil {
		srv.Engine.Close()
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf(
				"%s is already in use: pick another address with --addr (or SANDBOX_ADDR), e.g. --addr 127.0.0.1:8081",
				cfg.Addr,
			)
		}
		return err
	}
	w := srv.Engine.Default()
	cfg.Log.Info().
		Str("addr", srv.Addr()).
		Str("scenario", w.Scenario).
		Int64("seed", w.Seed).
		Str("version", server.Version).
		Time("clock", w.Now()).
		Bool("persistent", w.Persistent()).
		Msg("slash-sandbox listening on http://" + srv.Addr())
	welcome(cfg.Log, srv.Addr(), w, cfg.AdminToken != "")
	p.logs.Flush()
	if p.Ready != nil {
		p.Ready(srv.Addr())
	}
	// The load's garbage goes back to the system while the sandbox already
	// answers: a big world is served a collection sooner.
	go func() {
		releaseLoadGarbage()
		if pace {
			keepCollectorPace(ctx)
		}
	}()
	if err := srv.Serve(ctx); err != nil {
		cfg.Log.Error().Err(err).Msg("shutdown")
		return err
	}
	cfg.Log.Info().Msg("stopped")
	return nil
}

// shownFindings is how many findings start-up logs one by one.
const shownFindings = 20

// checkAtStartUp checks the scenario in a scratch world, as validate --deep
// does, and logs each finding as a warning: the sandbox serves all the same.
func (p *Program) checkAtStartUp(cfg server.Config) error {
	sc, err := scenario.Load(cfg.Scenario)
	if err != nil {
		return err
	}
	scratch := cfg
	scratch.DataPath = ""
	found, err := server.CheckScratch(scratch, sc)
	if err != nil {
		return err
	}
	for i, f := range found {
		if i == shownFindings {
			cfg.Log.Warn().Int("more", len(found)-i).Msg("and more findings: slash-sandbox validate --deep lists them all")
			break
		}
		cfg.Log.Warn().Str("at", fmt.Sprintf("%s:%d", f.File, f.Line)).Str("rule", f.Rule).Msg(f.Message)
	}
	if len(found) == 0 {
		cfg.Log.Info().Str("scenario", sc.Name).Msg("the scenario obeys the world's rules (--check)")
	}
	return nil
}
