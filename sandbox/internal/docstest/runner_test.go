package docstest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlocksReadMarkers: a page's fenced blocks come out with their
// language, the line of their fence and the comment on the line before.
func TestBlocksReadMarkers(t *testing.T) {
	page := filepath.Join(t.TempDir(), "page.md")
	text := "# Page\n\n<!-- not run: needs Docker -->\n```sh\ndocker run x\n```\n\n```json\n{}\n```\n"
	if err := os.WriteFile(page, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bs, err := blocks(page)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(bs), 2; got != want {
		t.Fatalf("%d blocks, want %d", got, want)
	}
	if b := bs[0]; b.line != 4 || b.lang != "sh" || b.marker != "not run: needs Docker" || b.text != "docker run x\n" {
		t.Errorf("first block = %+v", b)
	}
	if b := bs[1]; b.line != 8 || b.lang != "json" || b.marker != "" {
		t.Errorf("second block = %+v", b)
	}
}

// TestPlanRefusesWhatItCannotRun: a block without a marker in a language
// the runner does not run, a marker it does not know and a "not run"
// without a reason each fail, naming the file and line.
func TestPlanRefusesWhatItCannotRun(t *testing.T) {
	for _, c := range []struct {
		name string
		b    block
		want string // the kind, or the error's text
	}{
		{"shell", block{lang: "sh"}, "sh"},
		{"a JavaScript block without a marker", block{file: "docs/x.md", line: 7, lang: "js"},
			`docs/x.md:7: a "js" block the runner does not run`},
		{"a bare fence without a marker", block{file: "docs/x.md", line: 3}, `docs/x.md:3: a "" block`},
		{"not run, no reason", block{file: "docs/x.md", line: 9, lang: "sh", marker: "not run"},
			"docs/x.md:9: a block not run says why"},
		{"an unknown marker", block{file: "README.md", line: 2, lang: "sh", marker: "skip"},
			`README.md:2: unknown marker "skip"`},
		{"not run, with a reason", block{lang: "sh", marker: "not run: needs Docker"}, "skip"},
		{"a Go recipe", block{lang: "go", marker: "go test: stand-ins slashclient"}, "go test"},
		{"run by a test", block{lang: "go", marker: "run by sandbox/internal/webhooks/readme_test.go"}, "run by"},
	} {
		t.Run(c.name, func(t *testing.T) {
			kind, _, err := plan(c.b)
			got := kind
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("plan = %q, want %q", got, c.want)
			}
		})
	}
}

// TestCommands: continued lines and open quotes join a command; `# →`
// lines, with their continuations, are what it prints.
func TestCommands(t *testing.T) {
	b := block{line: 10, text: "# a comment\ncurl -s -XPOST x \\\n  -d '{\n  \"a\":1}'\n" +
		"# → {\"a\":[1,\n#    2]}\ncurl -s -i y\n# → HTTP/1.1 403 Forbidden\n#   X-Id: dfa_…\n"}
	cs := commands(b)
	if len(cs) != 2 {
		t.Fatalf("%d commands: %+v", len(cs), cs)
	}
	if got, want := cs[0].text, "curl -s -XPOST x \\\n  -d '{\n  \"a\":1}'"; got != want {
		t.Errorf("first command = %q, want %q", got, want)
	}
	if got, want := cs[0].line, 12; got != want {
		t.Errorf("first command's line = %d, want %d", got, want)
	}
	if got, want := strings.Join(cs[0].want, "|"), `{"a":[1,2]}`; got != want {
		t.Errorf("first output = %q, want %q", got, want)
	}
	if got, want := strings.Join(cs[1].want, "|"), "HTTP/1.1 403 Forbidden|X-Id: dfa_…"; got != want {
		t.Errorf("second output = %q, want %q", got, want)
	}
}

// TestOutputShows: shown output with elisions covers the real answer when
// every field it shows is there with its value, in any order, and not
// otherwise.
func TestOutputShows(t *testing.T) {
	real := `{"id":"w1","scenario":"demo","clock":{"now":"x"},"keys":[{"key":"k_w1","kind":"a"},{"key":"k2_w1"}],` +
		`"events":[{"kind":"tick"},{"kind":"ach.settle","summary":"ACH txn_12 settled"}]}`
	for _, c := range []struct {
		shown string
		want  bool
	}{
		{`{"id":"w1", "keys":[{"key":"k_w1",…}, …], "clock":{…}}`, true},
		{`{…,"events":[…,{"kind":"ach.settle","summary":"ACH txn_… settled",…},…],…}`, true},
		{`{"id":"w2",…}`, false},
		{`{"id":"w1","missing":true}`, false},
		{`{…,"events":[{"kind":"ach.settle"},{"kind":"tick"}]}`, false}, // items in their order
		{`{"keys":[{"key":"k_…"}]}`, true},
	} {
		if got := outputShows(real, c.shown); got != c.want {
			t.Errorf("outputShows(%s) = %v, want %v", c.shown, got, c.want)
		}
	}
	headers := "HTTP/1.1 403 Forbidden\r\nX-Deferred-Action-Id: dfa_9\r\n\r\n{\"error\":\"Action requires approval\"}"
	for shown, want := range map[string]bool{
		"HTTP/1.1 403 Forbidden": true, "X-Deferred-Action-Id: dfa_…": true, `{"error":"Action requires …"}`: true,
		"HTTP/1.1 200 OK": false,
	} {
		if got := outputShows(headers, shown); got != want {
			t.Errorf("outputShows(headers, %s) = %v, want %v", shown, got, want)
		}
	}
}

// TestIdsFill: an elided id in a command is the last id of its prefix an
// earlier output showed; one no output showed stays as written.
func TestIdsFill(t *testing.T) {
	var s ids
	s.note(`{"transferId":"transfer_1","transactionId":"txn_a1"}`)
	s.note(`{"id":"txn_b2","infoRequest":"le_c_info_req_z9"}`)
	got := s.fill("curl x/transaction/txn_… -d '{\"informationRequestId\":\"le_c_info_req_…\",\"d\":\"dfa_…\"}'")
	want := "curl x/transaction/txn_b2 -d '{\"informationRequestId\":\"le_c_info_req_z9\",\"d\":\"dfa_…\"}'"
	if got != want {
		t.Errorf("fill = %q, want %q", got, want)
	}
}

// TestGoFile: a recipe of statements becomes a test function, its
// variables used and the packages it names imported.
func TestGoFile(t *testing.T) {
	src, err := goFile("import \"example.test/x\"\n\nsb := sandboxtest.Start(t, x.Options{})\nurl := sb.URL\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"func TestRecipe(t *testing.T) {", "_ = sb", "_ = url", `"testing"`,
		`"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"`, `import "example.test/x"`} {
		if !strings.Contains(src, want) {
			t.Errorf("the file lacks %q:\n%s", want, src)
		}
	}
}

// TestMergeScenarios: an addition's lists join the lists of the scenario
// above; its other keys are added.
func TestMergeScenarios(t *testing.T) {
	got, err := mergeScenarios("name: a\ninvoices:\n  - {number: INV-1}\n",
		"invoices:\n  - {number: INV-2}\nwebhooks:\n  - {url: x}\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"INV-1", "INV-2", "webhooks:"} {
		if !strings.Contains(got, want) {
			t.Errorf("merged scenario lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "invoices:") != 1 {
		t.Errorf("merged scenario has two invoices lists:\n%s", got)
	}
}
