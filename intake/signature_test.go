package intake

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSignKnownVector(t *testing.T) {
	// Computed independently with a general-purpose HMAC implementation.
	const want = "sha256=3906fff383f6c373883c74b9de55dd4c68cec3da9752b10b08ecfad99ace08af"
	if got := Sign("whsec_5f3c9a7e", 1741944612, []byte(`{"event_type":"test"}`)); got != want {
		t.Errorf("Sign = %q, want %q", got, want)
	}
}

func TestVerify(t *testing.T) {
	const secret = "whsec_5f3c9a7e"
	body := []byte(`{"event_type":"malware_detected","timestamp":1741944612,"source":"edr","data":{"alert_id":"a-1","severity":"high","details":{}}}`)
	now := time.Unix(1741944612, 0)
	ts := now.Unix()
	tsText := strconv.FormatInt(ts, 10)
	valid := Sign(secret, ts, body)
	hexPart := strings.TrimPrefix(valid, "sha256=")
	// Requests signed by a sender whose clock runs ahead of ours.
	aheadOK, aheadTooFar := ts+int64(MaxSkew/time.Second), ts+int64(MaxSkew/time.Second)+1

	tests := []struct {
		name      string
		secret    string
		sig, ts   string
		body      []byte
		now       time.Time
		wantError error
	}{
		{name: "valid", sig: valid, ts: tsText},
		{name: "prefix in upper case", sig: "SHA256=" + hexPart, ts: tsText},
		{name: "hex in upper case", sig: "sha256=" + strings.ToUpper(hexPart), ts: tsText},
		{name: "surrounding space", sig: " " + valid + " ", ts: " " + tsText + " "},
		{name: "wrong secret", secret: "whsec_other", sig: valid, ts: tsText, wantError: ErrInvalidSignature},
		{name: "empty secret never verifies", secret: "-", sig: Sign("", ts, body), ts: tsText, wantError: ErrInvalidSignature},
		{name: "tampered body", sig: valid, ts: tsText, body: []byte(strings.Replace(string(body), "high", "low", 1)), wantError: ErrInvalidSignature},
		{name: "signature for another timestamp", sig: Sign(secret, ts-1, body), ts: tsText, wantError: ErrInvalidSignature},
		{name: "leading zero changes the signed text", sig: valid, ts: "0" + tsText, wantError: ErrInvalidSignature},
		{name: "missing signature", sig: "", ts: tsText, wantError: ErrInvalidSignature},
		{name: "no prefix", sig: hexPart, ts: tsText, wantError: ErrInvalidSignature},
		{name: "other algorithm", sig: "sha1=" + hexPart, ts: tsText, wantError: ErrInvalidSignature},
		{name: "prefix only", sig: "sha256=", ts: tsText, wantError: ErrInvalidSignature},
		{name: "bad hex", sig: "sha256=zz" + hexPart[2:], ts: tsText, wantError: ErrInvalidSignature},
		{name: "odd length hex", sig: valid[:len(valid)-1], ts: tsText, wantError: ErrInvalidSignature},
		{name: "truncated to 16 bytes", sig: valid[:len("sha256=")+32], ts: tsText, wantError: ErrInvalidSignature},
		{name: "extra bytes", sig: valid + "00", ts: tsText, wantError: ErrInvalidSignature},
		{name: "missing timestamp", sig: valid, ts: "", wantError: ErrTimestampInvalid},
		{name: "timestamp not a number", sig: valid, ts: "yesterday", wantError: ErrTimestampInvalid},
		{name: "timestamp in milliseconds with fraction", sig: valid, ts: tsText + ".5", wantError: ErrTimestampInvalid},
		{name: "timestamp with sign", sig: valid, ts: "+" + tsText, wantError: ErrTimestampInvalid},
		{name: "negative timestamp", sig: valid, ts: "-1", wantError: ErrTimestampInvalid},
		{name: "timestamp as RFC 3339", sig: valid, ts: now.UTC().Format(time.RFC3339), wantError: ErrTimestampInvalid},
		{name: "timestamp beyond int64", sig: valid, ts: "99999999999999999999", wantError: ErrTimestampInvalid},
		{name: "invalid timestamp is reported before a bad signature", sig: "nonsense", ts: "x", wantError: ErrTimestampInvalid},
		{name: "exactly five minutes old", sig: valid, ts: tsText, now: now.Add(MaxAge)},
		{name: "five minutes and one second old", sig: valid, ts: tsText, now: now.Add(MaxAge + time.Second), wantError: ErrTimestampExpired},
		{name: "expired by a fraction of a second", sig: valid, ts: tsText, now: now.Add(MaxAge + time.Millisecond), wantError: ErrTimestampExpired},
		{name: "expired with a bad signature reports the signature", sig: Sign("guess", ts, body), ts: tsText, now: now.Add(time.Hour), wantError: ErrInvalidSignature},
		{name: "within clock skew", sig: Sign(secret, aheadOK, body), ts: strconv.FormatInt(aheadOK, 10)},
		{name: "beyond clock skew", sig: Sign(secret, aheadTooFar, body), ts: strconv.FormatInt(aheadTooFar, 10), wantError: ErrTimestampInFuture},
		{name: "future with a bad signature reports the signature", sig: valid, ts: strconv.FormatInt(aheadTooFar, 10), wantError: ErrInvalidSignature},
		{name: "far future", sig: Sign(secret, 1<<62, body), ts: strconv.FormatInt(1<<62, 10), wantError: ErrTimestampInFuture},
		{name: "largest int64", sig: Sign(secret, 1<<63-1, body), ts: strconv.FormatInt(1<<63-1, 10), wantError: ErrTimestampInFuture},
		{name: "epoch zero", sig: Sign(secret, 0, body), ts: "0", wantError: ErrTimestampExpired},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := secret
			switch tc.secret {
			case "":
			case "-":
				s = ""
			default:
				s = tc.secret
			}
			b := body
			if tc.body != nil {
				b = tc.body
			}
			at := now
			if !tc.now.IsZero() {
				at = tc.now
			}
			err := Verify(s, tc.sig, tc.ts, b, at)
			if !errors.Is(err, tc.wantError) || (tc.wantError == nil && err != nil) {
				t.Errorf("Verify = %v, want %v", err, tc.wantError)
			}
		})
	}
}
