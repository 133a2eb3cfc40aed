package cli

import (
	"encoding/json"
	"net"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// finalStage is the instructions of a Dockerfile's last stage, comments
// and blank lines left out.
func finalStage(t *testing.T, name string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	var stage []string
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "FROM "):
			stage = nil
		case line != "" && !strings.HasPrefix(line, "#"):
			stage = append(stage, line)
		}
	}
	return stage
}

// configLines are the instructions that set the image's configuration.
func configLines(stage []string) []string {
	var out []string
	for _, line := range stage {
		word, _, _ := strings.Cut(line, " ")
		if slices.Contains([]string{"USER", "ENV", "EXPOSE", "HEALTHCHECK", "ENTRYPOINT"}, word) {
			out = append(out, line)
		}
	}
	return out
}

// The release image (built by GoReleaser from its binaries) is configured
// as the image built from source, and both check their health with a
// command the program has, in the exec form scratch needs.
func TestImagesAgree(t *testing.T) {
	source, release := finalStage(t, "Dockerfile"), finalStage(t, "Dockerfile.release")
	if got, want := configLines(release), configLines(source); !slices.Equal(got, want) {
		t.Fatalf("Dockerfile.release configures\n%s\nDockerfile\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for name, stage := range map[string][]string{"Dockerfile": source, "Dockerfile.release": release} {
		var health, data bool
		for _, line := range stage {
			if cmd, ok := strings.CutPrefix(line, "HEALTHCHECK "); ok {
				_, exec, found := strings.Cut(cmd, "CMD ")
				var args []string
				if err := json.Unmarshal([]byte(exec), &args); !found || err != nil || len(args) < 2 {
					t.Fatalf("%s: %q is not an exec-form HEALTHCHECK CMD [...]", name, line)
				}
				root, _ := (&Program{Getenv: func(string) string { return "" }}).root()
				if cmd, rest, err := root.Find(args[1:]); args[0] != "/slash-sandbox" || err != nil || cmd == root ||
					len(rest) > 0 {
					t.Errorf("%s: HEALTHCHECK runs %v, not a command of /slash-sandbox", name, args)
				}
				health = true
			}
			data = data ||
				(strings.HasPrefix(line, "COPY ") && strings.Contains(line, "--chown=65532:65532") &&
					strings.HasSuffix(line, " /data"))
		}
		if !health {
			t.Errorf("%s has no HEALTHCHECK", name)
		}
		if !data {
			t.Errorf("%s gives the server's user no /data to keep its state in", name)
		}
	}
}

// composeFile is what the test reads of docs/compose.yaml.
type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Ports       []string          `yaml:"ports"`
		Environment map[string]string `yaml:"environment"`
		Volumes     []string          `yaml:"volumes"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

// docs/compose.yaml runs the published image with a scenario mounted
// read-only and the data file on a named volume, through environment
// variables the program has; run here with its paths moved to a temporary
// directory, that environment serves the scenario from the data file.
func TestComposeFileRunsTheProgram(t *testing.T) {
	var c composeFile
	readYAML(t, "docs/compose.yaml", &c)
	svc, ok := c.Services["sandbox"]
	if !ok {
		t.Fatalf("docs/compose.yaml has no sandbox service: %v", c.Services)
	}

	image, tag, _ := strings.Cut(svc.Image, ":")
	if released := releasedImage(t); image != released || tag != "latest" {
		t.Errorf("image %q is not the released %s:latest", svc.Image, released)
	}

	help := runProgram(t, nil, "serve", "-h")
	twins := map[string]bool{}
	for _, m := range regexp.MustCompile(`\((SANDBOX_[A-Z_]+)\)`).FindAllStringSubmatch(help.stdout, -1) {
		twins[m[1]] = true
	}
	if help.code != 0 || !twins["SANDBOX_DATA"] {
		t.Fatalf("serve -h = %d %q", help.code, help.stdout)
	}
	for name := range svc.Environment {
		if !twins[name] {
			t.Errorf("environment %s is no serve flag's twin (serve -h names %v)", name, twins)
		}
	}

	scenarioPath, dataPath := svc.Environment["SANDBOX_SCENARIO"], svc.Environment["SANDBOX_DATA"]
	mounts := map[string][]string{} // container path → source, mode
	for _, v := range svc.Volumes {
		parts := strings.Split(v, ":")
		mounts[parts[1]] = append([]string{parts[0]}, parts[2:]...)
	}
	if m := mounts[scenarioPath]; len(m) != 2 || !strings.HasPrefix(m[0], "./") || m[1] != "ro" {
		t.Errorf("SANDBOX_SCENARIO=%s is not a file of the project mounted read-only: %v", scenarioPath, svc.Volumes)
	}
	if m := mounts[path.Dir(dataPath)]; len(m) != 1 || !hasKey(c.Volumes, m[0]) {
		t.Errorf("SANDBOX_DATA=%s is not on a named volume: %v (volumes %v)", dataPath, svc.Volumes, c.Volumes)
	}

	var imageAddr string
	for _, line := range configLines(finalStage(t, "Dockerfile")) {
		if v, ok := strings.CutPrefix(line, "ENV SANDBOX_ADDR="); ok {
			imageAddr = v
		}
	}
	_, port, _ := net.SplitHostPort(imageAddr)
	if len(svc.Ports) != 1 || !strings.HasSuffix(svc.Ports[0], ":"+port) {
		t.Errorf("ports %v do not publish the image's port %s (SANDBOX_ADDR=%s)", svc.Ports, port, imageAddr)
	}

	dir := t.TempDir()
	env := map[string]string{"SANDBOX_ADDR": "127.0.0.1:0", "SANDBOX_LOG_LEVEL": "warn"}
	for k, v := range svc.Environment {
		env[k] = v
	}
	env["SANDBOX_SCENARIO"] = filepath.Join(dir, path.Base(scenarioPath))
	env["SANDBOX_DATA"] = filepath.Join(dir, path.Base(dataPath))
	scenario := "name: mine\nlegalEntities:\n  - {id: le_mine, name: Mine Inc.}\nkeys:\n  - {key: sk_mine, kind:" +
		" legal_entity, legalEntityId: le_mine}\n"
	if err := os.WriteFile(env["SANDBOX_SCENARIO"], []byte(scenario), 0o444); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second start finds the world in the data file
		s := startProgram(t, env)
		h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health", "")
		if h["scenario"] != "mine" || h["persistent"] != true {
			t.Fatalf("health = %v", h)
		}
		s.stop(t)
	}
}

// releasedImage is the one image .goreleaser.yaml publishes.
func releasedImage(t *testing.T) string {
	t.Helper()
	var release struct {
		Dockers []struct {
			Images []string `yaml:"images"`
		} `yaml:"dockers_v2"`
	}
	readYAML(t, ".goreleaser.yaml", &release)
	if len(release.Dockers) != 1 || len(release.Dockers[0].Images) != 1 {
		t.Fatalf(".goreleaser.yaml publishes %v, not one image", release.Dockers)
	}
	return release.Dockers[0].Images[0]
}

func readYAML(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// The README installs this command by its module path and runs the image
// the release publishes.
func TestReadmeInstallsWhatIsReleased(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(raw)
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil || module == nil {
		t.Fatalf("go.mod module %q, README: %v", module, err)
	}
	for _, want := range []string{
		"go install " + string(module[1]) + "/cmd/slash-sandbox@latest\n",
		"go install ./cmd/slash-sandbox ",
		"docker run -p 8080:8080 " + releasedImage(t) + "\n",
		"docker build -t slash-sandbox .\n",
	} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README.md does not show %q", want)
		}
	}
}
