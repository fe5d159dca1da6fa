package triage

import "strings"

// kerberoastMinServices is how many distinct service accounts one client
// must ask RC4 service tickets for before the requests read as
// Kerberoasting rather than one legacy application.
const kerberoastMinServices = 5

// rc4ServiceTickets counts, for the client that asked for most, the
// distinct service accounts for which the payload's Kerberos records (Zeek
// kerberos.log, Windows event 4769) show a service ticket issued with RC4
// encryption: the cipher offline password cracking wants. Machine
// accounts ("name$") and krbtgt are left out, as the published detections
// do.
func rc4ServiceTickets(raw map[string]any) int {
	byClient := map[string]map[string]bool{}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 6 {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			if client, svc, ok := rc4ServiceTicket(t); ok {
				if byClient[client] == nil {
					byClient[client] = map[string]bool{}
				}
				byClient[client][svc] = true
			}
			for _, c := range t {
				walk(c, depth+1)
			}
		case []any:
			for _, c := range t {
				walk(c, depth+1)
			}
		}
	}
	walk(raw, 0)
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
	cipher := strings.ToLower(d.scalarStr("cipher", "ticketencryptiontype", "encryptiontype", "etype"))
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
