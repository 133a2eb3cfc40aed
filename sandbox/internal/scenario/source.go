package scenario

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

// MaxFileBytes is the largest scenario file read from disk. A larger file,
// or one that never ends (a device such as /dev/zero), is refused after
// reading this much.
const MaxFileBytes = 32 << 20

// ErrUnknown is wrapped by the error for a scenario name that is neither
// embedded nor a file of the scenarios directory.
var ErrUnknown = errors.New("unknown scenario")

// embedded memoizes parsed embedded scenarios: they never change, and a
// world per test should not parse YAML each time.
var embedded sync.Map

type parsed struct {
	sc  *Scenario
	err error
}

// Embedded returns an embedded scenario by name; ok is false when there is
// none of that name. Scenarios are read-only once parsed.
func Embedded(name string) (sc *Scenario, ok bool, err error) {
	if p, ok := embedded.Load(name); ok {
		return p.(parsed).sc, true, p.(parsed).err
	}
	data, ok := scenarios.Get(name)
	if !ok {
		return nil, false, nil
	}
	sc, err = Parse(name+".yaml", data)
	if sc != nil && sc.Name == "" {
		sc.Name = name
	}
	embedded.Store(name, parsed{sc, err})
	return sc, true, err
}

// Load reads a scenario by embedded name or by file path: what the person
// who starts the sandbox names on its command line. Requests never reach
// it; they name scenarios through a Library.
func Load(nameOrPath string) (*Scenario, error) {
	if sc, ok, err := Embedded(nameOrPath); ok {
		return sc, err
	}
	f, err := os.Open(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("scenario %q is neither embedded (%v) nor a readable file: %w", nameOrPath, scenarios.Names(),
			err)
	}
	defer f.Close()
	data, err := readFile(f, nameOrPath)
	if err != nil {
		return nil, err
	}
	return parseNamed(nameOrPath, data)
}

// readFile reads an open scenario file: a regular file of at most
// MaxFileBytes.
func readFile(f fs.File, name string) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("scenario %q: %w", name, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("scenario %q is not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("scenario %q could not be read: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("scenario %q is larger than %d MiB", name, MaxFileBytes>>20)
	}
	return data, nil
}

func parseNamed(name string, data []byte) (*Scenario, error) {
	sc, err := Parse(name, data)
	if sc != nil && sc.Name == "" {
		sc.Name = name
	}
	return sc, err
}

// Library is the set of scenarios a request may name: the embedded ones
// and, when the sandbox was started with a scenarios directory, the YAML
// files directly inside it. A name is never a path: it cannot leave the
// directory, follow a link out of it or open anything but a regular file.
type Library struct {
	root *os.Root
}

// namePattern is what a scenario name may look like: no separators, no
// leading dot.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// OpenLibrary opens the scenarios directory dir ("" for embedded scenarios
// only).
func OpenLibrary(dir string) (*Library, error) {
	if dir == "" {
		return &Library{}, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("scenarios directory: %w", err)
	}
	return &Library{root: root}, nil
}

// Close releases the directory.
func (l *Library) Close() error {
	if l == nil || l.root == nil {
		return nil
	}
	return l.root.Close()
}

// Load returns the scenario of that name: embedded first, then NAME,
// NAME.yaml or NAME.yml in the directory. An unknown name wraps ErrUnknown
// and says which names exist; no error quotes a file's content.
func (l *Library) Load(name string) (*Scenario, error) {
	if sc, ok, err := Embedded(name); ok {
		return sc, err
	}
	if !namePattern.MatchString(name) || strings.Contains(name, "..") {
		return nil, fmt.Errorf("%w: %q is not a scenario name (letters, digits, '.', '_' and '-'; no paths): %s",
			ErrUnknown, name, l.known())
	}
	if l != nil && l.root != nil {
		for _, file := range []string{name, name + ".yaml", name + ".yml"} {
			f, err := l.root.Open(file)
			if err != nil {
				continue
			}
			data, err := readFile(f, file)
			f.Close()
			if err != nil {
				return nil, err
			}
			return parseNamed(file, data)
		}
	}
	return nil, fmt.Errorf("%w: no scenario %q: %s", ErrUnknown, name, l.known())
}

// known says which scenarios a request may name.
func (l *Library) known() string {
	names := scenarios.Names()
	if l == nil || l.root == nil {
		return fmt.Sprintf("the embedded ones are %s (files are read only from a directory given with --scenarios-dir)",
			strings.Join(names, ", "))
	}
	return "the known ones are " + strings.Join(append(names, l.files()...), ", ")
}

// files lists the YAML files of the directory by scenario name.
func (l *Library) files() []string {
	entries, err := fs.ReadDir(l.root.FS(), ".")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		for _, ext := range []string{".yaml", ".yml"} {
			if stem, ok := strings.CutSuffix(n, ext); ok && e.Type().IsRegular() && namePattern.MatchString(stem) {
				out = append(out, stem)
			}
		}
	}
	sort.Strings(out)
	return out
}
