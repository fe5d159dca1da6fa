package triage

import (
	"math"
	"net/netip"
	"regexp"
	"strings"
	"time"
)

// NetworkFields describe a firewall, IPS, DNS-security or web-proxy alert:
// what the traffic was, what the product made of its destination, and
// what the source is.
type NetworkFields struct {
	// Signature is the lowercased IPS signature, threat or rule name.
	Signature string `expr:"signature" json:"signature,omitempty"`
	// Exploit is set when the signature names exploitation of a
	// vulnerability (remote code execution, injection, a CVE).
	Exploit bool `expr:"exploit" json:"exploit,omitempty"`
	// Callback is set when the host an exploit was aimed at then opened a
	// connection back to the attacking address, or the payload reports a
	// reverse shell.
	Callback bool `expr:"callback" json:"callback,omitempty"`
	// DNSTunnel is set when the DNS traffic carries data: many distinct
	// long high-entropy subdomains of one domain, TXT or NULL queries.
	DNSTunnel bool `expr:"dns_tunnel" json:"dns_tunnel,omitempty"`
	// LookupService names the reputation or block-list zone the DNS
	// queries go to (see lookupZones): lookups built to look like
	// tunnelling, which is why DNSTunnel is never set with it.
	LookupService string `expr:"lookup_service" json:"lookup_service,omitempty"`
	// Beaconing is set when a host contacted the destination at a steady
	// interval many times.
	Beaconing bool `expr:"beaconing" json:"beaconing,omitempty"`
	// MaliciousDestination is set when the product classes the
	// destination as malware, command and control, botnet or phishing.
	MaliciousDestination bool `expr:"malicious_destination" json:"malicious_destination,omitempty"`
	// YoungDomain is set when the domain was registered or first seen
	// within the last month.
	YoungDomain bool `expr:"young_domain" json:"young_domain,omitempty"`
	// Allowed is set when the traffic went through (allowed, passed,
	// detected or alerted only, audit mode).
	Allowed bool `expr:"allowed" json:"allowed,omitempty"`
	// Blocked is set when the product dropped, reset or denied it.
	Blocked bool `expr:"blocked" json:"blocked,omitempty"`
	// Kerberoast is set when one client was issued RC4 service tickets for
	// several distinct service accounts (Zeek kerberos.log, Windows
	// event 4769): tickets requested to crack their passwords offline.
	Kerberoast bool `expr:"kerberoast" json:"kerberoast,omitempty"`
	// NeverReached is set when the payload shows the blocked requests
	// never reached the protected server: an edge firewall answered them
	// and the origin saw nothing (Cloudflare OriginResponseStatus 0, a
	// zero count of requests that reached the origin or upstream).
	NeverReached bool `expr:"never_reached" json:"never_reached,omitempty"`
	// Tor is set for Tor traffic; Anonymizer for Tor, anonymising proxies
	// and proxy-avoidance tools.
	Tor        bool `expr:"tor" json:"tor,omitempty"`
	Anonymizer bool `expr:"anonymizer" json:"anonymizer,omitempty"`
	// ManagedEndpoint is set when the source is a company-managed device;
	// EndpointClean when its endpoint protection reports nothing on it.
	ManagedEndpoint bool `expr:"managed_endpoint" json:"managed_endpoint,omitempty"`
	EndpointClean   bool `expr:"endpoint_clean" json:"endpoint_clean,omitempty"`
	// Scan is set for port-scan and reconnaissance signatures.
	Scan bool `expr:"scan" json:"scan,omitempty"`
	// BruteForce is set for brute-force and password-guessing signatures.
	BruteForce bool `expr:"brute_force" json:"brute_force,omitempty"`
	// MonitoringSource is set when the source is a monitoring or
	// health-check system (its account, host name or user agent).
	MonitoringSource bool `expr:"monitoring_source" json:"monitoring_source,omitempty"`
	// InternalSource is set when the source address is private.
	InternalSource bool `expr:"internal_source" json:"internal_source,omitempty"`
	// InternalDestination is set when the destination address is private.
	InternalDestination bool `expr:"internal_destination" json:"internal_destination,omitempty"`
	// BackupTransfer is set when the source or application is a backup or
	// replication system (Veeam, Commvault, Rubrik and the like).
	BackupTransfer bool `expr:"backup_transfer" json:"backup_transfer,omitempty"`
	// OwnDomain is set when the domain's registration (registrant
	// organisation or name servers) belongs to the organisation itself.
	OwnDomain bool `expr:"own_domain" json:"own_domain,omitempty"`
	// VendorUpdate is set when the traffic is an operating system or
	// software vendor's update service (its download host or updater
	// user agent).
	VendorUpdate bool `expr:"vendor_update" json:"vendor_update,omitempty"`
	// PolicySignature is set for policy and informational signatures that
	// describe a kind of traffic rather than an attack.
	PolicySignature bool `expr:"policy_signature" json:"policy_signature,omitempty"`
	// SuspectProcess is set when the endpoint context names an unsigned
	// program or one running from a temporary folder behind the traffic.
	SuspectProcess bool `expr:"suspect_process" json:"suspect_process,omitempty"`
}

