package triage

import "strings"

// Awareness platforms (KnowBe4, Cofense PhishMe, Proofpoint ThreatSim,
// Gophish, Hoxhunt, Microsoft's attack simulation) stamp their mail with a
// campaign header, and the tools users report mail through tag or close
// such reports as a simulation. A reported simulation is the user doing
// what the training asked, not a threat. Products file the header either
// as a key (X-PhishMe: true) or as a name/value pair in a header list
// ({"header": "X-PHISHTEST", "value": ...}); the reporting tool's verdict
// sits in its tags, category, rule or recipe names.

// simulationHeaderMarkers are the folded names of the campaign headers
// simulation platforms add.
var simulationHeaderMarkers = []string{"xphishtest", "xphishme", "xkb4", "xthreatsim", "xgophish", "xhoxhunt", "xphishsim", "xphishingsimulation"}

// simulationVerdictMarkers are folded tags and verdicts the reporting tool
// gives a report it matched to a simulation campaign.
var simulationVerdictMarkers = []string{"phishtest", "phishmesimulation", "phishsim", "phishingsimulation", "simulatedphish", "phishingtest",
	"awarenesstraining", "trainingemail", "simulationemail"}

// simulationVerdicts are whole folded verdicts meaning the same.
var simulationVerdicts = setOf("simulation", "training", "simulated")

// headerNameKeys name where a header list files each header's name.
var headerNameKeys = setOf("header", "name", "headername", "field", "key")

// campaignHeader reports a simulation platform's campaign header, filed
// as a key or by name in a header list.
func campaignHeader(e entry) bool {
	if hasAnyPrefix(e.key, simulationHeaderMarkers) {
		return true
	}
	s, ok := e.val.(string)
	return ok && headerNameKeys[e.key] && strings.Contains(e.scope, "header") && hasAnyPrefix(normKey(s), simulationHeaderMarkers)
}

// reportedAsSimulation reports the reporting tool's own tag or verdict
// naming a simulation.
func reportedAsSimulation(d *doc) bool {
	for _, s := range d.strs("tags", "tag", "labels", "category", "classification", "verdict", "disposition", "rulenames", "rules", "recipes", "matchedrules") {
		k := normKey(s)
		if simulationVerdicts[k] || containsAnyTerm(k, simulationVerdictMarkers...) {
			return true
		}
	}
	return false
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
