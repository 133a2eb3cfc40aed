package mcp

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// The RSA keys card data is encrypted for: a modulus of minRSABits to
// maxRSABits bits and an odd public exponent from 3 to maxRSAExponent
// (65537 in practice). A larger modulus costs more to encrypt with than a
// call is worth (a million bits: over a minute a card); a smaller one or
// an exponent of 1 protects nothing.
const (
	minRSABits     = 2048
	maxRSABits     = 4096
	maxRSAExponent = 1<<31 - 1
)

// parsePublicKey reads an RSA public key as the docs ask for it: the
// base64 of its DER (SubjectPublicKeyInfo, what `openssl rsa -pubout`
// writes between the PEM markers; a PKCS #1 key is accepted too), and
// refuses a key outside the sizes and exponents above.
func parsePublicKey(raw string) (*rsa.PublicKey, error) {
	key, err := decodePublicKey(raw)
	if err != nil {
		return nil, err
	}
	accepted := fmt.Sprintf("give an RSA key of %d to %d bits with the public exponent 65537 "+
		"(an odd exponent of at least 3)", minRSABits, maxRSABits)
	switch bits := key.N.BitLen(); {
	case bits < minRSABits || bits > maxRSABits:
		return nil, fmt.Errorf("the key's modulus has %d bits: %s", bits, accepted)
	case key.N.Bit(0) == 0:
		return nil, fmt.Errorf("the key's modulus is even: %s", accepted)
	case key.E < 3 || key.E%2 == 0 || key.E > maxRSAExponent:
		return nil, fmt.Errorf("the key's public exponent is %d: %s", key.E, accepted)
	}
	return key, nil
}

// decodePublicKey reads the base64 DER of an RSA public key.
func decodePublicKey(raw string) (*rsa.PublicKey, error) {
	raw = strings.Join(strings.Fields(raw), "")
	if strings.Contains(raw, "-----") {
		return nil, errors.New("send the base64 between the PEM markers, without the markers")
	}
	der, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		if der, err = base64.RawStdEncoding.DecodeString(raw); err != nil {
			return nil, errors.New("not base64")
		}
	}
	if pub, err := x509.ParsePKIXPublicKey(der); err == nil {
		key, ok := pub.(*rsa.PublicKey)
		if !ok {
			return nil, errors.New("not an RSA key")
		}
		return key, nil
	}
	key, err := x509.ParsePKCS1PublicKey(der)
	if err != nil {
		return nil, errors.New("not an RSA public key in DER (SubjectPublicKeyInfo)")
	}
	return key, nil
}

// sensitive are the properties encrypted for a client that sent a key.
var sensitive = map[string]bool{"pan": true, "cvv": true}

// encryptCardData replaces every pan and cvv string in a JSON value with
// its RSA-OAEP encryption, base64. The hash is SHA-1, OpenSSL's default,
// so the docs' `openssl pkeyutl -decrypt -pkeyopt rsa_padding_mode:oaep`
// decrypts it as written.
func encryptCardData(v any, key *rsa.PublicKey) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if s, ok := val.(string); ok && sensitive[k] {
				ct, err := rsa.EncryptOAEP(sha1.New(), rand.Reader, key, []byte(s), nil)
				if err != nil {
					return nil, err
				}
				t[k] = base64.StdEncoding.EncodeToString(ct)
				continue
			}
			enc, err := encryptCardData(val, key)
			if err != nil {
				return nil, err
			}
			t[k] = enc
		}
	case []any:
		for i := range t {
			enc, err := encryptCardData(t[i], key)
			if err != nil {
				return nil, err
			}
			t[i] = enc
		}
	}
	return v, nil
}
