package cli

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Go lets the heap grow to twice what its last collection left live before
// collecting again (GOGC 100): a world of 100,000 transactions would hold
// its live data twice over in garbage. Once the live heap passes bigHeap the
// sandbox collects at half that growth (GOGC 50), so a big world stays
// within about 1.5 times its live size; a smaller heap keeps Go's default.
// The pace is relative to what each collection leaves live, so a world that
// grows fast under writes is never collected against a stale figure (an
// absolute limit, re-read every few seconds, lagged such a world's growth
// and had the collector run without pause). The live heap is checked every
// paceEvery as worlds come and go. GOGC or GOMEMLIMIT in the environment
// win: then the pace is left alone.
const (
	bigHeap   = 128 << 20
	paceEvery = 2 * time.Second
)

// gcPercent is the collector's pace (GOGC) for a live heap of live bytes.
func gcPercent(live uint64) int {
	if live > bigHeap {
		return 50
	}
	return 100
}

// keepCollectorPace sets the pace now and adjusts it until ctx ends; the
// caller leaves a GOGC or GOMEMLIMIT from the environment alone by not
// calling it.
func keepCollectorPace(ctx context.Context) {
	pace := setCollectorPace(100)
	go func() {
		t := time.NewTicker(paceEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				pace = setCollectorPace(pace)
			}
		}
	}()
}

// setCollectorPace moves the pace from was to what the live heap calls for
// and returns it.
func setCollectorPace(was int) int {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return was
	}
	if p := gcPercent(s[0].Value.Uint64()); p != was {
		debug.SetGCPercent(p)
		return p
	}
	return was
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
