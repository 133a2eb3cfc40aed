package apitest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
)

// Suite is what a package's TestMain hands Main: the routes the package
// registers, which its own tests must reach, and its folder of golden
// files.
type Suite struct {
	// Routes registers the package's routes on r (nil: it has none). Every
	// named route it registers must be reached by a request of one of the
	// package's tests.
	Routes func(r *mux.Router, docs *openapi.Registry)
	// Goldens is the package's folder under fixtures/golden: Golden reads
	// and writes there, and every file in it must be compared by a test.
	Goldens string
}

// Main runs a package's tests and exits: it fails a full run (not one
// narrowed with -run, -skip or -fuzz, nor -short) when a route the package
// registers was reached by none of its tests, or when a golden file of its
// folder was compared by none.
func Main(m *testing.M, s Suite) { os.Exit(Run(m, s)) }

// Run is Main without the exit, for a TestMain that has more to do after
// the tests: it returns the exit code.
func Run(m *testing.M, s Suite) int {
	if s.Goldens != "" {
		goldenDir = RepoPath("fixtures", "golden", s.Goldens)
	}
	code := m.Run()
	if code != 0 || testing.Short() || filtered() {
		return code
	}
	if missing := unexercised(s.Routes); len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: routes without a behaviour test in this package: %s\n",
			strings.Join(missing, ", "))
		code = 1
	}
	if unused := unusedGoldens(); s.Goldens != "" && len(unused) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: golden files no test compares with (delete them from %s): %s\n",
			goldenDir, strings.Join(unused, ", "))
		code = 1
	}
	return code
}

// filtered reports a run of some tests or a fuzz target only (-run,
// -skip, -fuzz): it cannot tell whether every route has a test.
func filtered() bool {
	for _, name := range []string{"test.run", "test.fuzz", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	return false
}

// unexercised lists the named routes register adds that no request of
// the tests reached.
func unexercised(register func(*mux.Router, *openapi.Registry)) []string {
	if register == nil {
		return nil
	}
	r := mux.NewRouter()
	register(r, openapi.NewRegistry())
	routesHit.Lock()
	defer routesHit.Unlock()
	var missing []string
	_ = r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if name := route.GetName(); name != "" && !routesHit.names[name] {
			missing = append(missing, name)
		}
		return nil
	})
	sort.Strings(missing)
	return missing
}

// root is the repository's folder, found from this file's own path: tests
// run in their package's folder, at any depth.
var root = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}()

// RepoPath is a path inside the repository, from its root: a test reads
// docs, fixtures and scenarios through it wherever its package lives.
func RepoPath(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }

// Testdata is the path of a file of apitest's testdata folder: scenarios
// the tests of several packages load.
func Testdata(name string) string {
	return filepath.Join(root, "sandbox", "internal", "apitest", "testdata", name)
}