// readNetworkFields fills NetworkFields from firewall (FortiGate, PAN-OS),
// IDS (Suricata EVE, Zeek), DNS-security (Umbrella) and proxy (Zscaler)
// records, by their documented keys and best effort for others.
func readNetworkFields(raw map[string]any, d *doc) NetworkFields {
	f := NetworkFields{}
	sigs := d.scalarStrs("attack", "signature", "threatid", "threatname", "alertsignature", "rulename", "signaturename", "attackname", "msg", "message", "note", "threat", "protectionname")
	f.Signature = strings.ToLower(strings.Join(uniqueSorted(sigs), " | "))
	sigText := strings.ToLower(f.Signature + " " + lowerJoin(d.scalarStrs("category", "classification", "threatcategory", "subtype", "appcat", "alertcategory", "rulecategory")))
	f.Exploit = firstSubstring(sigText, exploitTerms) != "" && !strings.Contains(sigText, "policy")
	f.BruteForce = firstSubstring(strings.NewReplacer("-", " ", "_", " ", ".", " ").Replace(sigText), []string{"brute force", "bruteforce", "password guess", "guessing", "login attempts", "credential stuffing"}) != ""
	f.Scan = firstSubstring(sigText, []string{"scan", "nmap", "masscan", "zgrab", "probe", "sweep", "recon"}) != ""
	f.PolicySignature = strings.HasPrefix(f.Signature, "et policy") || strings.HasPrefix(f.Signature, "et info") ||
		strings.Contains(sigText, "corporate privacy violation") || strings.Contains(lowerJoin(d.strs("signatureseverity")), "informational")
	f.Callback = exploitCallback(raw) || containsAnyTerm(d.text, "reverse shell", "reverse-shell", "connected back to the attacker", "reverse connection", "called back to", "callback to the attack", "outbound connection to the attack", "outbound session to the attack")
	f.DNSTunnel = dnsTunnel(d) || strings.Contains(strings.NewReplacer("-", " ", "_", " ").Replace(sigText), "dns tunnel")
	if f.LookupService = dnsLookupService(d); f.LookupService != "" {
		f.DNSTunnel = false
	}
	f.Beaconing = beaconing(d)
	f.MaliciousDestination = maliciousDestination(d)
	f.YoungDomain = youngDomain(d)
	action := lowerJoin(d.scalarStrs("action", "verdict", "act", "disposition", "alertaction"))
	f.Blocked = firstSubstring(action, []string{"block", "deny", "drop", "reset", "reject", "prevent"}) != ""
	f.Allowed = firstSubstring(action, []string{"allow", "pass", "accept", "detected", "alert", "permit", "log only", "audit"}) != "" && !f.Blocked
	f.NeverReached = f.Blocked && neverReachedOrigin(d)
	app := lowerJoin(d.scalarStrs("app", "application", "appname", "applicationname", "appcat", "appcategory", "urlcategory", "categories", "label"))
	f.Tor = containsTerm(app, "tor") || strings.Contains(app, "tor browser") || strings.Contains(app, "onion") || containsTerm(f.Signature, "tor")
	f.Anonymizer = f.Tor || firstSubstring(app, []string{"anonymizer", "anonymiser", "proxy avoidance", "proxy", "anonymous vpn", "psiphon", "ultrasurf"}) != ""
	deviceText := lowerJoin(d.strs("endpoint", "device", "devicetype", "deviceclassificationstatus", "devicemanaged", "context", "endpointcontext", "hostcontext"))
	f.ManagedEndpoint = containsTerm(deviceText, "managed") || containsTerm(deviceText, "compliant") || containsTerm(deviceText, "corporate")
	f.EndpointClean = containsAnyTerm(deviceText, "no detections", "edr healthy", "no alerts", "clean scan")
	f.MonitoringSource = monitoringSource(d)
	f.InternalSource = privateAddress(d.scalarStr("srcip", "src", "sourceip", "sourceaddress", "srcaddr", "idorigh", "clientip", "internalip"))
	f.InternalDestination = privateAddress(d.scalarStr("dstip", "destip", "dst", "dest", "destinationip", "destinationaddress", "dstaddr", "idresph"))
	hosts := lowerJoin(d.scalarStrs("app", "application", "appname", "srcnthost", "srchost", "srcname", "sourcehost", "srcuser"))
	f.BackupTransfer = firstMarker(hosts, backupProducts) != "" || strings.Contains(hosts, "backup")
	f.OwnDomain = ownDomain(d)
	f.VendorUpdate = vendorUpdateTraffic(d)
	proc := lowerJoin(d.strs("processonhost", "process", "processname", "processpath", "initiatingprocess", "processfromedr"))
	f.SuspectProcess = strings.Contains(proc, "unsigned") || strings.Contains(proc, `\temp\`) || strings.Contains(proc, "/tmp/")
	return f
}

// exploitTerms name exploitation in IPS signature and threat names.
var exploitTerms = []string{"remote code execution", "code execution", ".rce", " rce", "injection", "exploit", "cve-", "deserializ", "overflow", "ognl", "log4j", "command execution", "webshell", "web shell", "shellshock"}

// exploitCallback reports a record set in which an exploit signature was
// seen from an attacker to a target, and another record shows the target
// opening a connection to the attacker: the exploit ran.
func exploitCallback(raw map[string]any) bool {
	var flows [][3]string // src, dst, "x" when the record is the exploit
	walkMaps(raw, 0, func(m map[string]any) {
		md := newDoc(m)
		src := md.scalarStr("srcip", "src", "sourceip", "sourceaddress", "srcaddr", "idorigh")
		dst := md.scalarStr("dstip", "destip", "dst", "destinationip", "destinationaddress", "dstaddr", "idresph")
		if src == "" || dst == "" {
			return
		}
		mark := ""
		sig := strings.ToLower(md.scalarStr("attack", "signature", "threatid", "threatname", "alertsignature", "signaturename", "attackname"))
		if firstSubstring(sig, exploitTerms) != "" {
			mark = "x"
		}
		flows = append(flows, [3]string{src, dst, mark})
	})
	for _, x := range flows {
		if x[2] != "x" {
			continue
		}
		for _, y := range flows {
			if y[2] == "" && y[0] == x[1] && y[1] == x[0] {
				return true
			}
		}
	}
	return false
}

// walkMaps calls visit on every object in v, depth first, bounded.
func walkMaps(v any, depth int, visit func(map[string]any)) {
	if depth > maxWalkDepth {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		visit(t)
		for _, k := range sortedKeys(t) {
			walkMaps(t[k], depth+1, visit)
		}
	case []any:
		for _, x := range t {
			walkMaps(x, depth+1, visit)
		}
	}
}

// dnsTunnel reads a DNS analytic's counts (distinct subdomains, query
// types, label entropy) and, failing those, the sample queries it lists.
func dnsTunnel(d *doc) bool {
	unique, _ := d.number("distinctsubdomains", "uniquesubdomains", "uniquequeries", "distinctqueries", "subdomaincount", "uniquesubdomaincount")
	entropy, _ := d.number("maxlabelentropy", "labelentropy", "entropy", "avgentropy", "subdomainentropy")
	length, _ := d.number("avgquerylength", "averagequerylength", "querylength", "avgsubdomainlength")
	qtypes := strings.ToUpper(lowerJoin(d.strs("querytypes", "querytype", "qtypename", "qtype", "recordtype")))
	oddTypes := containsTerm(strings.ToLower(qtypes), "txt") || containsTerm(strings.ToLower(qtypes), "null")
	highEntropy := entropy >= 4 || length >= 60
	switch {
	case unique >= 500:
		return true
	case unique >= 50 && (oddTypes || highEntropy):
		return true
	}
	return encodedSubdomains(d) >= 3 && (oddTypes || highEntropy)
}

// encodedSubdomains counts distinct query names whose first label is long
// and random-looking, the shape of data encoded into DNS.
func encodedSubdomains(d *doc) int {
	seen := map[string]bool{}
	for _, q := range d.strs("samplequeries", "query", "queries", "domain", "qname", "dnsquery") {
		q = strings.ToLower(strings.TrimSpace(q))
		label, _, ok := strings.Cut(q, ".")
		if !ok || len(label) < 30 || seen[q] {
			continue
		}
		if shannonEntropy(label) >= 3.5 {
			seen[q] = true
		}
	}
	return len(seen)
}

func shannonEntropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, r := range s {
		counts[r]++
	}
	var h float64
	n := float64(len([]rune(s)))
	for _, c := range counts {
		p := float64(c) / n
		h -= p * math.Log2(p)
	}
	return h
}

// beaconing reads a periodicity summary: a median or stated interval and
// a request count, or the analytic's own beaconing verdict.
func beaconing(d *doc) bool {
	interval, hasInterval := d.number("intervalsecondsmedian", "intervalseconds", "medianinterval", "beaconinterval", "interval", "periodseconds")
	requests, _ := d.number("requestslast24h", "requests", "requestcount", "connections", "connectioncount", "querycount", "hits", "count")
	if hasInterval && interval > 0 && interval <= 3600 && requests >= 50 {
		return true
	}
	if v, ok := d.boolean("periodic", "beaconing", "isbeaconing"); ok && v {
		return true
	}
	return periodicRe.MatchString(d.text)
}

// periodicRe finds a payload's own words for contact at a steady rhythm.
var periodicRe = regexp.MustCompile(`\b(every (minute|hour|\d+ ?(s|sec|secs|seconds|min|mins|minutes))|at (regular|fixed|steady) intervals?|periodic(ally)?|beacon(ing|s)? (every|interval))\b`)

// maliciousDestinationTerms are the security categories DNS, proxy and
// firewall products give a destination that is itself hostile.
var maliciousDestinationTerms = []string{"malware", "command and control", "command & control", "c2", "c&c", "botnet", "infostealer", "stealer", "phishing", "cryptomining", "ransomware", "trojan", "spyware", "malicious"}

func maliciousDestination(d *doc) bool {
	if d.str("botnetdomain", "botnetip", "c2domain", "c2server", "cncdomain") != "" {
		return true
	}
	cats := lowerJoin(d.strs("categories", "securitycategories", "threats", "threatcategory", "malwarecategory", "urlcategory", "catdesc", "threattype", "threatname", "domaincategory", "reputation"))
	cats = strings.NewReplacer("none", "", "unknown", "").Replace(cats)
	for _, t := range maliciousDestinationTerms {
		if containsTerm(cats, t) {
			return true
		}
	}
	return false
}

// youngDomain reads a domain age, a creation date close to the event, or
// a newly-registered / newly-seen category.
func youngDomain(d *doc) bool {
	if n, ok := d.number("domainagedays", "domainage", "agedays"); ok && n >= 0 && n < 30 {
		return true
	}
	cats := lowerJoin(d.strs("categories", "urlcategory", "domaincategory"))
	if strings.Contains(cats, "newly registered") || strings.Contains(cats, "newly seen") || strings.Contains(cats, "newly observed") {
		return true
	}
	created, ok := parseTime(d.str("domaincreated", "creationdate", "domaincreationdate", "registered", "createddate"))
	if !ok {
		return false
	}
	for _, v := range d.values("timestamp", "time", "eventtime", "firsttime", "date", "firstseen") {
		if t, ok := instant(v); ok {
			age := t.Sub(created).Hours() / 24
			return age >= 0 && age < 30
		}
	}
	return false
}

// instant reads a timestamp written as text or as Unix seconds or
// milliseconds.
func instant(v any) (time.Time, bool) {
	if n, ok := asNumber(v); ok {
		switch {
		case n > 1e12 && n < 1e14:
			return time.UnixMilli(int64(n)).UTC(), true
		case n > 1e9 && n < 1e11:
			return time.Unix(int64(n), 0).UTC(), true
		}
		return time.Time{}, false
	}
	if s, ok := v.(string); ok {
		return parseTime(s)
	}
	return time.Time{}, false
}

// monitoringTools are the names monitoring and health-check systems give
// their accounts, hosts and user agents.
var monitoringTools = []string{"prtg", "nagios", "zabbix", "solarwinds", "datadog", "pingdom", "site24x7", "icinga", "checkmk", "uptimerobot", "uptime robot", "statuscake", "new relic", "newrelic", "dynatrace", "elastic synthetics", "heartbeat", "health check", "healthcheck", "health probe", "monitoring server", "monitoring system"}

func monitoringSource(d *doc) bool {
	src := lowerJoin(d.scalarStrs("srcuser", "sourceuser", "user", "useragent", "httpuseragent", "srchost", "srcname", "sourcehost", "sourcehostname", "srchostname", "original"))
	return firstSubstring(src, monitoringTools) != ""
}

// updateHosts are vendor update and delivery hosts (suffixes): traffic to
// them is the operating system or application updating itself.
var updateHosts = []string{"delivery.mp.microsoft.com", "windowsupdate.com", "update.microsoft.com", "officecdn.microsoft.com", "swcdn.apple.com", "updates.cdn-apple.com", "mesu.apple.com", "dl.google.com", "update.googleapis.com", "download.mozilla.org", "archive.ubuntu.com", "security.ubuntu.com", "deb.debian.org", "ardownload.adobe.com"}

// updateAgents are the user agents of operating system updaters; they
// count only towards their vendor's own domains, since a user agent is
// easily forged.
var updateAgents = []string{"microsoft-delivery-optimization", "windows-update-agent", "softwareupdate", "google update", "apt-http"}

var updateVendorDomains = setOf("microsoft.com", "windowsupdate.com", "apple.com", "google.com", "googleapis.com", "gvt1.com", "mozilla.org", "mozilla.net", "ubuntu.com", "debian.org", "adobe.com")

// vendorUpdateTraffic reports traffic to an operating system or browser
// vendor's own update hosts, by an updater's user agent.
func vendorUpdateTraffic(d *doc) bool {
	vendorHost := false
	for _, h := range d.scalarStrs("hostname", "host", "domain", "httphost", "urldomain", "serverhost", "destinationdomain") {
		h = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(h), "."))
		for _, u := range updateHosts {
			if h == u || strings.HasSuffix(h, "."+u) {
				return true
			}
		}
		vendorHost = vendorHost || updateVendorDomains[registrableDomain(h)]
	}
	agents := lowerJoin(d.scalarStrs("httpuseragent", "useragent", "original"))
	return vendorHost && firstSubstring(agents, updateAgents) != ""
}

// privateAddress reports whether s is a private or loopback IP address.
func privateAddress(s string) bool {
	ip, err := netip.ParseAddr(strings.TrimSpace(s))
	return err == nil && (ip.IsPrivate() || ip.IsLoopback())
}

// ownDomain reports a domain whose registrant organisation or name
// servers carry the organisation's own name, taken from the users' mail
// domains or Windows domain prefixes in the payload.
func ownDomain(d *doc) bool {
	org := map[string]bool{}
	for _, u := range d.scalarStrs("srcuser", "user", "username", "sourceuser", "userprincipalname") {
		u = strings.ToLower(strings.TrimSpace(u))
		if prefix, _, ok := strings.Cut(u, `\`); ok && prefix != "" {
			org[prefix] = true
		}
		if dom := registrableDomain(emailDomain(u)); dom != "" {
			label, _, _ := strings.Cut(dom, ".")
			org[label] = true
		}
	}
	if len(org) == 0 {
		return false
	}
	registrant := strings.ToLower(d.str("registrantorg", "registrantorganization", "registrant", "whoisorg"))
	if first, _, _ := strings.Cut(registrant, " "); org[first] {
		return true
	}
	for _, ns := range d.strs("nameservers", "ns", "nameserver") {
		dom := registrableDomain(strings.ToLower(strings.TrimSuffix(strings.TrimSpace(ns), ".")))
		label, _, _ := strings.Cut(dom, ".")
		if org[label] {
			return true
		}
	}
	return false
}

// neverReachedOrigin reports whether every statement of what reached the
// protected server says nothing did: a count or flag of requests that
// reached the origin (or upstream, or backend) of zero or false, and
// origin response statuses that are all 0 (no response, because no
// request was sent). Any request that got through, or no statement at
// all, reports false.
func neverReachedOrigin(d *doc) bool {
	stated := false
	// nothing reports whether v says nothing reached the origin, and
	// notes that something was said.
	nothing := func(v any) bool {
		switch x := v.(type) {
		case bool:
			stated = stated || !x
			return !x
		case string:
			if t := strings.TrimSpace(x); t == "-" || t == "" {
				// An access log writes "-" where the backend never answered.
				stated = true
				return true
			}
		}
		n, ok := asNumber(v)
		if ok {
			stated = stated || n == 0
		}
		return !ok || n == 0
	}
	for _, v := range d.values("originreached", "reachedorigin", "originhits", "requeststoorigin", "upstreamreached", "reachedupstream", "backendreached", "reachedbackend",
		"originresponsestatus", "originstatus", "upstreamstatus", "originstatuscode", "upstreamresponsestatus", "backendstatus", "serverstatus") {
		if !nothing(v) {
			return false
		}
	}
	return stated
}
