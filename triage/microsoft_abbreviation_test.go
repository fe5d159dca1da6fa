package triage

import "testing"

// TestMicrosoftsProductAbbreviationsAreItsName holds that a domain built on
// the abbreviations of Microsoft 365 (ms365, m365, o365) imitates
// Microsoft, while Microsoft's own domains do not.
func TestMicrosoftsProductAbbreviationsAreItsName(t *testing.T) {
	for _, host := range []string{"ms365-mailboxnotice.com", "m365-support.net", "o365.secure-login.com"} {
		if l, ok := brandLookalike(host); !ok || l.target != "microsoft" {
			t.Errorf("%s not read as imitating Microsoft", host)
		}
	}
	for _, host := range []string{"microsoft365.com", "login.microsoftonline.com"} {
		if _, ok := brandLookalike(host); ok {
			t.Errorf("Microsoft's own %s read as a look-alike", host)
		}
	}
}
