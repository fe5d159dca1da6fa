package payloadcodec_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"github.com/vigil-soc/vigil/payloadcodec"
)

func key(fill byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{fill}, 32)) }

func mustKeyring(t *testing.T, spec string) *payloadcodec.Keyring {
	t.Helper()
	k, err := payloadcodec.ParseKeyring(spec)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestRoundTripKeepsMetadataAndHidesPlaintext(t *testing.T) {
	c := payloadcodec.NewCodec(mustKeyring(t, "k1:"+key(1)))
	dc := payloadcodec.DataConverter(c)
	p, err := dc.ToPayload(map[string]string{"sender": "ceo@corp.example"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(p.Data, []byte("ceo@corp.example")) {
		t.Fatal("plaintext in encoded payload")
	}
	if got := string(p.Metadata["encoding"]); got != payloadcodec.Encoding {
		t.Fatalf("encoding %q", got)
	}
	if got := string(p.Metadata[payloadcodec.MetadataKeyID]); got != "k1" {
		t.Fatalf("key id %q", got)
	}
	var back map[string]string
	if err := dc.FromPayload(p, &back); err != nil {
		t.Fatal(err)
	}
	if back["sender"] != "ceo@corp.example" {
		t.Fatalf("round trip gave %v", back)
	}
}

func TestRotationOldKeysStillDecrypt(t *testing.T) {
	old := payloadcodec.NewCodec(mustKeyring(t, "k1:"+key(1)))
	enc, err := old.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"x"`)}})
	if err != nil {
		t.Fatal(err)
	}
	rotated := payloadcodec.NewCodec(mustKeyring(t, "k2:"+key(2)+", k1:"+key(1)))
	dec, err := rotated.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	if string(dec[0].Data) != `"x"` || string(dec[0].Metadata["encoding"]) != "json/plain" {
		t.Fatalf("decoded %v", dec[0])
	}
	fresh, _ := rotated.Encode(dec)
	if got := string(fresh[0].Metadata[payloadcodec.MetadataKeyID]); got != "k2" {
		t.Fatalf("new payloads use %q, want the first key k2", got)
	}
	// A keyring that dropped k1 names the key it misses.
	_, err = payloadcodec.NewCodec(mustKeyring(t, "k2:"+key(2))).Decode(enc)
	if !errors.Is(err, payloadcodec.ErrUnknownKey) || !strings.Contains(err.Error(), `"k1"`) {
		t.Fatalf("decode without k1: %v", err)
	}
}

func TestPlainPayloadsPassThrough(t *testing.T) {
	c := payloadcodec.NewCodec(mustKeyring(t, "k1:"+key(1)))
	plain, _ := converter.GetDefaultDataConverter().ToPayload("hello")
	dec, err := c.Decode([]*commonpb.Payload{plain})
	if err != nil || dec[0] != plain {
		t.Fatalf("plain payload changed: %v %v", dec, err)
	}
}

func TestTamperingIsRefused(t *testing.T) {
	c := payloadcodec.NewCodec(mustKeyring(t, "k1:"+key(1)+",k2:"+key(1)))
	enc, _ := c.Encode([]*commonpb.Payload{{Data: []byte("secret")}})
	flipped := &commonpb.Payload{Metadata: enc[0].Metadata, Data: append([]byte(nil), enc[0].Data...)}
	flipped.Data[len(flipped.Data)-1] ^= 1
	if _, err := c.Decode([]*commonpb.Payload{flipped}); err == nil {
		t.Fatal("tampered ciphertext decoded")
	}
	// Same key bytes under another id: the id is bound to the ciphertext.
	moved := &commonpb.Payload{Metadata: map[string][]byte{}, Data: enc[0].Data}
	for k, v := range enc[0].Metadata {
		moved.Metadata[k] = v
	}
	moved.Metadata[payloadcodec.MetadataKeyID] = []byte("k2")
	if _, err := c.Decode([]*commonpb.Payload{moved}); err == nil {
		t.Fatal("payload relabelled to another key id decoded")
	}
}

func TestParseKeyring(t *testing.T) {
	for _, tc := range []struct {
		name, spec, want string
	}{
		{"no id", key(1), "id:base64key"},
		{"short key", "k1:" + base64.StdEncoding.EncodeToString([]byte("short")), "32 bytes"},
		{"bad id", "k 1:" + key(1), "id:base64key"},
		{"duplicate", "k1:" + key(1) + ",k1:" + key(2), "twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := payloadcodec.ParseKeyring(tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if k, err := payloadcodec.ParseKeyring("  "); k != nil || err != nil {
		t.Fatalf("empty spec: %v %v", k, err)
	}
}
