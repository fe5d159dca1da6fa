package intake

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzSignatureHeaders checks the parsing of X-Webhook-Signature and
// X-Webhook-Timestamp, the first thing an unauthenticated sender reaches:
// no input panics, the header check agrees with Verify, and every accepted
// spelling of a MAC decodes to the same bytes as its canonical form, which
// is what replay detection relies on.
func FuzzSignatureHeaders(f *testing.F) {
	valid := Sign("whsec_5f3c9a7e", 1741944612, []byte(`{"event_type":"test"}`))
	hexPart := strings.TrimPrefix(valid, signaturePrefix)
	for _, seed := range [][2]string{
		{valid, "1741944612"},
		{"SHA256=" + strings.ToUpper(hexPart), "1741944612"},
		{"Sha256=" + hexPart, " 1741944612 "},
		{" \t" + valid + "\r\n", "0"},
		{"", ""},
		{"sha256=", "x"},
		{"sha1=" + hexPart, "-1"},
		{valid + "00", "99999999999999999999"},
		{valid[:len(valid)-1], "+1741944612"},
		{"sha256=zz" + hexPart[2:], "1741944612.5"},
		{"sha256=" + strings.Repeat("é", 32), "1"},
		{"sha256=\x00" + hexPart[1:], "9223372036854775807"},
	} {
		f.Add(seed[0], seed[1])
	}
	now := time.Unix(1741944612, 0)
	f.Fuzz(func(t *testing.T, sig, ts string) {
		mac, err := ParseSignature(sig)
		if err != nil {
			if !errors.Is(err, ErrInvalidSignature) || mac != nil {
				t.Fatalf("ParseSignature(%q) = %x, %v", sig, mac, err)
			}
		} else {
			if len(mac) != 32 {
				t.Fatalf("ParseSignature(%q) gave %d bytes", sig, len(mac))
			}
			canonical := signaturePrefix + hex.EncodeToString(mac)
			if !strings.EqualFold(strings.TrimSpace(sig), canonical) {
				t.Fatalf("ParseSignature accepted %q, which is no spelling of %q", sig, canonical)
			}
			for _, respelled := range []string{canonical, strings.ToUpper(canonical), " " + canonical + "\t"} {
				again, err := ParseSignature(respelled)
				if err != nil || !bytes.Equal(again, mac) {
					t.Fatalf("respelling %q of %q decodes to %x, %v", respelled, sig, again, err)
				}
			}
		}

		headerMAC, headerErr := CheckHeaders(sig, ts)
		verifyErr := Verify("whsec_5f3c9a7e", sig, ts, []byte(`{"event_type":"test"}`), now)
		switch {
		case errors.Is(headerErr, ErrTimestampInvalid):
			if !errors.Is(verifyErr, ErrTimestampInvalid) {
				t.Fatalf("CheckHeaders refused the timestamp %q but Verify said %v", ts, verifyErr)
			}
		case errors.Is(headerErr, ErrInvalidSignature):
			if !errors.Is(verifyErr, ErrInvalidSignature) {
				t.Fatalf("CheckHeaders refused the signature %q but Verify said %v", sig, verifyErr)
			}
		case headerErr != nil:
			t.Fatalf("CheckHeaders returned an undocumented error %v", headerErr)
		default:
			if !bytes.Equal(headerMAC, mac) {
				t.Fatalf("CheckHeaders and ParseSignature disagree on %q", sig)
			}
			if errors.Is(verifyErr, ErrTimestampInvalid) {
				t.Fatalf("CheckHeaders accepted the timestamp %q but Verify refused it", ts)
			}
		}
	})
}
