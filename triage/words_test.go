package triage

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestAlertTermsAreTheWordsOfTheValuesNotTheFieldNames(t *testing.T) {
	inc := Incident{IncidentType: "Malware", Severity: "High", RawData: map[string]any{
		"CommandLine": "PowerShell.exe -EncodedCommand SQBFAFgA",
		"nested":      []any{map[string]any{"note": "Quarterly backup job"}, 42.0, true},
		"sha256":      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"host":        "ws-20931", // too short and too numeric to be a term
	}}
	checkTerms(t, inc, []string{"backup", "encodedcommand", "exe", "job", "powershell", "quarterly", "sev:high", "sqbfafga", "type:malware"})
}

// The pieces of a GUID or message id are random, so they are no terms;
// words of hex letters alone ("added", "face") and words with other
// letters and digits ("x64", "win11") still are.
func TestAlertTermsLeaveOutIdentifierFragments(t *testing.T) {
	inc := Incident{RawData: map[string]any{
		"id":    "0c4f8b27-93d1-4a6e-8e5b-71d2a9c0f6e3",
		"note":  "face added to x64 win11 image",
		"msgid": "ab12cd-e4f5a6b7@mail.example",
	}}
	checkTerms(t, inc, []string{"added", "example", "face", "image", "mail", "sev:", "type:", "win11", "x64"})
}

func TestAlertTermsLeaveOutTheFieldNamesOfALogRecordCarriedAsText(t *testing.T) {
	inc := Incident{RawData: map[string]any{
		"_raw": "LogName=System RecordNumber=882104 Message=Service installed",
		"xml":  "<Event><EventData><Data Name='ImagePath'>cmd.exe /c echo</Data></EventData></Event>",
		"url":  "https://portal.example/view?doc=invoice&user=finance",
	}}
	checkTerms(t, inc, []string{"cmd", "doc", "echo", "example", "exe", "finance", "https", "installed", "invoice", "portal", "service", "sev:", "system", "type:", "user", "view"})
}

func TestAlertTermsFoldCallerGivenTypesIntoOneColumnSafeTerm(t *testing.T) {
	want := []string{"sev:high", "type:identity.mfa_push_anomaly___x"}
	checkTerms(t, Incident{IncidentType: "Identity.MFA push\tanomaly\n# x", Severity: " High "}, want)
	m := toyModel(t)
	m.Terms[want[1]] = [3]int{1, 0, 0}
	var b strings.Builder
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadWordModel(strings.NewReader(b.String()))
	if err != nil || back.Terms[want[1]] != [3]int{1, 0, 0} {
		t.Fatalf("a type term did not survive the model file: %v", err)
	}
}

func TestAlertTermsAreBoundedInCountAndDepth(t *testing.T) {
	words := make([]string, maxAlertTerms+100)
	for i := range words {
		words[i] = fmt.Sprintf("w%c%c%c", 'a'+i/676%26, 'a'+i/26%26, 'a'+i%26)
	}
	deep := any("deepword")
	for range maxWalkDepth {
		deep = map[string]any{"k": deep}
	}
	got := AlertTerms(Incident{IncidentType: "alert", Severity: "low", RawData: map[string]any{"words": strings.Join(words, " ")}})
	if len(got) != maxAlertTerms {
		t.Fatalf("%d terms, want the bound %d", len(got), maxAlertTerms)
	}
	if !slices.Contains(got, "type:alert") || !slices.Contains(got, "sev:low") {
		t.Error("the type and severity terms were crowded out by the words")
	}
	tooDeep := AlertTerms(Incident{RawData: map[string]any{"nested": deep}})
	shallow := AlertTerms(Incident{RawData: map[string]any{"nested": map[string]any{"k": "deepword"}}})
	if slices.Contains(tooDeep, "deepword") || !slices.Contains(shallow, "deepword") {
		t.Errorf("a string %d levels down was read, or one 2 levels down was not", maxWalkDepth+1)
	}
}

