package triage

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// A single benign signal is enough for a benign login verdict as long as
// nothing meaningfully suspicious fired; most sign-ins are legitimate.
var loginThresholds = thresholds{malicious: 0.65, suspicious: 0.25, benign: -0.10, maxPositiveForBenign: 0.30}

// previousLoginKeys hold the earlier sign-in that impossible-travel checks
// compare against; they are kept out of the current-login view so that their
// country or coordinates are not mistaken for the current ones.
var previousLoginKeys = []string{
	"previouslogin", "lastlogin", "priorlogin", "previous", "previouslocation", "lastlocation",
	"priorlocation", "lastknownlocation", "previoussignin", "lastsignin", "previousevent",
	"priorsignin", "priorevent", "lastsuccessfullogin", "lastsuccessfulsignin", "previousauthentication",
}

var (
	countryKeys   = []string{"country", "countrycode", "countryname", "countryorregion", "geocountry", "srccountry", "sourceregion"}
	timeKeys      = []string{"timestamp", "time", "eventtime", "logintime", "signintime", "createddatetime", "createdat", "published", "datetime", "occurredat"}
	riskListKeys  = []string{"riskeventtypes", "riskeventtypesv2", "riskevents", "riskdetections", "riskreasons", "riskeventtype", "risks", "reasons", "reason", "detections", "alerts", "tags", "labels", "riskdetail"}
	networkKeys   = []string{"network", "iptype", "networktype", "asntype", "connectiontype", "proxytype", "anonymizer", "anonymizertype", "threatcategory", "iptags", "ipcategory", "usagetype", "networkcategory"}
	usualGeoKeys  = []string{"usualcountries", "usuallocations", "knowncountries", "typicalcountries", "baselinecountries", "homecountries", "expectedcountries", "knownlocations", "usualcountry", "homecountry", "allowedcountries"}
	outcomeKeys   = []string{"outcome", "loginresult", "eventoutcome", "resulttype", "loginstatus", "signinstatus", "authenticationoutcome"}
	userKeys      = []string{"username", "user", "userprincipalname", "upn", "principal", "accountname", "account", "alternateid", "login", "actor", "email"}
	mfaResultKeys = []string{"mfaresult", "mfastatus", "mfa", "mfaoutcome", "mfadetail", "factorresult", "authenticationresult"}
)

// signInDocs indexes a sign-in for reading: cur is the sign-in itself, with
// baseline lists (previous sign-in, usual locations) indexed but not
// descended into, so a country in the user's history is never mistaken
// for the current one, and enrichment keyed by address kept to the
// sign-in's own; prev is the previous sign-in the payload states, or nil.
func signInDocs(raw map[string]any) (cur, prev *doc) {
	raw = providerEvent(raw)
	skip := append(append([]string{}, previousLoginKeys...), usualGeoKeys...)
	cur = newDoc(raw, skip...)
	if ip := sourceAddress(cur); ip != "" && notesOtherAddress(raw, ip, 0) {
		cur = newDoc(withoutOtherAddressNotes(raw, ip, 0), skip...)
	}
	if pm := cur.maps(previousLoginKeys...); len(pm) > 0 {
		prev = newDoc(pm[0])
	}
	return cur, prev
}

