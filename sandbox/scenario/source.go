package scenario

import (
	"fmt"
	"os"

	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

// Load reads a scenario by embedded name or by file path.
func Load(nameOrPath string) (*Scenario, error) {
	if data, ok := scenarios.Get(nameOrPath); ok {
		sc, err := Parse(nameOrPath+".yaml", data)
		if sc != nil && sc.Name == "" {
			sc.Name = nameOrPath
		}
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
