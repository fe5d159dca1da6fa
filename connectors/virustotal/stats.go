package virustotal

import "github.com/vigil-soc/vigil/triage"

// analysisStats counts the engines' verdicts in the last analysis.
type analysisStats struct {
	Malicious  int `json:"malicious"`
	Suspicious int `json:"suspicious"`
	Harmless   int `json:"harmless"`
	Undetected int `json:"undetected"`
	Timeout    int `json:"timeout"`
}

// Thresholds for rating engine verdicts. A single engine flagging an
// indicator is routine noise (heuristics, stale lists); three agreeing is
// the usual floor for calling it malicious, and each further engine adds
// confidence until thirteen make the score certain.
const (
	maliciousEngines  = 3
	maliciousFloor    = 70
	perExtraEngine    = 3
	suspiciousFloor   = 40
	suspiciousCeiling = 69
)

// engines is how many engines gave a verdict (timeouts excluded).
func (s analysisStats) engines() int {
	return s.Malicious + s.Suspicious + s.Harmless + s.Undetected
}

// rate turns the counts into a verdict and a 0..100 score:
//   - no engine verdict: unknown, 0;
//   - at least 3 malicious: malicious, 70 plus 3 per further engine, at most 100;
//   - 1 or 2 malicious, or at least 2 suspicious: suspicious, 40 plus 10 per
//     malicious and 5 per suspicious engine, at most 69;
//   - otherwise clean, 10 when one engine found it suspicious, else 0.
func (s analysisStats) rate() (verdict string, score int) {
	switch {
	case s.engines() == 0:
		return triage.ReputationUnknown, 0
	case s.Malicious >= maliciousEngines:
		return triage.ReputationMalicious, min(100, maliciousFloor+perExtraEngine*(s.Malicious-maliciousEngines))
	case s.Malicious > 0 || s.Suspicious >= 2:
		return triage.ReputationSuspicious, min(suspiciousCeiling, suspiciousFloor+10*s.Malicious+5*s.Suspicious)
	default:
		return triage.ReputationClean, 10 * s.Suspicious
	}
}
