package webhooks

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// Delivery headers. The signature header is the real service's; the others
// are the sandbox's own names for what a receiver needs.
const (
	// HeaderSignature is base64(RSASSA-PKCS1-v1_5(SHA-256(raw body))).
	HeaderSignature = "slash-webhook-signature"
	// HeaderDeliveryID names the delivery (new for every redelivery).
	HeaderDeliveryID = "slash-webhook-delivery-id"
	// HeaderEventID repeats the body's eventId: deduplicate on it.
	HeaderEventID = "slash-webhook-event-id"
	// HeaderEvent repeats the body's event type.
	HeaderEvent = "slash-webhook-event"
	// HeaderTimestamp is the virtual time of the attempt, Unix seconds. It
	// is not signed (the signature covers the body alone).
	HeaderTimestamp = "slash-webhook-timestamp"
	// HeaderAttempt numbers the attempt, from 1.
	HeaderAttempt = "slash-webhook-attempt"
)

// SignatureAlgorithm names the delivery signature scheme.
const SignatureAlgorithm = "RSASSA-PKCS1-v1_5 with SHA-256 over the raw request body, base64 (standard alphabet," +
	" padded)"

var signingKey = sync.OnceValues(func() (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(fixtures.WebhookSigningKeyPEM)
	if block == nil {
		return nil, errors.New("webhook signing key: no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("webhook signing key: %w", err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("webhook signing key: not an RSA key")
	}
	return rk, nil
})

// Sign returns the slash-webhook-signature value of a body.
func Sign(body []byte) (string, error) {
	key, err := signingKey()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(body)
	sig, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(sig), nil
}

// Verify checks a slash-webhook-signature value against a body.
func Verify(pub *rsa.PublicKey, body []byte, signature string) error {
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return fmt.Errorf("signature is not base64: %w", err)
	}
	sum := sha256.Sum256(body)
	return rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], sig)
}

// PublicKey returns the public half of the signing key.
func PublicKey() (*rsa.PublicKey, error) {
	key, err := signingKey()
	if err != nil {
		return nil, err
	}
	return &key.PublicKey, nil
}

// PublicKeyPEM returns the public key as a PEM "PUBLIC KEY" (SPKI) block.
func PublicKeyPEM() (string, error) {
	pub, err := PublicKey()
	if err != nil {
		return "", err
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})), nil
}

// JWK is the public key as a JSON Web Key.
type JWK struct {
	Kty string `json:"kty"`
	N   string `json:"n"`
	E   string `json:"e"`
	Alg string `json:"alg"`
	Use string `json:"use"`
	Kid string `json:"kid"`
}

// PublicJWK returns the public key as a JWK whose kid is its RFC 7638
// thumbprint.
func PublicJWK() (JWK, error) {
	pub, err := PublicKey()
	if err != nil {
		return JWK{}, err
	}
	var e [8]byte
	binary.BigEndian.PutUint64(e[:], uint64(pub.E))
	eb := new(big.Int).SetBytes(e[:]).Bytes()
	j := JWK{Kty: "RSA", N: base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		E: base64.RawURLEncoding.EncodeToString(eb), Alg: "RS256", Use: "sig"}
	canon, err := json.Marshal(struct {
		E   string `json:"e"`
		Kty string `json:"kty"`
		N   string `json:"n"`
	}{j.E, j.Kty, j.N})
	if err != nil {
		return JWK{}, err
	}
	sum := sha256.Sum256(canon)
	j.Kid = base64.RawURLEncoding.EncodeToString(sum[:])
	return j, nil
}
