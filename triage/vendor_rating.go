package triage

// vendorRatingWeight is what the reporting product's own rating of an
// alert adds, for the ratings that count (see applyVendorRating).
var vendorRatingWeight = map[int]float64{3: 0.3, 4: 0.4}

// vendorRatingExplainedBy is the benign weight of a single piece of
// evidence that explains an alert's red flags away, so that the product's
// rating is not added.
const vendorRatingExplainedBy = 0.2

// applyVendorRating weighs the reporting product's own rating when the
// evidence found leans towards risk without proving it. A product that
// rates an alert high or critical has usually seen more than its payload
// shows (the telemetry around it, its own models), and an analyst takes
// such an alert as an attack unless something in it explains the red
// flags away. So the rating is added as evidence to a suspicious verdict
// that at least one red flag supports (a finding of substance, not the
// alert's own severity or its observables) and no benign evidence
// tempers, and the verdict is classified again: it can only rise. It is
// not added when a finding is about a dual-use tool (see Rule.DualUse):
// the rating of a remote-administration tool is the tool's class, and
// the tool's own traits (run from Downloads) say no more. It
// applies to endpoint and other detections (the malware and generic
// kinds); phishing and sign-in verdicts are left alone, since there a high
// rating often sits on failed attempts or bulk mail.
func applyVendorRating(kind string, a Analysis, f Fields) Analysis {
	w := vendorRatingWeight[f.Severity]
	if a.Verdict.Classification != ClassSuspicious || w == 0 || (kind != kindMalware && kind != kindGeneric) {
		return a
	}
	return rescore(kind, a, func(ev *evidence) bool {
		flagged := false
		for i, c := range ev.counted() {
			if c <= -vendorRatingExplainedBy {
				return false
			}
			if c > 0 && ev.signals[i].dualUse {
				return false
			}
			flagged = flagged || (c >= substantive && !ev.signals[i].context)
		}
		if !flagged {
			return false
		}
		ev.addContext(w, "the reporting product rated it %s, and nothing found explains the red flags away", severityName(f.Severity))
		return true
	}, func(_, to string, _ *evidence) string { return to }, recategorize)
}

// severityName is the word for a severity rank of 3 or 4.
func severityName(rank int) string {
	if rank >= 4 {
		return "critical"
	}
	return "high"
}
