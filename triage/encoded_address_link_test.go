package triage

import "testing"

// A link that carries an address base64-encoded (standard or URL-safe,
// padded or not, in the path, query or fragment) names the address; an
// opaque tracking token, a plain identifier or base64 of something else
// does not.
func TestEncodedAddressLink(t *testing.T) {
	for link, want := range map[string]string{
		"https://m365-mailnotice.example/keep/?id=dC5uYWthbXVyYUByaWRnZWxpbmUtZW5nLmNvbQ==": "t.nakamura@ridgeline-eng.com",
		"https://files.example.net/view#am9obi5kb2VAY29udG9zby5jb20":                        "john.doe@contoso.com",
		"https://r2.example.dev/a/YW5hLmx1aXNhK2ZpbkBmYWJyaWthbS5jb20/index.html":           "ana.luisa+fin@fabrikam.com",
		"https://click.mail.example.com/?qs=8f3b2a9c4d1e6f7a8b9c0d1e2f3a4b5c":               "",
		"https://portal.example.com/docs/aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=":                  "",
		"https://www.example.com/unsubscribe?u=12345&id=abcdefabcdef":                       "",
	} {
		if got := encodedAddress(link); got != want {
			t.Errorf("%s: got %q, want %q", link, got, want)
		}
	}
	raw := map[string]any{
		"sender": "it-helpdesk@m365-mailnotice.example", "subject": "Your password expires today",
		"recipients": []any{"t.nakamura@ridgeline-eng.com"},
		"urls":       []any{"https://m365-mailnotice.example/keep/?id=dC5uYWthbXVyYUByaWRnZWxpbmUtZW5nLmNvbQ=="},
	}
	f := normalize(Incident{IncidentType: "phishing", RawData: raw}, ExtractIndicators(raw))
	if f.Email.EncodedAddressLink != "t.nakamura@ridgeline-eng.com" {
		t.Errorf("e-mail alert read encoded address %q", f.Email.EncodedAddressLink)
	}
}
