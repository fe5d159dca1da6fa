package content

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
)

// AlgorithmEd25519 is the only signature algorithm packages use.
const AlgorithmEd25519 = "ed25519"

// Signature is a publisher's ed25519 signature over the package's
// canonical form (see Canonical), with the public key that made it.
type Signature struct {
	Algorithm string `json:"algorithm"`
	// PublicKey is the signer's ed25519 public key, standard base64.
	PublicKey string `json:"public_key"`
	// Value is the signature, standard base64.
	Value string `json:"value"`
}

// TrustedKey is a publisher key the installation accepts signatures from.
type TrustedKey struct {
	Name      string `json:"name"`
	PublicKey string `json:"public_key"`
}

// Signature failures.
var (
	ErrUnsigned     = errors.New("package is not signed")
	ErrBadSignature = errors.New("package signature does not match its contents")
	ErrUnknownKey   = errors.New("package is signed by a key that is not trusted here")
)

// Canonical is the byte form a signature covers: the manifest and the
// contents as compact JSON with the keys of every object sorted. Spacing,
// key order and the signature itself do not change it.
func Canonical(p *Package) ([]byte, error) {
	typed, err := json.Marshal(struct {
		Manifest Manifest `json:"manifest"`
		Contents []Item   `json:"contents"`
	}{p.Manifest, p.Contents})
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(typed))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(generic); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Sign signs p with key, replacing any signature it had.
func Sign(p *Package, key ed25519.PrivateKey) error {
	p.Signature = nil
	msg, err := Canonical(p)
	if err != nil {
		return err
	}
	pub := key.Public().(ed25519.PublicKey)
	p.Signature = &Signature{Algorithm: AlgorithmEd25519, PublicKey: base64.StdEncoding.EncodeToString(pub),
		Value: base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg))}
	return nil
}

// Verify checks p's signature against the trusted keys and returns the
// name of the key that made it.
func Verify(p *Package, trusted []TrustedKey) (string, error) {
	sig := p.Signature
	if sig == nil || sig.Value == "" {
		return "", ErrUnsigned
	}
	if sig.Algorithm != AlgorithmEd25519 {
		return "", fmt.Errorf("%w: algorithm %q is not %s", ErrBadSignature, sig.Algorithm, AlgorithmEd25519)
	}
	name := ""
	for _, k := range trusted {
		if k.PublicKey == sig.PublicKey {
			name = k.Name
			break
		}
	}
	if name == "" {
		return "", ErrUnknownKey
	}
	pub, err := base64.StdEncoding.DecodeString(sig.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return "", fmt.Errorf("%w: public key is not a base64 ed25519 key", ErrBadSignature)
	}
	value, err := base64.StdEncoding.DecodeString(sig.Value)
	if err != nil {
		return "", fmt.Errorf("%w: value is not base64", ErrBadSignature)
	}
	msg, err := Canonical(p)
	if err != nil {
		return "", err
	}
	if !ed25519.Verify(ed25519.PublicKey(pub), msg, value) {
		return "", ErrBadSignature
	}
	return name, nil
}

// ParsePrivateKey reads an ed25519 private key from PEM (PKCS #8, as
// "openssl genpkey -algorithm ed25519" writes it).
func ParsePrivateKey(pemText []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(pemText)
	if block == nil {
		return nil, errors.New("key file holds no PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("read private key: %w", err)
	}
	ed, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("key is a %T, not an ed25519 key", key)
	}
	return ed, nil
}

// MarshalPrivateKey writes key as PKCS #8 PEM.
func MarshalPrivateKey(key ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}