func TestWordModelFileRoundTrips(t *testing.T) {
	m := toyModel(t)
	var b strings.Builder
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadWordModel(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, b.String())
	}
	if back.Docs != m.Docs || !reflect.DeepEqual(back.Terms, m.Terms) {
		t.Fatalf("read back %+v, wrote %+v", back, m)
	}
	if !reflect.DeepEqual(back.Comment[:1], []string{"toy"}) {
		t.Errorf("comment = %q, want it to start with %q", back.Comment, "toy")
	}
}

func TestReadWordModelNamesWhatIsWrong(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"*docs\t1\t1\t1\nscanner\t1\t2\n", "line 2: want a term and three counts"},
		{"*docs\t1\t1\t1\nscanner\t1\tmany\t2\n", `line 2: count "many"`},
		{"scanner\t1\t1\t2\n", "no malicious alerts counted"},
	} {
		if _, err := ReadWordModel(strings.NewReader(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadWordModel(%q) error = %v, want one containing %q", tc.text, err, tc.want)
		}
	}
}

func TestTrainWordsKeepsOnlyRepeatedTermsAndRejectsUnknownLabels(t *testing.T) {
	m := toyModel(t)
	if _, ok := m.Terms["once"]; ok {
		t.Error("a term seen in one alert was kept")
	}
	if got := m.Terms["quillon"]; got != [3]int{0, 0, 3} {
		t.Errorf("quillon counts = %v, want [0 0 3]", got)
	}
	_, err := TrainWords([]LabelledAlert{{Incident: Incident{}, Label: "unknown"}})
	if err == nil || !strings.Contains(err.Error(), `label "unknown"`) {
		t.Errorf("training on an unknown label: %v", err)
	}
}

func TestTrainWordsCountsTermsTheCallerAlreadyRead(t *testing.T) {
	alerts := []LabelledAlert{}
	for _, l := range wordClasses {
		for range 2 {
			alerts = append(alerts, LabelledAlert{Incident: toyAlert("low", []string{"quillon"}), Label: l, Terms: []string{"zorbel"}})
		}
	}
	m, err := TrainWords(alerts)
	if err != nil {
		t.Fatal(err)
	}
	if _, read := m.Terms["quillon"]; read || m.Terms["zorbel"] != [3]int{2, 2, 2} {
		t.Fatalf("terms = %v, want only the given zorbel counted", m.Terms)
	}
}