// analyzeLogin scores a sign-in; f carries the normalized fields, whose
// outcome and failure counts are read once for every provider.
func analyzeLogin(raw map[string]any, f IdentityFields) Analysis {
	cur, prev := signInDocs(raw)
	ev := &evidence{label: "Suspicious login"}
	riskText := lowerJoin(cur.strs(riskListKeys...))
	riskCompact := normKey(riskText)
	netText := lowerJoin(cur.strs(networkKeys...))

	travel := impossibleTravel(cur, prev, riskCompact+" "+normKey(cur.str("title", "alertname", "searchname", "rulename")))
	if travel != "" {
		ev.add(0.35, "impossible travel: %s", travel)
	}
	anonymised := ""
	if v, ok := cur.boolean("istor", "tor", "torexitnode", "istorexitnode", "torexit"); ok && v || containsTerm(netText, "tor") || containsTerm(riskText, "tor") {
		ev.add(0.30, "the login came through the Tor anonymity network")
		anonymised = "tor"
	} else if why := anonymisingInfra(cur, netText, riskCompact); why != "" {
		// The network rules read the same fact (see their group).
		ev.addGrouped("unfamiliar_network", 0.15, "the login came from anonymising or hosting infrastructure (%s)", why)
		anonymised = why
	}

	fatigue := false
	denied, hasDenied := cur.number(pushDeniedKeys...)
	pushes, hasPushes := cur.number(pushCountKeys...)
	if pushFatigueNamed(cur, riskCompact) {
		ev.add(0.30, "MFA fatigue: the user was flooded with push prompts")
		fatigue = true
	} else if hasDenied && denied >= 3 || hasPushes && pushes >= 5 {
		ev.add(0.30, "MFA fatigue: %s before the login", pushSummary(denied, hasDenied, pushes, hasPushes))
		fatigue = true
	}
	mfaText := lowerJoin(cur.strs(mfaResultKeys...))
	fraud := strings.Contains(mfaText, "fraud")
	if fraud {
		ev.add(0.35, "the user reported the MFA prompt as fraudulent")
	}

	failed, hasFailed := float64(f.FailedAttempts), f.FailedAttempts > 0
	succeeded := loginSucceeded(cur) || f.Result == "success"
	if hasFailed && failed >= 5 {
		w := 0.20
		if failed >= 20 {
			w = 0.30
		}
		suffix := ""
		if succeeded {
			suffix = " and the login then succeeded"
		}
		ev.add(w, "%.0f failed attempts preceded this login%s, suggesting password guessing", failed, suffix)
	}

	newDevice, knownDevice := deviceState(cur)
	if newDevice {
		ev.add(0.10, "the login came from a device not seen before for this user")
	}
	if risk := strings.ToLower(cur.str("risklevel", "risklevelduringsignin", "risklevelaggregated", "riskstate")); risk == "high" || risk == "medium" {
		w := 0.15
		if risk == "medium" {
			w = 0.05
		}
		ev.add(w, "the identity provider rated the sign-in risk %s", risk)
	}
	unusualGeo := scoreUsualLocation(ev, cur)

	// Privilege raises impact rather than likelihood, so it only adds weight
	// when something suspicious already fired.
	if ev.strongest() > 0 {
		if why := privileged(cur); why != "" {
			ev.add(0.10, "the account is privileged (%s), raising the impact of a compromise", why)
		}
	}
	if knownDevice {
		ev.add(-0.20, "the login came from a known, trusted device")
	}
	if !fatigue && !fraud && mfaPassed(cur, mfaText) {
		ev.add(-0.15, "MFA was completed without signs of push abuse")
	}
	if !succeeded {
		ev.add(-0.10, "the login itself did not succeed, so access was not obtained")
	}

	class := loginThresholds.classify(ev)
	category := "suspicious_login"
	switch {
	case class == ClassMalicious:
		category = "account_compromise"
	case class == ClassBenign:
		category = "legitimate_login"
	case fatigue || fraud:
		category = "mfa_fatigue"
	case travel != "":
		category = "impossible_travel"
	case hasFailed && failed >= 5:
		category = "brute_force"
	case anonymised != "":
		category = "anonymized_access"
	case unusualGeo:
		category = "unusual_location"
	}
	var recommended []string
	switch class {
	case ClassMalicious:
		recommended = []string{ActionNotifyUser, ActionCreateTicket}
	case ClassSuspicious, ClassUnknown:
		recommended = []string{ActionCreateTicket}
	}
	return buildAnalysis(ev, class, category, recommended)
}

