package triage

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// RuleAnalyzer is the built-in, deterministic analyzer. It scores weighted
// evidence signals per incident type and explains every signal that fired,
// then weighs the verdict against a word model (see weighWords). The zero
// value is ready to use.
type RuleAnalyzer struct {
	// Words replaces the built-in word model when set; cross-validation
	// uses it to score folders with a model that never saw them.
	Words *WordModel
}

// NewRuleAnalyzer returns a RuleAnalyzer.
func NewRuleAnalyzer() RuleAnalyzer { return RuleAnalyzer{} }

var _ Analyzer = RuleAnalyzer{}

// Incident kinds the rule analyzer dispatches on.
const (
	kindPhishing = "phishing"
	kindMalware  = "malware"
	kindLogin    = "suspicious_login"
	kindGeneric  = "generic"
)

// Analyze classifies inc. If ind is entirely empty the indicators are
// extracted from inc.RawData, so callers that skipped extraction still get
// link- and hash-based signals. Threat-intelligence reputations in inc.Intel
// are weighed after the type-specific rules (see applyIntel). The only error
// is a cancelled context.
func (r RuleAnalyzer) Analyze(ctx context.Context, inc Incident, ind Indicators) (Analysis, error) {
	if err := ctx.Err(); err != nil {
		return Analysis{}, err
	}
	if indicatorCount(ind) == 0 {
		ind = ExtractIndicators(inc.RawData)
	}
	var a Analysis
	fields, signIn := normalizeSignIn(inc, ind)
	kind := analysisKind(inc.IncidentType, fields)
	switch kind {
	case kindPhishing:
		a = analyzePhishing(ind, newDoc(inc.RawData), fields.Email)
	case kindMalware:
		a = analyzeMalware(inc, ind, newDoc(inc.RawData))
	case kindLogin:
		if signIn == nil {
			signIn = signInView(inc.RawData)
		}
		a = analyzeLogin(signIn, fields.Identity)
	default:
		a = analyzeGeneric(inc, ind)
	}
	a = applyRules(kind, a, fields, builtinRules.evaluate(kind, fields))
	a = applyIntel(kind, a, inc.Intel)
	a = applyVendorRating(kind, a, fields)
	a = weighWords(r.words(), kind, a, inc, fields)
	a.trail = nil
	if a.RecommendedActions == nil {
		a.RecommendedActions = []string{}
	}
	a.Analyzer = BuiltinAnalyzerName
	return a, nil
}

// words is the word model the analyzer weighs verdicts with.
func (r RuleAnalyzer) words() *WordModel {
	if r.Words != nil {
		return r.Words
	}
	return BuiltinWordModel()
}

// incidentKind folds case and separators so "Suspicious Login",
// "suspicious_login" and "SUSPICIOUS-LOGIN" dispatch identically.
func incidentKind(t string) string {
	switch normKey(t) {
	case "phishing", "phish", "phishingemail", "emailphishing", "reportedphish", "reportedphishing":
		return kindPhishing
	case "malware", "malwaredetection", "ransomware", "edrdetection", "endpointdetection":
		return kindMalware
	case "suspiciouslogin", "suspicioussignin", "suspiciouslogon", "suspiciousauthentication", "riskysignin":
		return kindLogin
	}
	return kindGeneric
}

func indicatorCount(ind Indicators) int {
	return len(ind.URLs) + len(ind.Domains) + len(ind.IPs) + len(ind.Hashes) + len(ind.Emails)
}

// signal is one piece of evidence. Positive weights point towards malicious,
// negative weights towards benign.
type signal struct {
	weight float64
	text   string
	// group names the underlying fact the signal reads; signals of one
	// group are one piece of evidence, so only the strongest counts.
	group string
	// context marks a signal about the alert rather than anything it
	// observed (its reported severity, how many observables it carries, a
	// hash to hunt): it weighs like any other, but is no red flag.
	context bool
	// dualUse marks a finding about a dual-use tool (see Rule.DualUse).
	dualUse bool
}

