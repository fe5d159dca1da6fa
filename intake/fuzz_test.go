package intake

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fuzzSeeds are the realistic samples plus bodies that sit on the edges of
// detection, so the fuzzer starts from every format and every error path.
func fuzzSeeds(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		``, `null`, `[]`, `{}`, `"x"`, `{"title": "t", "severity": 3}`,
		`{"event_type": "x", "timestamp": 1e300, "data": {"severity": -1e300, "alert_id": 1e21}}`,
		`{"event_type": "x", "timestamp": "2100-12-31T23:59:59.999999999+14:00", "data": {"severity": "p1"}}`,
		`{"eventType": "e", "id": 1, "creationTime": "2000-01-01T00:00:00-01:00", "severity": 2, "data": {"sender": "", "subject": "\u202e", "recipients": [1, null, "a"]}}`,
		`{"metadata": {"eventType": "e", "eventCreationTime": -9e18}, "event": {"DetectId": "d", "Severity": 1e300, "HostnameField": "\n", "DetectName": ""}}`,
		`{"search_name": "\u0000", "result": {"host": 5, "EventCode": 4625.0}, "trigger_time": "-5"}`,
		`{"event_type": "x", "timestamp": 1, "data": {"severity": "low"}, "search_name": "s", "result": {}, "trigger_time": 1}`,
	} {
		f.Add([]byte(s))
	}
}

// checkResult asserts the documented contract for any outcome.
func checkResult(t *testing.T, a Alert, err error) {
	if err != nil {
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Message == "" || len(fe.Expected) == 0 {
			t.Fatalf("error %v (%T) is not a complete *FormatError", err, err)
		}
		return
	}
	checkAlert(t, a)
}

func FuzzParse(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := Parse(body, "fuzz", map[string]string{"p1": "critical", "4": "bogus"})
		checkResult(t, a, err)
		if err == nil && a.Format == FormatSimple {
			t.Fatal("Parse returned the simple format")
		}
	})
}

func FuzzParseSimple(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := ParseSimple(body, "", nil)
		checkResult(t, a, err)
	})
}

// fuzzMapping is a custom mapping that reads nested, optional fields the
// way real mappings do.
var fuzzMapping = func() *Mapping {
	m, problems := CompileMapping(MappingSpec{Title: `payload?.title ?? "untitled"`, Severity: `payload?.level`,
		AlertID: `payload?.id`, Description: `toJSON(payload?.details)`, Resolved: `payload?.state == "ok"`})
	if len(problems) > 0 {
		panic(problems[0].Error())
	}
	return m
}()

// FuzzParseDelivery feeds any body to every source format: each either
// yields alerts that keep the Alert invariants or a complete *FormatError.
func FuzzParseDelivery(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, format := range SourceFormats {
			alerts, err := ParseDelivery(body, Delivery{Source: "fuzz", Format: format, Mapping: fuzzMapping,
				SeverityMapping: map[string]string{"page": "critical"}})
			if err != nil {
				checkResult(t, Alert{}, err)
				continue
			}
			if len(alerts) == 0 || len(alerts) > maxAlertsPerDelivery {
				t.Fatalf("%s: %d alerts", format, len(alerts))
			}
			for _, a := range alerts {
				checkAlert(t, a)
			}
		}
	})
}
