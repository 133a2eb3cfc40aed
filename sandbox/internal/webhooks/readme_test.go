package webhooks_test

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// The Go verification code of docs/webhooks.md, exactly
// (TestReadmeGoSnippetIsTheTestedCode checks).

// docs/webhooks.md snippet begins
// verifySlashWebhook checks a delivery's slash-webhook-signature header
// against the raw request body with the sandbox's public key
// (GET /_sandbox/webhooks/public-key?format=pem).
func verifySlashWebhook(publicKeyPEM, body []byte, signature string) error {
	block, _ := pem.Decode(publicKeyPEM)
	if block == nil {
		return errors.New("no PEM block in the public key")
	}
	key, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return err
	}
	rsaKey, ok := key.(*rsa.PublicKey)
	if !ok {
		return errors.New("not an RSA public key")
	}
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return err
	}
	digest := sha256.Sum256(body)
	return rsa.VerifyPKCS1v15(rsaKey, crypto.SHA256, digest[:], sig)
}

// verifyAuthorizationWebhook checks an authorization request's
// x-webhook-signature with the account's signingSecret: the key is the
// base64 after the whsec_ prefix, decoded.
func verifyAuthorizationWebhook(secret string, r *http.Request, body []byte) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return false
	}
	id, ts := r.Header.Get("x-webhook-id"), r.Header.Get("x-webhook-timestamp")
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	want := "v1=" + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(want), []byte(r.Header.Get("x-webhook-signature")))
}

// docs/webhooks.md snippet ends

// readmeBlock returns the first fenced block of a language in the Webhooks
// page, docs/webhooks.md.
func readmeBlock(t *testing.T, lang string) string {
	t.Helper()
	raw, err := os.ReadFile("../../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	section, ok := strings.CutPrefix(string(raw), "# Webhooks\n")
	if !ok {
		t.Fatal("docs/webhooks.md is not the Webhooks page")
	}
	_, rest, ok := strings.Cut(section, "```"+lang+"\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatalf("the Webhooks section has no %s block", lang)
	}
	return block
}

func TestReadmeGoSnippetIsTheTestedCode(t *testing.T) {
	block := readmeBlock(t, "go")
	imports, code, ok := strings.Cut(block, "\n// verifySlashWebhook")
	if !ok {
		t.Fatal("the Webhooks page's Go block lacks verifySlashWebhook")
	}
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, tested, _ := strings.Cut(string(src), "// docs/webhooks.md snippet begins\n")
	tested, _, _ = strings.Cut(tested, "// docs/webhooks.md snippet ends")
	if got, want := strings.TrimSpace("// verifySlashWebhook"+code), strings.TrimSpace(tested); got != want {
		t.Fatalf("docs/webhooks.md's Go code differs from the tested code:\n--- docs/webhooks.md\n%s\n--- tested\n%s", got,
			want)
	}
	for _, line := range strings.Split(imports, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, `"`) && !strings.Contains(string(src), "\t"+line+"\n") {
			t.Errorf("docs/webhooks.md imports %s, which the tested code does not", line)
		}
	}
}

func TestReadmeGoSnippetVerifies(t *testing.T) {
	pemText, err := webhooks.PublicKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"entityId":"card_1","event":"card.update","eventId":"evt_1"}`)
	sig, err := webhooks.Sign(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := verifySlashWebhook([]byte(pemText), body, sig); err != nil {
		t.Fatalf("a real signature does not verify: %v", err)
	}
	if err := verifySlashWebhook([]byte(pemText), append(body, ' '), sig); err == nil {
		t.Fatal("a tampered body verifies")
	}
}

func TestReadmeNodeSnippetVerifies(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	pemText, err := webhooks.PublicKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	body := `{"entityId":"txn_1","event":"aggregated_transaction.update","eventId":"evt_2"}`
	sig, err := webhooks.Sign([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	authBody := `{"event":{"type":"authorization.request","id":"evt_3"}}`
	secret := "whsec_c2FuZGJveCBzZWNyZXQ="
	authSig, err := webhooks.SignAuthorization(secret, "evt_3", "1781532000", []byte(authBody))
	if err != nil {
		t.Fatal(err)
	}
	input, _ := json.Marshal(map[string]any{"pem": pemText, "body": body, "signature": sig, "secret": secret,
		"authBody": authBody, "headers": map[string]string{"x-webhook-id": "evt_3", "x-webhook-timestamp": "1781532000",
			"x-webhook-signature": authSig}})
	script := readmeBlock(t, "js") + `
const input = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
console.log(JSON.stringify([
  verifySlashWebhook(input.pem, Buffer.from(input.body), input.signature),
  verifySlashWebhook(input.pem, Buffer.from(input.body + " "), input.signature),
  verifyAuthorizationWebhook(input.secret, input.headers, Buffer.from(input.authBody)),
  verifyAuthorizationWebhook("whsec_b3RoZXIgc2VjcmV0", input.headers, Buffer.from(input.authBody)),
]));
`
	file := filepath.Join(t.TempDir(), "verify.js")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, file)
	cmd.Stdin = bytes.NewReader(input)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v: %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "[true,false,true,false]" {
		t.Fatalf("node verification = %s, want [true,false,true,false]", got)
	}
}

func TestReadmeShowsThePublicKey(t *testing.T) {
	pemText, err := webhooks.PublicKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	if got := readmeBlock(t, "text"); got != pemText {
		t.Fatalf("docs/webhooks.md's public key is not the signing key's:\n%s\nwant\n%s", got, pemText)
	}
}