// evidence accumulates signals in the order the rules are evaluated. Rules
// run in a fixed order, which is what makes the reasoning text reproducible.
type evidence struct {
	label   string
	signals []signal
	// rules is set once verdict rules have added evidence; it lets the
	// generic kind use real thresholds instead of staying undecided.
	rules bool
	// resolved is set when a rule judged the red flags themselves benign
	// (see Rule.Resolves).
	resolved bool
	// explained is set when a rule accounts for every red flag (see
	// Rule.Explains): the verdict is benign whatever the score.
	explained bool
	// exercise is set when the explaining rule is an authorised security
	// exercise's (its group is testingGroup): such hosts and simulations
	// raise critical alerts by design, so it passes the critical guard.
	exercise bool
	// keptOpen is set when a rule that keeps the alert open fired (see
	// Rule.KeepsOpen).
	keptOpen bool
	// unwantedOnly is set when the only detection is a potentially
	// unwanted program and nothing it did was hostile: such an alert is at
	// most suspicious until a finding of its own (see strongRuleWeight)
	// says otherwise.
	unwantedOnly bool
	// intelMalicious is set when threat intelligence rated an indicator of
	// the alert malicious: the wording alone never closes such an alert.
	intelMalicious bool
}

func (ev *evidence) add(weight float64, format string, args ...any) {
	ev.addGrouped("", weight, format, args...)
}

// addContext adds a context signal (see signal.context).
func (ev *evidence) addContext(weight float64, format string, args ...any) {
	ev.signals = append(ev.signals, signal{weight: weight, text: fmt.Sprintf(format, args...), context: true})
}

// addGrouped adds a signal that reads the same fact as the other signals
// of group ("" for none): several rules noticing one encoded command line
// or one hosting network are one piece of evidence, not several.
func (ev *evidence) addGrouped(group string, weight float64, format string, args ...any) {
	ev.signals = append(ev.signals, signal{weight: weight, text: fmt.Sprintf(format, args...), group: group})
}

// counted returns the weight each signal contributes: its own, except that
// in a group only the strongest signal on each side (towards malicious,
// towards benign) counts, the first of equals.
func (ev *evidence) counted() []float64 {
	out := make([]float64, len(ev.signals))
	best := map[string]int{}
	for i, sg := range ev.signals {
		out[i] = sg.weight
		if sg.group == "" || sg.weight == 0 {
			continue
		}
		key := sg.group + "+"
		if sg.weight < 0 {
			key = sg.group + "-"
		}
		j, seen := best[key]
		switch {
		case !seen:
			best[key] = i
		case math.Abs(sg.weight) > math.Abs(ev.signals[j].weight):
			out[j] = 0
			best[key] = i
		default:
			out[i] = 0
		}
	}
	return out
}

// score sums the counted weights, rounded so that threshold comparisons are
// not at the mercy of binary floating-point noise (0.1+0.2 style).
func (ev *evidence) score() float64 {
	var s float64
	for _, w := range ev.counted() {
		s += w
	}
	return round2(s)
}

// strongest returns the largest positive weight, used to stop a pile of
// benign context from hiding one serious red flag.
func (ev *evidence) strongest() float64 { return ev.largestWeight(false) }

// strongestFinding is strongest over the signals that are findings, not
// context (see signal.context): a reported severity is no red flag.
func (ev *evidence) strongestFinding() float64 { return ev.largestWeight(true) }

// largestWeight returns the largest positive weight, over the findings
// alone when findingsOnly is set.
func (ev *evidence) largestWeight(findingsOnly bool) float64 {
	var m float64
	for _, sg := range ev.signals {
		if sg.weight > m && !(findingsOnly && sg.context) {
			m = sg.weight
		}
	}
	return m
}

func (ev *evidence) reasoning(class string) string {
	var b strings.Builder
	b.WriteString(ev.label)
	b.WriteString(" analysis: ")
	if len(ev.signals) == 0 {
		b.WriteString("no signals fired. ")
	}
	counted := ev.counted()
	for i, sg := range ev.signals {
		text := sg.text
		if text != "" {
			text = strings.ToUpper(text[:1]) + text[1:]
		}
		if counted[i] != sg.weight {
			fmt.Fprintf(&b, "%s (%+.2f, counted once with the stronger %s evidence). ", text, sg.weight, sg.group)
			continue
		}
		fmt.Fprintf(&b, "%s (%+.2f). ", text, sg.weight)
	}
	if ev.explained {
		fmt.Fprintf(&b, "Net score %.2f, with every red flag explained by a rule above: %s.", ev.score(), class)
		return b.String()
	}
	fmt.Fprintf(&b, "Net score %.2f: %s.", ev.score(), class)
	return b.String()
}

