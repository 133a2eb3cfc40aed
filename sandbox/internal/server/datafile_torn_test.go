package server_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// tornScenario is a small world with two accounts to move money between.
const tornScenario = `name: torn
clockStart: 2026-01-15T09:00:00Z
seed: 1
legalEntities:
  - {id: le_torn, name: Torn Co, structure: llc}
keys:
  - {key: sk_test_torn, name: Backend, kind: legal_entity, legalEntityId: le_torn}
accounts:
  - {id: sa_group_tornfrom, legalEntityId: le_torn, name: From, type: debit, balanceCents: 500000}
  - {id: sa_group_tornto, legalEntityId: le_torn, name: To, type: debit, balanceCents: 100000}
`

// tornWorld is a sandbox started on a data file, with what it logged.
type tornWorld struct {
	t    *testing.T
	srv  *server.Server
	logs *bytes.Buffer
}

func startOnFile(t *testing.T, scenarioFile, data string) (*tornWorld, error) {
	t.Helper()
	logs := &bytes.Buffer{}
	srv, err := server.New(
		server.Config{Scenario: scenarioFile, DataPath: data, Durability: store.Never, Log: zerolog.New(logs)},
	)
	if err != nil {
		return nil, err
	}
	return &tornWorld{t: t, srv: srv, logs: logs}, nil
}

