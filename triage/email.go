package triage

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// emailMessage is the vendor-neutral view of a reported e-mail that the
// phishing rules work on.
type emailMessage struct {
	sender          string // lowercased address
	senderDomain    string
	displayName     string
	replyToDomain   string
	orgDomains      []string // recipients' registrable domains except the sender's, free-mail excluded
	internal        bool     // sender shares a registrable domain with a recipient
	content         string   // lowercased subject and body text
	links           []emailLink
	attachments     []emailAttachment
	auth            map[string]string // spf/dkim/dmarc -> pass|fail|softfail|none|...
	platform        string            // bulk-mail platform that sent the message
	listUnsubscribe bool
}

type emailLink struct {
	url     string
	display string // anchor text, when the vendor reports it
}

type emailAttachment struct {
	name      string
	encrypted bool
}

var (
	// headerFromKeys name the From header itself, which the reader sees
	// and DMARC aligns to; they win over envelope senders.
	headerFromKeys = []string{"headerfrom", "hdrfrom", "fromheader", "fromheaderaddress", "esafriendlyfrom", "friendlyfrom"}
	senderKeys     = []string{"sender", "from", "fromaddress", "senderaddress", "senderemail", "mailfrom", "envelopefrom", "headerfrom", "p1sender", "p2sender"}
	// orgDomainKeys name lists of the organisation's own mail domains.
	orgDomainKeys = []string{"orgdomains", "organizationdomains", "organisationdomains", "accepteddomains", "internaldomains", "tenantdomains", "owndomains", "primarydomain", "customerprimarydomain"}
	// headerSenderKeys name the message's From (or a gateway's reading of
	// it); envelopeSenderKeys the SMTP envelope's bounce address.
	headerSenderKeys   = []string{"sender", "from", "fromaddress", "senderaddress", "senderemail", "headerfrom", "p2sender"}
	envelopeSenderKeys = []string{"mailfrom", "envelopefrom", "p1sender"}
	recipientKeys      = []string{"recipients", "recipient", "to", "cc", "rcptto", "envelopeto", "toaddresses", "torecipients", "recipientaddress", "recipientemail", "recipientemailaddress", "recipientssample", "recipientlist", "recipientaddresses", "reporter", "reportedby", "mailbox", "duser", "destinationaddress", "useremailaddress", "toenvelope"}
	contentKeys        = []string{"subject", "body", "bodytext", "bodyhtml", "bodypreview", "text", "html", "snippet", "preview", "content", "plaintext", "textbody", "htmlbody", "bodysnippet", "messagebodysnippet", "subjecttext", "msg"}
	mailMetaKeys       = []string{"returnpath", "xmailer", "mailer", "listid", "xsender", "envelopefrom", "mailfrom", "dkimsignature", "feedbackid", "xfeedbackid", "xmcuser", "xsgeid", "xsgid", "listunsubscribe", "authenticationresults", "received", "dkimdomain", "signingdomain"}

	anchorRe  = regexp.MustCompile(`(?is)<a\s[^>]*?href\s*=\s*["']([^"']+)["'][^>]*>(.*?)</a>`)
	tagRe     = regexp.MustCompile(`<[^>]*>`)
	authKVRe  = regexp.MustCompile(`\b(spf|dkim|dmarc)\s*=\s*([a-z]+)`)
	authMechs = []string{"spf", "dkim", "dmarc"}
)

// bulkMailDomains are registrable domains of newsletter and marketing
// platforms. Mail relayed by them is overwhelmingly legitimate bulk mail.
var bulkMailDomains = map[string]string{
	"mailchimp.com": "Mailchimp", "mcsv.net": "Mailchimp", "mcdlv.net": "Mailchimp", "list-manage.com": "Mailchimp", "mailchi.mp": "Mailchimp",
	"sendgrid.net": "SendGrid", "sendgrid.com": "SendGrid", "substack.com": "Substack",
	"constantcontact.com": "Constant Contact", "ccsend.com": "Constant Contact", "hubspot.com": "HubSpot", "hubspotemail.net": "HubSpot",
	"mailgun.org": "Mailgun", "mailgun.net": "Mailgun", "createsend.com": "Campaign Monitor", "klaviyomail.com": "Klaviyo",
	"sparkpostmail.com": "SparkPost", "mandrillapp.com": "Mandrill", "mktomail.com": "Marketo", "exacttarget.com": "Salesforce Marketing Cloud",
	"beehiiv.com": "beehiiv", "convertkit.com": "ConvertKit", "sendinblue.com": "Brevo", "brevo.com": "Brevo",
}

