// Package secrets encrypts small secrets at rest, such as an LLM API key
// kept in the settings table, with AES-256-GCM under a key taken from the
// VIGIL_SECRET_KEY environment variable.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// EnvVar names the environment variable that holds the secret key.
const EnvVar = "VIGIL_SECRET_KEY"

// MinPassphraseLen is the shortest passphrase NewBox accepts, in characters.
const MinPassphraseLen = 16

const (
	keyLen = 32
	// prefix versions the sealed format so the cipher or encoding can
	// change later without guessing what an old value is.
	prefix = "v1:"
	// hkdfInfo binds passphrase-derived keys to this use, so the same
	// passphrase reused elsewhere does not yield the same key.
	hkdfInfo = "vigil settings v1"
)

// Sentinel errors; callers test them with errors.Is.
var (
	// ErrNoKey means no key was configured (the Box is nil).
	ErrNoKey = errors.New("VIGIL_SECRET_KEY is not set")
	// ErrMalformed means a sealed value is not in the v1 format.
	ErrMalformed = errors.New("malformed sealed value")
	// ErrDecrypt means a sealed value failed authentication: it was sealed
	// under another key or another context, or it was altered.
	ErrDecrypt = errors.New("cannot decrypt sealed value: wrong key, wrong context or tampered data")
)

// Box seals and opens secrets under one key. A nil *Box is valid and
// answers every call with ErrNoKey, so callers can hold one whether or not a
// key is configured. A Box is safe for concurrent use.
type Box struct {
	aead cipher.AEAD
}

// NewBox builds a Box from key, which is either the base64 encoding (std or
// URL alphabet, padded or not) of exactly 32 random bytes, or a passphrase
// of at least MinPassphraseLen characters that is stretched to 32 bytes with
// HKDF-SHA256. HKDF does not slow down guessing, so a passphrase should be
// long and random rather than memorable.
func NewBox(key string) (*Box, error) {
	key = strings.TrimSpace(key)
	raw, ok := decodeKey(key)
	if !ok {
		if utf8.RuneCountInString(key) < MinPassphraseLen {
			return nil, fmt.Errorf("%s must be the base64 encoding of %d bytes or a passphrase of at least %d characters",
				EnvVar, keyLen, MinPassphraseLen)
		}
		derived, err := hkdf.Key(sha256.New, []byte(key), nil, hkdfInfo, keyLen)
		if err != nil {
			return nil, fmt.Errorf("derive key: %w", err)
		}
		raw = derived
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, fmt.Errorf("create cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("create gcm: %w", err)
	}
	return &Box{aead: aead}, nil
}

// FromEnv builds a Box from VIGIL_SECRET_KEY. It returns a nil Box and no
// error when the variable is unset or blank, so the service can run without
// stored secrets.
func FromEnv() (*Box, error) {
	key := os.Getenv(EnvVar)
	if strings.TrimSpace(key) == "" {
		return nil, nil
	}
	return NewBox(key)
}

// decodeKey reports whether key is base64 for exactly keyLen bytes in any
// of the common alphabets and padding styles.
func decodeKey(key string) ([]byte, bool) {
	for _, enc := range []*base64.Encoding{
		base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding,
	} {
		if b, err := enc.DecodeString(key); err == nil && len(b) == keyLen {
			return b, true
		}
	}
	return nil, false
}

// Seal encrypts plaintext and returns "v1:" followed by the unpadded
// base64url encoding of nonce||ciphertext. context names what the secret is
// for (for example "llm.api_key") and must be given again to Open, so a
// sealed value copied into another field will not open there.
func (b *Box) Seal(plaintext, context string) (string, error) {
	if b == nil {
		return "", ErrNoKey
	}
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plaintext)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("read nonce: %w", err)
	}
	out := b.aead.Seal(nonce, nonce, []byte(plaintext), []byte(context))
	return prefix + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts a value produced by Seal with the same key and context.
func (b *Box) Open(sealed, context string) (string, error) {
	if b == nil {
		return "", ErrNoKey
	}
	body, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		return "", fmt.Errorf("%w: missing %q prefix", ErrMalformed, prefix)
	}
	// Tolerate padding so a value re-encoded by hand still opens.
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(body, "="))
	if err != nil {
		return "", fmt.Errorf("%w: invalid base64: %v", ErrMalformed, err)
	}
	n := b.aead.NonceSize()
	if len(raw) < n+b.aead.Overhead() {
		return "", fmt.Errorf("%w: too short", ErrMalformed)
	}
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], []byte(context))
	if err != nil {
		return "", ErrDecrypt
	}
	return string(plain), nil
}