// thresholds map a net score to a classification. A benign verdict also
// requires that no single positive signal reaches maxPositiveForBenign.
type thresholds struct {
	malicious            float64
	suspicious           float64
	benign               float64 // negative
	maxPositiveForBenign float64
}

func (t thresholds) classify(ev *evidence) string {
	s := ev.score()
	switch {
	case ev.explained:
		return ClassBenign
	case s >= t.malicious:
		return ClassMalicious
	case s >= t.suspicious:
		return ClassSuspicious
	case s <= t.benign && (ev.strongest() < t.maxPositiveForBenign || ev.resolved):
		return ClassBenign
	case s <= t.benign:
		// A serious red flag outweighed by context still deserves a look.
		return ClassSuspicious
	}
	return ev.lean(t)
}

// substantive is the smallest weight that counts as evidence when the net
// score falls between the thresholds; smaller signals (an observable to
// enrich, a hash to hunt) are bookkeeping, not findings.
const substantive = 0.1

// lean decides a score between the benign and suspicious thresholds. With
// real findings the side that weighs more wins, so weak evidence still
// gives an answer; unknown is left for no findings at all, or for strong
// findings on both sides that cancel out.
func (ev *evidence) lean(t thresholds) string {
	var pos, neg float64
	for _, sg := range ev.signals {
		switch {
		case sg.weight >= substantive:
			pos += sg.weight
		case sg.weight <= -substantive:
			neg -= sg.weight
		}
	}
	s := ev.score()
	switch {
	case pos == 0 && neg == 0:
		return ClassUnknown
	case pos >= 0.3 && neg >= 0.3 && math.Abs(s) < substantive:
		return ClassUnknown
	case s > 0:
		return ClassSuspicious
	case s < 0 && (ev.strongest() < t.maxPositiveForBenign || ev.resolved):
		return ClassBenign
	case s < 0:
		return ClassSuspicious
	}
	return ClassUnknown
}

// confidence grows with the distance of the score from the undecided middle.
// The constants are chosen so that a typical two-strong-signal malicious case
// lands around 0.85-0.9 and a lone weak signal stays near 0.5.
func confidence(class string, score float64) float64 {
	var c float64
	switch class {
	case ClassMalicious:
		c = 0.45 + 0.5*score
	case ClassSuspicious:
		c = 0.40 + 0.5*score
	case ClassBenign:
		c = 0.55 - 0.5*score
	default:
		// "Unknown" is never acted on automatically; its confidence only
		// says how little the evidence pulled in either direction.
		c = 0.30 - 0.5*math.Abs(score)
	}
	return round2(math.Min(0.99, math.Max(0.05, c)))
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// actions returns the known action names among names, deduplicated, in the
// canonical order of KnownActions, and never nil.
func actions(names ...string) []string {
	want := setOf(names...)
	out := []string{}
	for _, a := range actionOrder {
		if want[a] {
			out = append(out, a)
		}
	}
	return out
}

func buildAnalysis(ev *evidence, class, category string, recommended []string) Analysis {
	return Analysis{
		Verdict: Verdict{
			Classification: class,
			Confidence:     confidence(class, ev.score()),
			Category:       category,
			Reasoning:      ev.reasoning(class),
		},
		RecommendedActions: actions(recommended...),
		trail:              ev,
	}
}

// severityRank maps the usual severity words to 0 (informational) .. 4
// (critical); -1 means unknown.
func severityRank(s string) int {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "informational", "info", "none":
		return 0
	case "low":
		return 1
	case "medium", "moderate", "med":
		return 2
	case "high":
		return 3
	case "critical", "severe":
		return 4
	}
	return -1
}

// incidentSeverity prefers the normalised incident severity and falls back to
// a severity word found in the payload.
func incidentSeverity(inc Incident, d *doc) (string, int) {
	if r := severityRank(inc.Severity); r >= 0 {
		return strings.ToLower(strings.TrimSpace(inc.Severity)), r
	}
	if d != nil {
		for _, s := range d.strs("severity", "severityname", "threatseverity", "alertseverity") {
			if r := severityRank(s); r >= 0 {
				return strings.ToLower(strings.TrimSpace(s)), r
			}
		}
	}
	return "", -1
}
