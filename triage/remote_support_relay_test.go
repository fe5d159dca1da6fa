package triage

import "testing"

// screenConnectAlert is an EDR detection of a ScreenConnect client joining
// relay, run by a user of the CONTOSO domain.
func screenConnectAlert(relay string) map[string]any {
	return map[string]any{
		"detect_name": "Remote access tool", "hostname": "CTS-WS-0142", "user_name": `CONTOSO\jlee`,
		"filename": "ScreenConnect.ClientService.exe", "parent_process": "services.exe",
		"file_path":    `C:\Program Files (x86)\ScreenConnect Client (7d1a3b9f0c2e4a55)\ScreenConnect.ClientService.exe`,
		"command_line": `"C:\Program Files (x86)\ScreenConnect Client (7d1a3b9f0c2e4a55)\ScreenConnect.ClientService.exe" "?e=Access&y=Guest&h=` + relay + `&p=8041&s=6f1c0a2e&k=BgIAAACk"`,
		"signer":       "ConnectWise, LLC",
	}
}

// A ScreenConnect client joining a relay that carries the organisation's
// name is its own support instance; a stranger's cloud instance, a relay
// on another domain, or a client installed from a mail attachment is not.
func TestOwnRemoteSupportInstance(t *testing.T) {
	fromMail := withFields(screenConnectAlert("support.contoso-it.com"), map[string]any{"parent_process": "outlook.exe", "file_path": `C:\Users\jlee\AppData\Local\Microsoft\Windows\INetCache\Content.Outlook\X1\ScreenConnect.ClientSetup.exe`})
	checkFires(t, "endpoint.own_remote_support_instance", "malware", "medium", []fireCase{
		{"relay on the organisation's own domain", screenConnectAlert("support.contoso-it.com"), true},
		{"cloud instance named for the organisation", screenConnectAlert("contoso.screenconnect.com"), true},
		{"a stranger's cloud instance", screenConnectAlert("instance-7k2qzp-relay.screenconnect.com"), false},
		{"a relay on another domain", screenConnectAlert("relay.invoice-viewer.top"), false},
		{"the relay's domain only as the domain contacted", withFields(screenConnectAlert("relay.invoice-viewer.top"), map[string]any{"domain": "invoice-viewer.top"}), false},
		{"installed from a mail attachment", fromMail, false},
	})
}

// Organisation names come from the accounts' Windows domain and the users'
// mail domain, never from a free-mail provider or a system account.
func TestOrgNamesComeFromAccountsAndMailDomains(t *testing.T) {
	names := setOf(orgNames(newDoc(map[string]any{
		"user": `LINDQVIST\frontdesk`, "owner": "it@lindqvistdental.no", "reporter": "someone@gmail.com",
		"process_user": `NT AUTHORITY\SYSTEM`,
	}))...)
	if !names["lindqvist"] || !names["lindqvistdental"] || names["gmail"] || names["ntauthority"] {
		t.Fatalf("organisation names = %v", names)
	}
	if ownRelay("remote.lindqvistdental.no", []string{"lindqvist"}) != true || ownRelay("instance-7c2d.screenconnect.com", []string{"lindqvist"}) {
		t.Fatal("relay ownership misread")
	}
}

// A Trend Vision One Workbench alert is read by what its impact scope
// counts, and titled by its detection model.
func TestTrendWorkbenchAlertIsReadByItsImpactScope(t *testing.T) {
	workbench := func(scope map[string]any) map[string]any {
		return map[string]any{
			"schemaVersion": "1.12", "model": "Remote Access Tool Execution", "severity": "medium",
			"impactScope": scope,
			"indicators":  []any{map[string]any{"id": 1, "type": "command_line", "field": "processCmd", "value": `"C:\Program Files (x86)\ScreenConnect Client (7d1a)\ScreenConnect.ClientService.exe" "?e=Access&h=brightline-it.screenconnect.com&p=443"`}},
		}
	}
	f := normalize(Incident{IncidentType: "alert", RawData: workbench(map[string]any{"desktopCount": 1, "accountCount": 1})}, Indicators{})
	if f.Shape != "endpoint" || f.Alert.Title != "Remote Access Tool Execution" || f.Endpoint.Behaviour.RemoteRelay != "brightline-it.screenconnect.com" {
		t.Fatalf("workbench alert read as shape %q title %q relay %q", f.Shape, f.Alert.Title, f.Endpoint.Behaviour.RemoteRelay)
	}
	if f := normalize(Incident{IncidentType: "alert", RawData: workbench(map[string]any{"emailAddressCount": 2})}, Indicators{}); f.Shape != "email" {
		t.Fatalf("mailbox-only workbench alert read as %q", f.Shape)
	}
}
