// Package payloadcodec encrypts the payloads Vigil hands to Temporal (alert
// data, e-mail addresses, action parameters and results) with AES-256-GCM,
// so that workflow histories hold ciphertext. Keys come from a keyring:
// the first key encrypts, every key decrypts, so histories of workflows
// that wait for days stay readable after a new key is added.
package payloadcodec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// EnvVar names the environment variable that holds the keyring.
const EnvVar = "VIGIL_PAYLOAD_KEYS"

// Payload metadata written on every encrypted payload.
const (
	// Encoding is the metadata "encoding" of an encrypted payload.
	Encoding = "binary/encrypted"
	// MetadataKeyID names the metadata entry holding the id of the key
	// that encrypted the payload.
	MetadataKeyID = "encryption-key-id"
	// MetadataCipher names the metadata entry holding the cipher.
	MetadataCipher = "encryption-cipher"
	// Cipher is the value of MetadataCipher.
	Cipher = "AES-256-GCM"
)

const keyLen = 32

var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ErrUnknownKey is returned when a payload names a key the keyring lacks.
var ErrUnknownKey = errors.New("payload encrypted with a key not in " + EnvVar)

// Keyring holds the payload keys by id; Current encrypts.
type Keyring struct {
	current string
	keys    map[string]cipher.AEAD
}

// ParseKeyring reads a keyring written as comma-separated id:key pairs,
// each key the base64 encoding of 32 random bytes; the first pair is the
// key that encrypts. An empty spec yields a nil Keyring (no encryption).
func ParseKeyring(spec string) (*Keyring, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	k := &Keyring{keys: map[string]cipher.AEAD{}}
	for i, entry := range strings.Split(spec, ",") {
		id, b64, found := strings.Cut(strings.TrimSpace(entry), ":")
		if !found || !keyIDPattern.MatchString(id) {
			return nil, fmt.Errorf("%s entry %d must be id:base64key with an id of letters, digits, '.', '_' or '-'", EnvVar, i+1)
		}
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil || len(raw) != keyLen {
			return nil, fmt.Errorf("%s key %q must be the base64 encoding of %d bytes (for example: head -c 32 /dev/urandom | base64)", EnvVar, id, keyLen)
		}
		if _, dup := k.keys[id]; dup {
			return nil, fmt.Errorf("%s lists key %q twice", EnvVar, id)
		}
		block, err := aes.NewCipher(raw)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", id, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", id, err)
		}
		k.keys[id] = aead
		if i == 0 {
			k.current = id
		}
	}
	return k, nil
}

// Current is the id of the key that encrypts new payloads.
func (k *Keyring) Current() string { return k.current }

// Codec is a converter.PayloadCodec that encrypts with the keyring's
// current key and decrypts with whichever key a payload names. Payloads
// that were never encrypted pass through Decode unchanged, so histories
// written before encryption was turned on still replay.
type Codec struct{ keys *Keyring }

// NewCodec returns the codec for a keyring.
func NewCodec(keys *Keyring) *Codec { return &Codec{keys: keys} }

var _ converter.PayloadCodec = (*Codec)(nil)

// Encode encrypts each payload, metadata included, into a new payload.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	id := c.keys.current
	aead := c.keys.keys[id]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("marshal payload: %w", err)
		}
		nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
		if _, err := rand.Read(nonce); err != nil {
			return nil, fmt.Errorf("payload nonce: %w", err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				converter.MetadataEncoding: []byte(Encoding),
				MetadataKeyID:              []byte(id),
				MetadataCipher:             []byte(Cipher),
			},
			// The key id is bound as additional data: a payload moved under
			// another id fails to open instead of decrypting as something else.
			Data: aead.Seal(nonce, nonce, plain, []byte(id)),
		}
	}
	return out, nil
}

// Decode decrypts encrypted payloads and returns others as they are.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != Encoding {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.keys.keys[id]
		if !ok {
			return nil, fmt.Errorf("%w: key id %q", ErrUnknownKey, id)
		}
		data := p.GetData()
		if len(data) < aead.NonceSize() {
			return nil, fmt.Errorf("encrypted payload too short")
		}
		plain, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], []byte(id))
		if err != nil {
			return nil, fmt.Errorf("decrypt payload with key %q: %w", id, err)
		}
		var decoded commonpb.Payload
		if err := proto.Unmarshal(plain, &decoded); err != nil {
			return nil, fmt.Errorf("unmarshal decrypted payload: %w", err)
		}
		out[i] = &decoded
	}
	return out, nil
}

// DataConverter wraps the SDK's default converter with the codec; a nil
// codec returns the default converter unchanged.
func DataConverter(c *Codec) converter.DataConverter {
	if c == nil {
		return converter.GetDefaultDataConverter()
	}
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// FailureConverter moves failure messages and stack traces into an
// encoded attribute, so error texts that quote alert data are encrypted
// as well; a nil codec returns the default failure converter.
func FailureConverter(c *Codec) converter.FailureConverter {
	if c == nil {
		return temporal.GetDefaultFailureConverter()
	}
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter:          DataConverter(c),
		EncodeCommonAttributes: true,
	})
}
