package triage

import (
	"regexp"
	"strconv"
	"strings"
)

// Identity providers that watch for attacks on many accounts name what
// they saw in the event itself: Okta ThreatInsight's outcome reason and
// threat detections ("Password Spray", "Login failures with high unknown
// users count"), Auth0's limit_mu event (an address blocked for failed
// logins across multiple users), PingOne Protect's user velocity by IP
// (how many distinct users one address tried within the hour).

// sprayDetectionRe names an attack on many accounts from one source.
var sprayDetectionRe = regexp.MustCompile(`password[\s_-]?spray|credential[\s_-]?stuffing|unknown users count|(across|against) (multiple|many) (accounts|users)|\(multiple users\)`)

// sprayDetectionKeys are the fields where a provider states its detection,
// as opposed to free text that may explain what a rule looks for.
var sprayDetectionKeys = []string{"reason", "threatdetections", "description", "title", "alertname", "detectionname", "rulename"}

// readSprayReport sets SprayReported from the provider's detection and
// raises TargetedUsers from PingOne's user velocity by IP.
func readSprayReport(f *IdentityFields, cur *doc) {
	if strings.EqualFold(cur.scalarStr("type"), "limit_mu") {
		f.SprayReported = true
	}
	for _, s := range cur.scalarStrs(sprayDetectionKeys...) {
		s = strings.ToLower(s)
		if m := sprayDetectionRe.FindString(s); m != "" && affirmedPhrase(s, m) != "" {
			f.SprayReported = true
		}
	}
	for _, v := range cur.maps("uservelocitybyip") {
		level, _ := v["level"].(string)
		if severityRank(strings.ToLower(level)) < severityRank("medium") {
			continue
		}
		velocity, _ := v["velocity"].(map[string]any)
		if n, ok := asNumber(velocity["distinctCount"]); ok && int(n) > f.TargetedUsers {
			f.TargetedUsers = int(n)
		}
	}
}

// Defender for Identity states a brute-force or spraying alert's extent in
// its description: "... with 2 passwords against 412 accounts ... The
// password 'Summer2025!' was successfully guessed for 2 accounts", or "14
// accounts were attacked. 0 passwords were guessed successfully."
var (
	accountsAttackedRe = regexp.MustCompile(`against (\d[\d,]*) (?:different |distinct |user )?accounts|(\d[\d,]*) accounts were (?:attacked|targeted|tried)`)
	passwordGuessedRe  = regexp.MustCompile(`(?:was|were) successfully guessed|([0-9][\d,]*|one|two|three) passwords? (?:was|were) guessed successfully`)
)

// readGuessingWording raises TargetedUsers from a description's count of
// accounts attacked, and reads a password it says was guessed as a
// successful sign-in.
func readGuessingWording(f *IdentityFields, cur *doc) {
	for _, s := range cur.scalarStrs("description") {
		s = strings.ToLower(s)
		if m := accountsAttackedRe.FindStringSubmatch(s); m != nil {
			n, _ := strconv.Atoi(strings.ReplaceAll(m[1]+m[2], ",", ""))
			f.TargetedUsers = max(f.TargetedUsers, n)
		}
		m := passwordGuessedRe.FindStringSubmatch(s)
		if m == nil || m[1] == "0" || affirmedPhrase(s, m[0]) == "" {
			continue
		}
		f.Result = "success"
	}
}