// impossibleTravel explains why the login implies impossible travel, or
// returns "". Explicit provider flags win; otherwise the current and previous
// logins are compared by coordinates, then by country.
func impossibleTravel(cur, prev *doc, riskCompact string) string {
	if v, ok := cur.boolean("impossibletravel", "isimpossibletravel", "impossibletraveldetected"); ok && v {
		return "the identity provider flagged it"
	}
	if firstSubstring(riskCompact, []string{"impossibletravel", "unlikelytravel", "atypicaltravel"}) != "" {
		return "the identity provider's risk detections report it"
	}
	if prev == nil {
		return ""
	}
	t1, ok1 := eventTime(cur)
	t0, ok0 := eventTime(prev)
	if !ok0 || !ok1 {
		return ""
	}
	gap := t1.Sub(t0)
	if gap < 0 {
		gap = -gap
	}
	lat1, lon1, okc := coords(cur)
	lat0, lon0, okp := coords(prev)
	if okc && okp {
		km := haversineKm(lat0, lon0, lat1, lon1)
		hours := math.Max(gap.Hours(), 1.0/60)
		if km >= 500 && km/hours >= 900 {
			return fmt.Sprintf("%.0f km between logins %.0f minutes apart (about %.0f km/h)", km, gap.Minutes(), km/hours)
		}
		return ""
	}
	c1, c0 := cur.str(countryKeys...), prev.str(countryKeys...)
	if c1 != "" && c0 != "" && !strings.EqualFold(c1, c0) && gap <= time.Hour {
		return fmt.Sprintf("country changed from %s to %s within %.0f minutes", truncate(c0, 40), truncate(c1, 40), gap.Minutes())
	}
	return ""
}

func anonymisingInfra(cur *doc, netText, riskCompact string) string {
	for _, k := range [][2]string{{"isvpn", "VPN"}, {"vpn", "VPN"}, {"isproxy", "proxy"}, {"proxy", "proxy"}, {"anonymousproxy", "proxy"}, {"ishosting", "hosting provider"}, {"hosting", "hosting provider"}, {"isdatacenter", "data centre"}, {"datacenter", "data centre"}, {"isanonymous", "anonymiser"}, {"anonymous", "anonymiser"}} {
		if v, ok := cur.boolean(k[0]); ok && v {
			return k[1]
		}
	}
	for _, k := range [][2]string{{"vpn", "VPN"}, {"proxy", "proxy"}, {"hosting", "hosting provider"}, {"datacenter", "data centre"}, {"data center", "data centre"}, {"anonym*", "anonymiser"}} {
		if containsTerm(netText, k[0]) {
			return k[1]
		}
	}
	if strings.Contains(riskCompact, "anonymousip") || strings.Contains(riskCompact, "anonymizedip") {
		return "anonymous IP address"
	}
	return ""
}

func pushSummary(denied float64, hasDenied bool, pushes float64, hasPushes bool) string {
	switch {
	case hasDenied && hasPushes:
		return fmt.Sprintf("%.0f push prompts, %.0f denied,", pushes, denied)
	case hasDenied:
		return fmt.Sprintf("%.0f denied push prompts", denied)
	}
	return fmt.Sprintf("%.0f push prompts", pushes)
}

// loginSucceeded assumes success unless the event says otherwise: an alert
// about a suspicious login is normally raised for one that got through.
func loginSucceeded(cur *doc) bool {
	if v, ok := cur.boolean("success", "loginsuccess", "succeeded", "issuccess", "authenticationsuccessful"); ok {
		return v
	}
	// A bare "result" or "status" is only trusted at the top level; nested
	// ones usually describe a step such as the MFA prompt, not the login.
	candidates := cur.values(outcomeKeys...)
	for _, e := range cur.entries {
		if e.depth == 1 && (e.key == "result" || e.key == "status") {
			candidates = append(candidates, e.val)
		}
	}
	for _, v := range candidates {
		s, _ := v.(string)
		if m, ok := v.(map[string]any); ok {
			s = newDoc(m).str("result", "status")
		}
		s = strings.ToLower(s)
		if s == "" {
			continue
		}
		return !(strings.Contains(s, "fail") || strings.Contains(s, "deny") || strings.Contains(s, "denied") || strings.Contains(s, "block") || strings.Contains(s, "reject") || strings.Contains(s, "timeout"))
	}
	return true
}

func deviceState(cur *doc) (isNew, known bool) {
	if v, ok := cur.boolean("newdevice", "isnewdevice", "firsttimedevice", "unknowndevice", "devicefirstseen", "firstseendevice"); ok && v {
		return true, false
	}
	if v, ok := cur.boolean("knowndevice", "isknowndevice", "deviceknown", "familiardevice"); ok {
		return !v, v
	}
	// PingOne Protect states it as the new-device predictor's status.
	switch normKey(cur.scalarStr("newdevicestatus")) {
	case "knowndevice":
		return false, true
	case "newdevice", "unknowndevice":
		return true, false
	}
	if v, ok := cur.boolean("devicetrusted", "trusteddevice", "istrusteddevice", "ismanaged", "iscompliant", "managed", "compliant"); ok && v {
		return false, true
	}
	return false, false
}