func (w *tornWorld) call(method, path, body string) []byte {
	w.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("X-API-Key", "sk_test_torn")
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Idempotency-Key", "torn-1")
	rec := httptest.NewRecorder()
	w.srv.Handler.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		w.t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// balances are the posted balances of the two accounts.
func (w *tornWorld) balances() (from, to int64) {
	w.t.Helper()
	posted := func(id string) int64 {
		var body struct {
			Balances []struct {
				Posted struct{ AmountCents int64 } `json:"posted"`
			} `json:"balances"`
		}
		if err := json.Unmarshal(w.call("GET", "/account/"+id+"/balance", ""), &body); err != nil {
			w.t.Fatal(err)
		}
		return body.Balances[0].Posted.AmountCents
	}
	return posted("sa_group_tornfrom"), posted("sa_group_tornto")
}

// frameEnds are the offsets at which the frames from off on end.
func frameEnds(t *testing.T, file []byte, off int) map[int]bool {
	t.Helper()
	ends := map[int]bool{off: true}
	for off < len(file) {
		off += 12 + int(binary.LittleEndian.Uint32(file[off:]))
		ends[off] = true
	}
	if !ends[len(file)] {
		t.Fatal("the frames do not end at the end of the file")
	}
	return ends
}

// nearFrameEdge reports whether at is within span bytes of the start or the
// end of a frame (a frame starts where the one before it ends).
func nearFrameEdge(ends map[int]bool, at, span int) bool {
	for end := range ends {
		if at >= end-span && at <= end+span {
			return true
		}
	}
	return false
}

// startTorn writes the torn scenario to a new directory and starts a
// sandbox on a new data file beside it.
func startTorn(t *testing.T) (scenarioFile, data string, w *tornWorld) {
	t.Helper()
	dir := t.TempDir()
	scenarioFile = filepath.Join(dir, "torn.yaml")
	if err := os.WriteFile(scenarioFile, []byte(tornScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	data = filepath.Join(dir, "sandbox.db")
	w, err := startOnFile(t, scenarioFile, data)
	if err != nil {
		t.Fatal(err)
	}
	return scenarioFile, data, w
}

// A power loss or a crash can cut the data file anywhere inside the bytes
// a transfer appended. Started on the file cut at each such place, the
// sandbox holds the transfer whole or not at all, every balance adding up
// as before it, and logs what it dropped.
func TestDataFileCutInsideATransfer(t *testing.T) {
	sc, data, w := startTorn(t)
	from0, to0 := w.balances()
	before := fileBytes(t, data)
	w.call("POST", "/transfers/book-transfer", `{"from":"sa_group_tornfrom","to":"sa_group_tornto","amountCents":12345}`)
	after := fileBytes(t, data)
	if from1, to1 := w.balances(); from1 != from0-12345 || to1 != to0+12345 {
		t.Fatalf("the transfer moved %d, %d", from1-from0, to1-to0)
	}
	w.srv.Engine.Close()
	if !bytes.HasPrefix(after, before) || len(after) == len(before) {
		t.Fatal("the transfer did not append to the file")
	}
	ends := frameEnds(t, after, len(before))
	appended := len(after) - len(before)
	cut := filepath.Join(filepath.Dir(data), "cut.db")
	for i := 0; i <= appended; i++ {
		// Every byte of each frame's header and of the bytes around each
		// frame's end, where a cut parts a length from what it counts, and
		// one byte in 32 of the payloads between.
		if !nearFrameEdge(ends, len(before)+i, 16) && i%32 != 0 {
			continue
		}
		at := len(before) + i
		if err := os.WriteFile(cut, after[:at], 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := startOnFile(t, sc, cut)
		if err != nil {
			t.Fatalf("cut at %d: %v", at, err)
		}
		from, to := w.balances()
		w.srv.Engine.Close()
		moved := from0 - from
		if from+to != from0+to0 || (moved != 0 && moved != 12345) {
			t.Fatalf("cut at byte %d of %d: balances %d + %d, were %d + %d", at, len(after), from, to, from0, to0)
		}
		if i == appended && moved != 12345 {
			t.Fatal("the whole file lost the transfer")
		}
		logged := strings.Contains(w.logs.String(), fmt.Sprintf(`"dropped_bytes":%d`, at-lastEnd(ends, at)))
		if logged == ends[at] {
			t.Fatalf("cut at byte %d (a frame ends there: %v): the log says %s", at, ends[at], w.logs)
		}
		if kept := fileSize(t, cut); kept != int64(lastEnd(ends, at)) {
			t.Fatalf("cut at byte %d: the file was left %d bytes long, want %d", at, kept, lastEnd(ends, at))
		}
	}
}

// lastEnd is the last frame end at or before at.
func lastEnd(ends map[int]bool, at int) int {
	for !ends[at] {
		at--
	}
	return at
}

func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// A byte changed in the middle of the data file is not a write cut short:
// the sandbox refuses to start and says where the file is damaged; reset
// starts it afresh.
func TestDataFileDamagedInTheMiddle(t *testing.T) {
	sc, data, w := startTorn(t)
	middle := fileSize(t, data) / 2
	w.call("POST", "/transfers/book-transfer", `{"from":"sa_group_tornfrom","to":"sa_group_tornto","amountCents":12345}`)
	w.srv.Engine.Close()
	file := fileBytes(t, data)
	file[middle] ^= 0x20
	if err := os.WriteFile(data, file, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := startOnFile(t, sc, data)
	var damaged *store.DamagedError
	if !errors.As(err, &damaged) || !errors.Is(err, store.ErrDamaged) {
		t.Fatalf("err = %v, want a damaged data file", err)
	}
	if damaged.Path != data || damaged.Offset > middle || damaged.Offset < middle-rewriteFrame {
		t.Fatalf("damaged at %d, the byte changed is %d: %v", damaged.Offset, middle, err)
	}
	if !strings.Contains(err.Error(),
		fmt.Sprintf("data file %s is damaged at byte %d: a frame fails its checksum", data, damaged.Offset)) {
		t.Fatalf("error: %v", err)
	}
	if again := fileBytes(t, data); !bytes.Equal(again, file) {
		t.Fatal("the refusal changed the file")
	}
	srv, err := server.New(server.Config{Scenario: sc, DataPath: data, ResetData: true, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	w = &tornWorld{t: t, srv: srv}
	if from, to := w.balances(); from != 500000 || to != 100000 {
		t.Fatalf("after a reset: %d, %d", from, to)
	}
	srv.Engine.Close()
}

// rewriteFrame bounds a frame of a rewritten file.
const rewriteFrame = 2 << 20
