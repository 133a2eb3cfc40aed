package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Go lets the heap grow to twice its live data before collecting (GOGC
// 100): a world of 100,000 transactions holds about 180 MB, so its process
// would reach 400 MB resident with garbage alone. The sandbox instead keeps
// a soft memory limit (Go's GOMEMLIMIT) of 1.5 times the live heap, and at
// least memoryFloor, checked every few seconds as worlds come and go: small
// worlds never reach it and collect as usual; a big one collects earlier
// and stays nearer its live size. A GOMEMLIMIT in the environment wins.
const (
	memoryFloor = 256 << 20
	memoryEvery = 2 * time.Second
)

// keepMemoryLimit adjusts the limit until ctx ends; the caller leaves a
// GOMEMLIMIT from the environment alone by not calling it.
func keepMemoryLimit(ctx context.Context) {
	setMemoryLimit()
	go func() {
		t := time.NewTicker(memoryEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				setMemoryLimit()
			}
		}
	}()
}

func setMemoryLimit() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	var live uint64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	debug.SetMemoryLimit(int64(max(memoryFloor, live+live/2)))
}

// releaseLoadGarbage collects what loading a large scenario left behind
// and returns the freed pages to the system at once: loading bench/big.yaml
// makes more garbage than it keeps, and Go's scavenger would otherwise
// return it over minutes, leaving the process about 40 MB larger meanwhile.
// A small load (a heap under releaseAbove) is left to the collector: the
// forced collection would cost its start a few milliseconds for little.
func releaseLoadGarbage() {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > releaseAbove {
		debug.FreeOSMemory()
	}
}

const releaseAbove = 64 << 20
