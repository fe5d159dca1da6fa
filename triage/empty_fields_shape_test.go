package triage

import "testing"

// A PAN-OS threat record lists a sender, subject and recipient on every
// line, empty unless the session was SMTP; a file-upload record with them
// empty is no e-mail. The same record with them filled still reads as
// mail the firewall saw, as before.
func TestEmptyMailFieldsDoNotMakeAnEmail(t *testing.T) {
	record := func(sender, subject, recipient string) map[string]any {
		return map[string]any{
			"type": "THREAT", "subtype": "file", "src": "10.62.4.88", "dst": "31.216.148.11", "srcuser": `larkspur\p.okonkwo`,
			"app": "mega", "action": "alert", "misc": "WMS_inventory_export_Q3.7z", "threat_name": "7z File", "filetype": "7z",
			"sender": sender, "subject": subject, "recipient": recipient,
		}
	}
	if shape, _ := detectShape(nil, newDoc(record("", "", ""))); shape == "email" {
		t.Error("a file upload with empty mail fields read as an e-mail")
	}
	if shape, _ := detectShape(nil, newDoc(record("billing@vendor-pay.example", "Invoice overdue", "ap@larkspur.example"))); shape != "email" {
		t.Errorf("a record carrying a sender, subject and recipient read as %q", shape)
	}
}
