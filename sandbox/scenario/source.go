package scenario

import (
	"fmt"
	"os"
	"sync"

	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

// embedded memoizes parsed embedded scenarios: they never change, and a
// world per test should not parse YAML each time.
var embedded sync.Map

type parsed struct {
	sc  *Scenario
	err error
}

// Load reads a scenario by embedded name or by file path. Scenarios are
// read-only once parsed.
func Load(nameOrPath string) (*Scenario, error) {
	if p, ok := embedded.Load(nameOrPath); ok {
		return p.(parsed).sc, p.(parsed).err
	}
	if data, ok := scenarios.Get(nameOrPath); ok {
		sc, err := Parse(nameOrPath+".yaml", data)
		if sc != nil && sc.Name == "" {
			sc.Name = nameOrPath
		}
		embedded.Store(nameOrPath, parsed{sc, err})
		return sc, err
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("scenario %q is neither embedded (%v) nor a readable file: %w", nameOrPath, scenarios.Names(), err)
	}
	sc, err := Parse(nameOrPath, data)
	if sc != nil && sc.Name == "" {
		sc.Name = nameOrPath
	}
	return sc, err
}