// scoreUsualLocation compares the login country with the user's baseline and
// reports whether the location was unusual.
func scoreUsualLocation(ev *evidence, cur *doc) bool {
	usual := cur.strs(usualGeoKeys...)
	// Vendors give a name, a code or both; any of them matching the
	// baseline ("US" vs "United States") counts as usual.
	countries := cur.strs(countryKeys...)
	if len(countries) > 0 && len(usual) > 0 {
		for _, c := range countries {
			for _, u := range usual {
				if strings.EqualFold(strings.TrimSpace(u), strings.TrimSpace(c)) {
					ev.add(-0.20, "%s is one of the user's usual countries", truncate(c, 40))
					return false
				}
			}
		}
		ev.add(0.20, "%s is not among the user's usual countries (%s)", truncate(countries[0], 40), truncate(strings.Join(uniqueSorted(usual), ", "), 80))
		return true
	}
	if v, ok := cur.boolean("usuallocation", "isusuallocation", "knownlocation", "isknownlocation", "familiarlocation"); ok {
		if v {
			ev.add(-0.20, "the login came from the user's usual location")
			return false
		}
		ev.add(0.20, "the login came from an unfamiliar location")
		return true
	}
	return false
}

func privileged(cur *doc) string {
	if v, ok := cur.boolean("isadmin", "admin", "privileged", "isprivileged", "privilegedaccount", "isprivilegeduser"); ok && v {
		return "flagged as admin"
	}
	roles := lowerJoin(cur.strs("roles", "role", "groups", "memberof", "privileges", "adminroles", "directoryroles", "directoryrolesofuser", "assignedroles", "userroles"))
	if r := matchedTerms(roles, []string{"admin*", "administrator*", "domain admins", "global admin*", "root"}); len(r) > 0 {
		return "role " + r[0]
	}
	user := strings.ToLower(cur.str(userKeys...))
	for _, tok := range strings.FieldsFunc(user, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if strings.HasPrefix(tok, "admin") || tok == "adm" || tok == "root" {
			return "username " + truncate(user, 60)
		}
	}
	return ""
}

// emergencyAccount reports a break-glass account by its name or display
// name ("breakglass-01", "Emergency Access 01"): organisations name them
// so, and watch every sign-in they make.
func emergencyAccount(cur *doc) bool {
	names := normKey(lowerJoin(cur.strs(append([]string{"userdisplayname", "displayname"}, userKeys...)...)))
	return containsAnyTerm(names, "breakglass", "emergencyaccess", "emergencyadmin")
}

func mfaPassed(cur *doc, mfaText string) bool {
	if v, ok := cur.boolean("mfapassed", "mfasatisfied", "mfaverified", "mfasuccess", "mfacompleted", "mfa", "mfaused"); ok {
		return v
	}
	if firstSubstring(mfaText, []string{"fail", "denied", "reject", "timeout", "not "}) != "" {
		return false
	}
	return firstSubstring(mfaText, []string{"success", "approved", "passed", "satisfied", "completed"}) != ""
}

func eventTime(d *doc) (time.Time, bool) {
	for _, v := range d.values(timeKeys...) {
		switch t := v.(type) {
		case string:
			if ts, ok := parseTime(t); ok {
				return ts, true
			}
		default:
			if f, ok := asNumber(v); ok && f > 1e9 {
				if f > 1e12 {
					return time.UnixMilli(int64(f)).UTC(), true
				}
				return time.Unix(int64(f), 0).UTC(), true
			}
		}
	}
	return time.Time{}, false
}

func coords(d *doc) (lat, lon float64, ok bool) {
	lat, okLat := d.number("latitude", "lat")
	lon, okLon := d.number("longitude", "lon", "lng", "long")
	if !okLat || !okLon || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return 0, 0, false
	}
	return lat, lon, true
}

func haversineKm(lat1, lon1, lat2, lon2 float64) float64 {
	const earthRadiusKm = 6371.0
	rad := math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLon := (lon2 - lon1) * rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(a)))
}

// parseTime reads the timestamp layouts vendors use, down to a bare date.
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02"} {
		if ts, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return ts, true
		}
	}
	return time.Time{}, false
}