// bulkMailMarkers are header substrings (X-Mailer, Feedback-ID, DKIM d=)
// that identify those platforms, in a fixed order for stable reasoning.
var bulkMailMarkers = [][2]string{
	{"mailchimp", "Mailchimp"}, {"mcsv.net", "Mailchimp"}, {"mcdlv.net", "Mailchimp"}, {"list-manage.com", "Mailchimp"},
	{"sendgrid", "SendGrid"}, {"substack", "Substack"}, {"constantcontact", "Constant Contact"}, {"constant contact", "Constant Contact"},
	{"hubspot", "HubSpot"}, {"mailgun", "Mailgun"}, {"createsend", "Campaign Monitor"}, {"klaviyo", "Klaviyo"},
	{"sparkpost", "SparkPost"}, {"mandrill", "Mandrill"}, {"marketo", "Marketo"}, {"exacttarget", "Salesforce Marketing Cloud"},
	{"beehiiv", "beehiiv"}, {"convertkit", "ConvertKit"}, {"sendinblue", "Brevo"},
}

func readEmail(d *doc, ind Indicators) emailMessage {
	hdr := headerDoc(d)
	var m emailMessage
	// The envelope sender is the bounce address a mailing platform
	// rewrites (bounces+id=org@em123.example.com); the From the reader
	// sees, and DMARC aligns, comes first.
	from := append(d.values(headerFromKeys...), d.values(headerSenderKeys...)...)
	from = append(append(from, hdr.values(senderKeys...)...), d.values(envelopeSenderKeys...)...)
	for _, v := range from {
		if addr, name := parseMailbox(v); addr != "" {
			m.sender, m.displayName = addr, name
			break
		}
	}
	if m.displayName == "" {
		m.displayName = d.str("sendername", "fromname", "senderdisplayname", "fromdisplayname", "displayname")
	}
	if i := strings.LastIndexByte(m.sender, '@'); i >= 0 {
		m.senderDomain = m.sender[i+1:]
	}
	for _, s := range append(d.strs("replyto", "replytoaddress"), hdr.strs("replyto")...) {
		if addr := firstEmail(s); addr != "" {
			m.replyToDomain = addr[strings.LastIndexByte(addr, '@')+1:]
			break
		}
	}
	var orgs []string
	for _, s := range append(d.strs(recipientKeys...), hdr.strs("to", "cc")...) {
		for _, match := range emailRe.FindAllString(s, 50) {
			if _, domain, ok := cleanEmail(match); ok && !freeMailDomains[registrableDomain(domain)] {
				orgs = append(orgs, registrableDomain(domain))
			}
		}
	}
	// A gateway may name the organisation's own domains outright (its
	// accepted or internal domains).
	for _, s := range d.strs(orgDomainKeys...) {
		if dom := strings.Trim(strings.ToLower(strings.TrimSpace(s)), "@."); strings.Contains(dom, ".") && !strings.ContainsAny(dom, " /@") {
			orgs = append(orgs, registrableDomain(dom))
		}
	}
	// The sender's own domain is not an organisation it could imitate;
	// attackers often copy themselves, which would otherwise hide the
	// look-alike behind an apparent match.
	senderReg := registrableDomain(m.senderDomain)
	for _, o := range uniqueSorted(orgs) {
		if m.senderDomain != "" && o == senderReg {
			m.internal = true
			continue
		}
		m.orgDomains = append(m.orgDomains, o)
	}
	m.content = lowerJoin(append(d.strs(contentKeys...), hdr.strs("subject")...))
	m.links = readLinks(d, ind, m.content)
	m.attachments = readAttachments(d)
	m.auth = readAuth(d, hdr)
	m.platform = bulkPlatform(m.senderDomain, lowerJoin(append(d.strs(mailMetaKeys...), hdr.strs(mailMetaKeys...)...)))
	m.listUnsubscribe = d.has("listunsubscribe") || hdr.has("listunsubscribe")
	return m
}

