package triage

import "strings"

// HR and travel systems, and the enrichment SIEMs add from them, record a
// user's trip under names of their own ("travelRequest", "hr_travel",
// "approvedTravel"). A trip on record to the country the sign-in came from
// explains a sign-in from abroad the way a ticket explains a change.

// travelStatusWords say a trip record was approved or booked.
var travelStatusWords = []string{"approved", "booked", "confirmed", "registered", "ticketed", "intravel", "ontrip", "traveling", "travelling"}

// travelNegations say there is no trip on record.
var travelNegations = []string{"none", "no", "false", "notfound", "norecord", "notravel", "unknown", "na", "nil", "null", "pending", "rejected", "denied", "cancelled", "canceled", "expired"}

// readTravelRecord sets ExpectedTravel when a trip record is present and,
// where it names a destination, the destination is where the sign-in came
// from.
func readTravelRecord(f *IdentityFields, d *doc) {
	for _, e := range d.entries {
		if !travelKey(e.key) {
			continue
		}
		// A field inside a trip record is judged with its record.
		if _, isMap := e.val.(map[string]any); !isMap && strings.Contains(e.scope[:max(strings.LastIndexByte(e.scope, '.'), 0)], "travel") {
			continue
		}
		switch v := e.val.(type) {
		case bool:
			if v && containsAnyTerm(e.key, "approved", "registered", "notified", "booked", "ontravel", "expected", "intravel") {
				f.ExpectedTravel = true
			}
		case string:
			s := normKey(v)
			if s == "" || travelNegated(s) {
				continue
			}
			if containsAnyTerm(e.key, "request", "ticket", "record", "booking", "itinerary", "trip", "approval", "notice", "status") &&
				(firstSubstring(s, travelStatusWords) != "" || strings.ContainsAny(v, "0123456789")) {
				f.ExpectedTravel = true
			}
		case map[string]any:
			if travelRecordCovers(newDoc(v), f.Country) {
				f.ExpectedTravel = true
			}
		}
	}
}

// travelKey reports a key about a planned trip, not the provider's travel
// arithmetic (impossible travel, travel speed or distance).
func travelKey(k string) bool {
	return strings.Contains(k, "travel") && !containsAnyTerm(k, "impossible", "atypical", "speed", "velocity", "km", "distance", "miles", "time", "unlikely", "anomal")
}

func travelNegated(s string) bool {
	for _, n := range travelNegations {
		if s == n {
			return true
		}
	}
	return containsAnyTerm(s, "notravel", "norecord", "notfound", "notonrecord", "noapproved", "notapproved", "nobooking", "nomatching")
}

// travelRecordCovers reports a trip record that is approved or booked
// and, when it names where the trip goes, goes where the sign-in is.
func travelRecordCovers(rec *doc, country string) bool {
	status := normKey(rec.str("status", "state", "approval", "approvalstatus"))
	approved := firstSubstring(status, travelStatusWords) != "" && !travelNegated(status)
	if v, ok := rec.boolean("approved", "booked", "confirmed"); ok {
		approved = v
	}
	if !approved {
		return false
	}
	dest := rec.strs("destination", "destinationcountry", "country", "countries", "destinations")
	if len(dest) == 0 || country == "" {
		return true
	}
	c := strings.ToLower(strings.TrimSpace(country))
	for _, d := range dest {
		d = strings.ToLower(strings.TrimSpace(d))
		if d != "" && (strings.Contains(d, c) || strings.Contains(c, d)) {
			return true
		}
	}
	return false
}
