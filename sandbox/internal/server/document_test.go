package server_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// TestDocumentIsTheServedOne: the document built without serving is the
// one a sandbox of the same assembly answers GET /openapi.json with, byte
// for byte, so what drift holds production to is what the sandbox serves.
func TestDocumentIsTheServedOne(t *testing.T) {
	built, err := server.Document(apitest.WithAll(server.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	e := apitest.New(t, apitest.Options{})
	res, err := http.Get(e.Server.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	served, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /openapi.json = %d %v", res.StatusCode, err)
	}
	if !bytes.Equal(built, served) {
		t.Errorf("server.Document (%d bytes) is not GET /openapi.json (%d bytes)", len(built), len(served))
	}
	if !bytes.Contains(built, []byte(`"operationId":"card.get"`)) {
		t.Errorf("the document has no card.get: %.200s", built)
	}
}