// headerDoc indexes headers delivered as a list of {name, value} objects
// (Microsoft Graph, many gateways) or {header, data} (KnowBe4 PhishER),
// which key-based lookup cannot see.
func headerDoc(d *doc) *doc {
	pairs := map[string]any{}
	for _, h := range d.maps("headers", "internetmessageheaders", "messageheaders") {
		hd := newDoc(h)
		name, value := hd.str("name", "key", "header"), hd.firstOf("value", "data")
		if name == "" {
			continue
		}
		if _, dup := pairs[name]; !dup {
			pairs[name] = value
		}
	}
	return newDoc(pairs)
}

// parseMailbox accepts "Name <addr>", a bare address, or an object such as
// {"name": ..., "address": ...} and returns the lowercased address and name.
func parseMailbox(v any) (addr, name string) {
	switch t := v.(type) {
	case string:
		if i := strings.IndexByte(t, '<'); i > 0 {
			name = strings.Trim(strings.TrimSpace(t[:i]), `"' `)
		}
		return firstEmail(t), name
	case map[string]any:
		md := newDoc(t)
		for _, s := range md.strs("address", "email", "emailaddress", "addr", "mail", "value") {
			if addr = firstEmail(s); addr != "" {
				break
			}
		}
		return addr, md.str("name", "displayname")
	}
	return "", ""
}

func firstEmail(s string) string {
	for _, match := range emailRe.FindAllString(s, 5) {
		if addr, _, ok := cleanEmail(match); ok {
			return addr
		}
	}
	return ""
}

// readLinks merges URLs from the indicators, structured link objects that
// carry display text, and anchors in an HTML body, sorted for stable output.
func readLinks(d *doc, ind Indicators, content string) []emailLink {
	seen := map[emailLink]bool{}
	var out []emailLink
	add := func(l emailLink) {
		l.url = strings.TrimSpace(l.url)
		if l.url != "" && !seen[l] && len(out) < maxIndicatorsPerList {
			seen[l] = true
			out = append(out, l)
		}
	}
	pages := alertPages(d)
	for _, u := range ind.URLs {
		if !consoleLink(u) && !pages[strings.TrimSpace(u)] {
			add(emailLink{url: u})
		}
	}
	for _, lm := range d.maps("urls", "links", "hyperlinks", "embeddedurls", "clickedurls") {
		if len(out) >= maxIndicatorsPerList {
			break
		}
		ld := newDoc(lm)
		target := ""
		for _, s := range ld.strs("url", "href", "link", "target", "address", "originalurl") {
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "http") {
				target = s
				break
			}
		}
		add(emailLink{url: target, display: ld.str("displaytext", "display", "text", "anchortext", "label", "title")})
	}
	for _, a := range anchorRe.FindAllStringSubmatch(content, 200) {
		add(emailLink{url: a[1], display: strings.TrimSpace(tagRe.ReplaceAllString(a[2], ""))})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].url != out[j].url {
			return out[i].url < out[j].url
		}
		return out[i].display < out[j].display
	})
	return out
}

func readAttachments(d *doc) []emailAttachment {
	byName := map[string]bool{}
	note := func(name string, enc bool) {
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "" && len(byName) < maxIndicatorsPerList {
			byName[name] = byName[name] || enc
		}
	}
	var visit func(v any)
	visit = func(v any) {
		switch t := v.(type) {
		case string:
			note(t, false)
		case []any:
			for _, x := range t {
				visit(x)
			}
		case map[string]any:
			ad := newDoc(t)
			enc, _ := ad.boolean("encrypted", "passwordprotected", "ispasswordprotected", "isencrypted", "protected")
			note(ad.str("filename", "name", "attachmentname"), enc)
		}
	}
	for _, v := range d.values("attachments", "attachment", "attachmentnames", "attachedfiles", "attachmentname", "filename", "filenames") {
		visit(v)
	}
	// Gateways that list every MIME part (Proofpoint's messageParts) name
	// the message body too, "text.html" shown inline: it is the body, not
	// an attachment.
	for _, part := range d.maps("messageparts", "parts", "mimeparts") {
		pd := newDoc(part)
		if strings.EqualFold(pd.str("disposition", "contentdisposition"), "inline") {
			delete(byName, strings.ToLower(strings.TrimSpace(pd.str("filename", "name"))))
		}
	}
	out := make([]emailAttachment, 0, len(byName))
	for _, n := range sortedKeys(byName) {
		out = append(out, emailAttachment{name: n, encrypted: byName[n]})
	}
	return out
}

