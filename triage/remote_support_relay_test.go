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

// A ScreenConnect client joining a relay under the organisation's own
// domain is its own support instance, and so is one named for it that
// its own management deployed; a relay merely named for it (a help-desk
// impersonator's look-alike), a stranger's cloud instance, a relay on
// another domain, or a client installed from a mail attachment is not.
func TestOwnRemoteSupportInstance(t *testing.T) {
	ownDomain := func(relay string) map[string]any {
		return withFields(screenConnectAlert(relay), map[string]any{"user_email": "jlee@contoso.example"})
	}
	deployed := func(raw map[string]any) map[string]any {
		return withFields(raw, map[string]any{"parent_process": "msiexec.exe", "grandparent_process": "IntuneManagementExtension.exe",
			"parent_command_line": `msiexec.exe /i "C:\Windows\IMECache\1b2c\ScreenConnect.ClientSetup.msi" /qn`})
	}
	fromMail := withFields(ownDomain("support.contoso.example"), map[string]any{"parent_process": "outlook.exe", "file_path": `C:\Users\jlee\AppData\Local\Microsoft\Windows\INetCache\Content.Outlook\X1\ScreenConnect.ClientSetup.exe`})
	checkFires(t, "endpoint.own_remote_support_instance", "malware", "medium", []fireCase{
		{"relay under the organisation's own domain", ownDomain("support.contoso.example"), true},
		{"relay named for the organisation, deployed by its management", deployed(screenConnectAlert("contoso-it.screenconnect.com")), true},
		{"relay named for the organisation, nothing else", screenConnectAlert("contoso-helpdesk.example"), false},
		{"a stranger's cloud instance", ownDomain("instance-7k2qzp-relay.screenconnect.com"), false},
		{"a relay on another domain", ownDomain("relay.invoice-viewer.top"), false},
		{"the relay's domain only as the domain contacted", withFields(ownDomain("relay.invoice-viewer.top"), map[string]any{"domain": "invoice-viewer.top"}), false},
		{"installed from a mail attachment", fromMail, false},
	})
}

// The organisation's domains come from its users' addresses and declared
// domains, its names also from its accounts' Windows domain; never from
// a free-mail provider or a system account.
func TestOrgIdentityComesFromAccountsAndMailDomains(t *testing.T) {
	id := readOrgIdentity(newDoc(map[string]any{
		"user": `LINDQVIST\frontdesk`, "owner": "it@lindqvistdental.no", "reporter": "someone@gmail.com",
		"process_user": `NT AUTHORITY\SYSTEM`,
	}))
	names := setOf(id.names...)
	if !names["lindqvist"] || !names["lindqvistdental"] || names["gmail"] || names["ntauthority"] || len(id.domains) != 1 || id.domains[0] != "lindqvistdental.no" {
		t.Fatalf("organisation read as %+v", id)
	}
	if !relayOnOwnDomain("remote.lindqvistdental.no", id) || relayOnOwnDomain("lindqvist-support.top", id) || !relayNamedForOrg("lindqvist-support.top", id) || relayNamedForOrg("instance-7c2d.screenconnect.com", id) {
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
