package triage

import "strings"

// kerberoastMinServices is how many distinct service accounts one client
// must ask RC4 service tickets for before the requests read as
// Kerberoasting rather than one legacy application.
const kerberoastMinServices = 5

// kerberosCipherKeys name a Kerberos record's ticket encryption.
var kerberosCipherKeys = []string{"cipher", "ticketencryptiontype", "encryptiontype", "etype"}

// kerberoast reports Kerberos records in the payload in which one client
// was issued RC4 service tickets for kerberoastMinServices or more
// service accounts. Such records reach every family (a sign-in feed, an
// EDR's event log, a network sensor), so they are read whatever the
// alert's shape; a payload without a ticket cipher is not walked.
func kerberoast(raw map[string]any, d *doc) bool {
	return d.has(kerberosCipherKeys...) && rc4ServiceTickets(raw) >= kerberoastMinServices
}

// rc4ServiceTickets counts, for the client that asked for most, the
// distinct service accounts for which the payload's Kerberos records (Zeek
// kerberos.log, Windows event 4769) show a service ticket issued with RC4
// encryption: the cipher offline password cracking wants. Machine
// accounts ("name$") and krbtgt are left out, as the published detections
// do.
func rc4ServiceTickets(raw map[string]any) int {
	byClient := map[string]map[string]bool{}
	walkMaps(raw, 0, func(m map[string]any) {
		if client, svc, ok := rc4ServiceTicket(m); ok {
			if byClient[client] == nil {
				byClient[client] = map[string]bool{}
			}
			byClient[client][svc] = true
		}
	})
	most := 0
	for _, services := range byClient {
		most = max(most, len(services))
	}
	return most
}

// rc4ServiceTicket reads one Kerberos record: the client and the service
// named when it is a service-ticket request for a user account answered
// with RC4.
func rc4ServiceTicket(m map[string]any) (client, service string, ok bool) {
	d := newDoc(m)
	cipher := strings.ToLower(d.scalarStr(kerberosCipherKeys...))
	if !(strings.Contains(cipher, "rc4") || cipher == "0x17" || cipher == "23") {
		return "", "", false
	}
	kind := strings.ToLower(d.scalarStr("requesttype", "eventid", "eventcode"))
	if n, ok := d.number("eventid", "eventcode"); ok && n == 4769 {
		kind = "4769"
	}
	if kind != "tgs" && kind != "4769" {
		return "", "", false
	}
	svc := strings.ToLower(d.scalarStr("service", "servicename"))
	if svc == "" || strings.HasSuffix(svc, "$") || strings.HasPrefix(svc, "krbtgt") {
		return "", "", false
	}
	client = strings.ToLower(d.scalarStr("idorigh", "ipaddress", "client", "sourceip", "targetusername"))
	return client, svc, true
}
