package triage

import "strings"

// consoleHosts are the consoles and link-rewriting services of e-mail
// security products. Their URLs appear in an alert as the way to open it in
// the product (portal links, investigation links) or as the rewritten copy
// of a link whose original the alert also carries; neither is a link the
// message led its reader to.
var consoleHosts = []string{
	"portal.checkpoint.com", "portal.abnormalsecurity.com", "security.microsoft.com", "protection.office.com",
	"admin.google.com", "portal.xdr.trendmicro.com", "threatinsight.proofpoint.com", "tap.proofpoint.com",
	"login.mimecast.com", "console.mimecast.com", "ess.barracudanetworks.com", "secure-web.cisco.com",
	"urldefense.proofpoint.com", "urldefense.com", "linkprotect.cudasvc.com", "protect.checkpoint.com",
	"portal.sublimesecurity.com", "app.ironscales.com",
}

// consoleLink reports whether raw points at a security product's console
// or link-rewriting service rather than at content the message carried.
func consoleLink(raw string) bool {
	_, host, ok := linkHost(raw)
	if !ok {
		return false
	}
	for _, h := range consoleHosts {
		if hostWithin(host, h) {
			return true
		}
	}
	// Mimecast rewrites links through protect-<region>.mimecast.com.
	return strings.HasPrefix(host, "protect-") && hostWithin(host, "mimecast.com")
}

// alertPageKeys name the field an alert links to its own page in the
// product with (Check Point's entityLink, Graph's alertWebUrl, CrowdStrike's
// falcon_host_link): wherever that console lives, it is not a link the
// message carried.
var alertPageKeys = []string{"entitylink", "alertweburl", "incidentweburl", "alertlink", "alerturl", "incidenturl", "incidentlink",
	"portalurl", "portallink", "consoleurl", "consolelink", "investigationurl", "investigationlink", "detailsurl", "permalink",
	"falconhostlink", "eventlink", "eventurl"}

// alertPages returns the set of URLs the payload gives under alertPageKeys.
func alertPages(d *doc) map[string]bool {
	pages := map[string]bool{}
	for _, u := range d.strs(alertPageKeys...) {
		pages[strings.TrimSpace(u)] = true
	}
	return pages
}
