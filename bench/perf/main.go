// Command perf measures the sandbox: start-up time, throughput against a
// bare net/http server, a 100,000-transaction world, crash safety and
// mixed load across worlds. The scripts in bench/ build the sandbox and run
// one subcommand each; see docs/benchmarks.md.
//
// Everything talks to loopback only, and every loop is bounded in count and
// in time.
package main

import (
	"fmt"
	"os"
	"sort"
)

type command struct {
	run  func(args []string) error
	help string
}

var commands = map[string]command{
	"hello":      {runHello, "serve a bare net/http hello-world (the throughput baseline)"},
	"throughput": {runThroughput, "requests per second on GET /card, GET /transaction and POST /card against hello-world"},
	"hit":        {runHit, "load one running server with one request (a probe while optimizing)"},
	"memory": {
		runMemory,
		"heap bytes per card and per transaction; resident memory of bench/big.yaml and of 100 demo worlds",
	},
	"mixed": {
		runMixed,
		"the mix a test suite makes (60% GET /card, 20% GET /transaction, 20% POST /card) against hello-world, optionally" +
			" over many worlds",
	},
	"suite": {
		runSuite,
		"what a test suite does: workers each create a world, write, read, advance 3 days, check, delete; worlds per" +
			" second, no 5xx",
	},
	"worlds": {
		runWorlds,
		"mixed reads and writes across parallel worlds created and deleted for a bounded time: no 5xx, p50/p99, memory flat",
	},
	"startup": {runStartup, "start to healthy with the demo scenario (median of n runs) and resident memory"},
	"big": {
		runBig,
		"bench/big.yaml (100,000 transactions): load time, page 500 against page 1, aggregation, resident memory",
	},
	"crash": {
		runCrash,
		"kill -9 during a stream of writes to --data, restart, check every acknowledged write and the ledger",
	},
}

func main() {
	if len(os.Args) < 2 || commands[os.Args[1]].run == nil {
		fmt.Fprintln(os.Stderr, "usage: perf COMMAND [flags]")
		names := make([]string, 0, len(commands))
		for n := range commands {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(os.Stderr, "  %-11s %s\n", n, commands[n].help)
		}
		os.Exit(2)
	}
	if err := commands[os.Args[1]].run(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "perf %s: FAIL: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

// limit is one measured figure against its limit, as its report line says.
type limit struct {
	ok   bool
	what string
}

// report prints PASS or FAIL before each limit's line, and fails when any
// was missed.
func report(limits []limit) error {
	missed := 0
	for _, l := range limits {
		verdict := "PASS"
		if !l.ok {
			verdict, missed = "FAIL", missed+1
		}
		fmt.Printf("%s  %s\n", verdict, l.what)
	}
	if missed > 0 {
		return fmt.Errorf("%d limit(s) missed", missed)
	}
	return nil
}