func TestWordModelTurnsAnUndecidedAlertBenignAndNamesTheWords(t *testing.T) {
	m := toyModel(t)
	inc := toyAlert("medium", benignWords)
	a := analyzeWith(t, m, inc)
	if a.Verdict.Classification != ClassBenign {
		t.Fatalf("classification = %s, want benign: %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
	if !strings.Contains(a.Verdict.Reasoning, "the wording reads clearly benign") {
		t.Errorf("reasoning does not give the model's lean: %s", a.Verdict.Reasoning)
	}
	if !strings.Contains(a.Verdict.Reasoning, "quillon") {
		t.Errorf("reasoning does not name a telling word: %s", a.Verdict.Reasoning)
	}
}

// Words that read clearly malicious make an alert malicious only when
// the rules read nothing at all in it; once the rules found anything,
// even only the reported severity, undecided rules and hostile words make
// it suspicious.
func TestWordsAloneMakeAnAlertMaliciousOnlyWhenTheRulesReadNothing(t *testing.T) {
	m := toyModel(t)
	a := analyzeWith(t, m, toyAlert("high", hostileWords))
	if a.Verdict.Classification != ClassSuspicious {
		t.Fatalf("classification = %s, want suspicious (the rules read the severity, the words are the only finding): %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
	unread := toyAlert("high", hostileWords)
	unread.IncidentType = "phishing"
	if a := analyzeWith(t, m, unread); a.Verdict.Classification != ClassMalicious || !strings.Contains(a.Verdict.Reasoning, "no signals fired") {
		t.Fatalf("classification = %s, want malicious (the rules read nothing, the words clearly malicious): %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
	a = analyzeWith(t, m, withWords(unread, mixedWords))
	if a.Verdict.Classification == ClassMalicious {
		t.Fatalf("an unread alert whose words read suspicious was called malicious: %s", a.Verdict.Reasoning)
	}
	// Words that lean malicious, but not clearly, still stop at suspicious.
	leaning := withWords(unread, append(append([]string{}, hostileWords[:16]...), mixedWords[:16]...))
	if r, _ := readWords(m, leaning, -1); r.Leans != ClassMalicious || r.Clearly {
		t.Fatalf("the toy wording reads %s (clearly %v), want slightly malicious", r.Leans, r.Clearly)
	}
	if a := analyzeWith(t, m, leaning); a.Verdict.Classification != ClassSuspicious {
		t.Fatalf("classification = %s, want suspicious (the words lean malicious, not clearly): %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
}

// withWords is inc with its description replaced by words.
func withWords(inc Incident, words []string) Incident {
	inc.RawData = map[string]any{"description": strings.Join(words, " ")}
	return inc
}

func TestWordsMoveARulesVerdictOneStepAtMost(t *testing.T) {
	for _, tc := range []struct{ from, words, want string }{
		{ClassMalicious, ClassBenign, ClassSuspicious},
		{ClassBenign, ClassMalicious, ClassSuspicious},
		{ClassUnknown, ClassMalicious, ClassSuspicious},
		{ClassSuspicious, ClassMalicious, ClassMalicious},
		{ClassSuspicious, ClassBenign, ClassBenign},
		{ClassUnknown, ClassBenign, ClassBenign},
		{ClassMalicious, ClassSuspicious, ClassSuspicious},
	} {
		if got := wordStep(tc.from, tc.words); got != tc.want {
			t.Errorf("rules %s, words %s: got %s, want %s", tc.from, tc.words, got, tc.want)
		}
	}
}

func TestWordModelStaysOutOfShortAlerts(t *testing.T) {
	m := toyModel(t)
	a := analyzeWith(t, m, toyAlert("medium", benignWords[:minModelTerms-1]))
	if strings.Contains(strings.ToLower(a.Verdict.Reasoning), "word model") {
		t.Fatalf("the model judged an alert of %d words: %s", minModelTerms-1, a.Verdict.Reasoning)
	}
}

func TestWordsDoNotOutweighStrongFindings(t *testing.T) {
	m := toyModel(t)
	inc := toyAlert("critical", benignWords)
	inc.IncidentType = "malware"
	inc.RawData["command_line"] = "vssadmin.exe delete shadows /all /quiet"
	a := analyzeWith(t, m, inc)
	if a.Verdict.Classification == ClassBenign {
		t.Fatalf("an alert deleting shadow copies was closed on wording: %s", a.Verdict.Reasoning)
	}
}

// A malicious verdict several findings agree on stands against benign
// wording; one nearer the threshold is what the words may still move.
func TestWordsDoNotMoveASettledVerdict(t *testing.T) {
	m := toyModel(t)
	inc := toyAlert("high", benignWords)
	inc.IncidentType = "malware"
	inc.RawData["threat_name"] = "Ransom:Win32/LockBit"
	inc.RawData["command_line"] = "vssadmin.exe delete shadows /all /quiet"
	a := analyzeWith(t, m, inc)
	if a.Verdict.Classification != ClassMalicious || !strings.Contains(a.Verdict.Reasoning, "the wording reads clearly benign") {
		t.Fatalf("classification = %s, want malicious with the benign reading reported: %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
	for _, tc := range []struct {
		class            string
		score, strongest float64
		resolved         bool
		want             bool
	}{
		{ClassMalicious, 1.0, 0.3, false, true}, {ClassMalicious, 0.95, 0.3, false, false}, {ClassBenign, -1.0, 0, false, true},
		{ClassBenign, -0.5, 0, false, false}, {ClassBenign, -0.2, 0, true, true}, {ClassSuspicious, 1.2, 0.7, true, false},
		{ClassUnknown, 0, 0, true, false}, {ClassMalicious, 0.6, 0.3, true, false},
		// One near-conclusive finding settles a malicious verdict alone.
		{ClassMalicious, 0.7, 0.7, false, true}, {ClassMalicious, 0.65, 0.5, false, false}, {ClassSuspicious, 0.6, 0.6, false, false},
	} {
		if got := settled(tc.class, tc.score, tc.strongest, tc.resolved); got != tc.want {
			t.Errorf("settled(%s, %.2f, strongest %.2f, resolved %v) = %v, want %v", tc.class, tc.score, tc.strongest, tc.resolved, got, tc.want)
		}
	}
}

// A benign verdict a resolving rule reached (the product or an analyst
// closed the alert as an authorised test) judged the red flags themselves,
// so hostile wording, which a test's lure or tool carries by design, does
// not reopen it.
func TestWordsDoNotReopenAResolvedAlert(t *testing.T) {
	m := toyModel(t)
	inc := toyAlert("high", hostileWords)
	inc.RawData["determination"] = "SecurityTesting"
	a := analyzeWith(t, m, inc)
	if a.Verdict.Classification != ClassBenign || !strings.Contains(a.Verdict.Reasoning, "the wording reads clearly malicious") {
		t.Fatalf("classification = %s, want benign with the malicious reading reported: %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
}

func TestBuiltinWordModelIsLoaded(t *testing.T) {
	m := BuiltinWordModel()
	if m.Docs[0] < 100 || m.Docs[1] < 50 || m.Docs[2] < 100 || len(m.Terms) < 1000 {
		t.Fatalf("built-in model counts %v alerts and %d terms, want a real model", m.Docs, len(m.Terms))
	}
}

// benignWords, hostileWords and mixedWords are disjoint made-up
// vocabularies, so no rule reads them; the toy model learns one per label.
var (
	benignWords  = numbered("quillon", 30)
	hostileWords = numbered("zorbel", 30)
	mixedWords   = numbered("mirren", 30)
)

// numbered returns n distinct words: stem plus a letter suffix.
func numbered(stem string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%c%c", stem, 'a'+i/26, 'a'+i%26)
	}
	out[0] = stem
	return out
}

// toyAlert is a generic alert whose only text is words.
func toyAlert(severity string, words []string) Incident {
	return Incident{IncidentType: "alert", Severity: severity, RawData: map[string]any{
		"description": strings.Join(words, " "),
	}}
}

// toyModel is trained on three alerts per label, each label with its own
// words, plus one word seen once.
func toyModel(t *testing.T) *WordModel {
	t.Helper()
	var alerts []LabelledAlert
	for i := 0; i < 3; i++ {
		alerts = append(alerts,
			LabelledAlert{Incident: toyAlert("high", hostileWords), Label: ClassMalicious},
			LabelledAlert{Incident: toyAlert("medium", mixedWords), Label: ClassSuspicious},
			LabelledAlert{Incident: toyAlert("medium", benignWords), Label: ClassBenign})
	}
	alerts = append(alerts, LabelledAlert{Incident: toyAlert("low", []string{"once"}), Label: ClassBenign})
	m, err := TrainWords(alerts, "toy")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// analyzeWith runs the rule analyzer with m as the word model.
func analyzeWith(t *testing.T, m *WordModel, inc Incident) Analysis {
	t.Helper()
	a, err := RuleAnalyzer{Words: m}.Analyze(context.Background(), inc, Indicators{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// checkTerms checks that AlertTerms reads exactly want from inc.
func checkTerms(t *testing.T, inc Incident, want []string) {
	t.Helper()
	if got := AlertTerms(inc); !reflect.DeepEqual(got, want) {
		t.Fatalf("terms = %q, want %q", got, want)
	}
}

// Nor do hostile words make malicious an alert a resolving rule judged,
// when other findings held it at suspicious: the authorised test's report
// reads like the malware it describes.
func TestWordsDoNotRaiseAResolvedAlertToMalicious(t *testing.T) {
	m := toyModel(t)
	inc := toyAlert("high", hostileWords)
	for _, resolved := range []bool{false, true} {
		a := Analysis{trail: &evidence{label: "Generic", resolved: resolved, signals: []signal{{weight: 0.2}, {weight: -0.5}}}}
		a.Verdict.Classification = ClassSuspicious
		got := weighWords(m, kindGeneric, a, inc, Fields{}).Verdict.Classification
		if want := map[bool]string{false: ClassMalicious, true: ClassSuspicious}[resolved]; got != want {
			t.Errorf("resolved %v: %s, want %s", resolved, got, want)
		}
	}
}
