package seed

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// idCounters writes where the world's counters stand: the world loaded
// from the export goes on numbering from there, so an id it makes never
// repeats one the export declares.
func (x *exporter) idCounters() error {
	counters, err := kernel.Counters(x.op)
	if err != nil {
		return err
	}
	for name, n := range counters {
		if n > 0 {
			if x.sc.IDCounters == nil {
				x.sc.IDCounters = map[string]any{}
			}
			x.sc.IDCounters[name] = n
		}
	}
	return nil
}
