package triage

// Finding is one verdict rule that fired on an incident.
type Finding struct {
	Rule        string   `json:"rule"`
	Weight      float64  `json:"weight"`
	Explanation string   `json:"explanation"`
	Evidence    string   `json:"evidence,omitempty"`
	Attack      []string `json:"attack,omitempty"`
}

// Assessment is the normalized evidence of an incident and the rules that
// fired on it, for consumers other than the rule analyzer (the model
// prompt, reports).
type Assessment struct {
	// Kind is the alert family the incident was judged as: phishing,
	// malware, suspicious_login or generic.
	Kind     string    `json:"kind"`
	Fields   Fields    `json:"fields"`
	Findings []Finding `json:"findings"` // never nil
	// Wording is the word model's reading of the alert; nil when the alert
	// has too few known words to judge.
	Wording *WordReading `json:"wording,omitempty"`
}

// Assess normalizes inc and evaluates the built-in rules on it. Like the
// analyzer it is pure and deterministic; ind is extracted from the raw data
// when entirely empty.
func Assess(inc Incident, ind Indicators) Assessment {
	if indicatorCount(ind) == 0 {
		ind = ExtractIndicators(inc.RawData)
	}
	f := normalize(inc, ind)
	kind := analysisKind(inc.IncidentType, f)
	out := Assessment{Kind: kind, Fields: f, Findings: []Finding{}}
	for _, h := range builtinRules.evaluate(kind, f) {
		out.Findings = append(out.Findings, Finding{
			Rule: h.rule.ID, Weight: h.rule.Weight, Explanation: h.rule.Explanation,
			Evidence: h.evidence, Attack: append([]string(nil), h.rule.Attack...),
		})
	}
	if r, ok := readWords(BuiltinWordModel(), inc, -1); ok {
		out.Wording = &r
	}
	return out
}
