package triage

import "testing"

// A message telling its reader to press Win+R and paste is ClickFix, even
// from an authenticated, long-established sender; a message that only
// mentions pasting, or the Run dialog, is not.
func TestClickFixInstructionsInAMessage(t *testing.T) {
	mail := map[string]any{
		"envelope_from": "notifications@github.com", "header_from": "notifications@github.com",
		"subject": "Security notice on your repository", "spf": "pass", "dkim": "pass", "dmarc": "pass",
		"domain_age_days": 6000,
		"body_excerpt":    "To keep your access, open the link and complete the check. You will be asked to press Win+R, paste the verification code and press Enter.",
	}
	checkFires(t, "email.clickfix_lure", "phishing", "high", []fireCase{
		{"Win+R then paste", mail, true},
		{"Windows key and R, then Ctrl+V", withFields(mail, map[string]any{"body_excerpt": "Press the Windows key and R together, then press Ctrl + V and Enter to verify you are human."}), true},
		{"paste alone", withFields(mail, map[string]any{"body_excerpt": "Please paste the tracking number into the form on our site."}), false},
	})
	checkFires(t, "email.established_aligned_sender", "phishing", "high", []fireCase{
		{"Win+R then paste", mail, false},
		{"an ordinary notification", withFields(mail, map[string]any{"body_excerpt": "A new comment was posted on issue #412."}), true},
	})
}