// readAuth collects SPF/DKIM/DMARC results from dedicated fields first and
// falls back to parsing Authentication-Results style strings.
func readAuth(d, hdr *doc) map[string]string {
	res := map[string]string{}
	for _, mech := range authMechs {
		// Gmail's log and Sublime state a boolean ("spf_pass",
		// auth_summary.spf.pass).
		names := []string{mech, mech + "result", mech + "status", mech + "verdict", "received" + mech, "esa" + mech + "verdict", mech + "pass"}
		for _, v := range append(d.values(names...), hdr.values(names...)...) {
			if r := authResult(v); r != "" {
				res[mech] = r
				break
			}
		}
	}
	// Summaries are written as the header's "spf=pass" or in words
	// ("SPF pass (docusign.net), DKIM pass d=docusign.net").
	summaries := append(d.strs("authenticationresults", "authresults", "arcauthenticationresults", "emailauthentication", "authentication", "authenticationdetails", "mailauthentication", "authenticationresult"), hdr.strs("authenticationresults")...)
	// A quarantine record (Exchange Online's Get-QuarantineMessageHeader)
	// carries the raw header block as one text.
	for _, block := range d.scalarStrs("header", "headers", "rawheaders", "messageheader", "internetheaders") {
		lower := "\n" + strings.ToLower(block)
		if i := strings.Index(lower, "\nauthentication-results:"); i >= 0 {
			summaries = append(summaries, lower[i:])
		}
	}
	addAuthMatches(res, authKVRe, summaries)
	addAuthMatches(res, authWordRe, summaries)
	// Gateways state results in their reasons too ("DMARC policy reject
	// for example.com: SPF fail, DKIM none").
	addAuthMatches(res, authWordRe, d.scalarStrs("reasonextra", "reasondetail", "reasondetails", "verdictreason"))
	return res
}

// addAuthMatches records each mechanism's first result that re finds in
// texts, leaving results already known alone.
func addAuthMatches(res map[string]string, re *regexp.Regexp, texts []string) {
	for _, s := range texts {
		for _, kv := range re.FindAllStringSubmatch(strings.ToLower(s), -1) {
			if _, ok := res[kv[1]]; !ok {
				res[kv[1]] = normalizeAuth(kv[2])
			}
		}
	}
}

var authWordRe = regexp.MustCompile(`\b(spf|dkim|dmarc)(?: policy)?:? (pass|fail|softfail|none|reject|quarantine)\b`)

func authResult(v any) string {
	switch t := v.(type) {
	case string:
		if r := esaAuthResult(t); r != "" {
			return r
		}
		if f := strings.Fields(strings.ToLower(t)); len(f) > 0 {
			// Cisco's "DMARC: Verification passed" puts the verb second.
			if f[0] == "verification" && len(f) > 1 {
				return normalizeAuth(strings.Trim(f[1], ";,:()"))
			}
			return normalizeAuth(strings.Trim(f[0], ";,:()"))
		}
	case bool:
		if t {
			return "pass"
		}
		return "fail"
	case map[string]any:
		md := newDoc(t)
		if s := md.str("result", "status", "verdict", "value"); s != "" {
			return authResult(s)
		}
	}
	return ""
}

func normalizeAuth(r string) string {
	switch r {
	case "pass", "passed", "bestguesspass", "success":
		return "pass"
	case "fail", "failed", "hardfail", "failure", "reject", "quarantine":
		return "fail"
	}
	return r
}

func bulkPlatform(senderDomain, meta string) string {
	if name, ok := bulkMailDomains[registrableDomain(senderDomain)]; ok && senderDomain != "" {
		return name
	}
	return firstMarker(meta, bulkMailMarkers)
}

// linkHost parses a link and unwraps Microsoft Safe Links so that the real
// destination is judged rather than the rewriting service.
func linkHost(raw string) (*url.URL, string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return nil, "", false
	}
	host := strings.ToLower(u.Hostname())
	if strings.HasSuffix(host, "safelinks.protection.outlook.com") {
		if inner := u.Query().Get("url"); inner != "" {
			if iu, err := url.Parse(inner); err == nil && iu.Host != "" {
				return iu, strings.ToLower(iu.Hostname()), true
			}
		}
	}
	return u, host, true
}
