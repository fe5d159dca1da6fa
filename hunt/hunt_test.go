package hunt_test

import (
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/hunt"
)

func TestValidateCron(t *testing.T) {
	for _, c := range []struct{ expr, err string }{
		{"*/15 * * * *", ""},
		{"0 6 * * 1-5", ""},
		{"0,30 8-18/2 1 1,6,12 0", ""},
		{"0 6 * *", "5 fields"},
		{"60 * * * *", "field 1 (minute)"},
		{"0 6 32 * *", "field 3 (day of month)"},
		{"0 6 * 13 *", "field 4 (month)"},
		{"0 6 * * 8", "field 5 (day of week)"},
		{"0 18-6 * * *", "field 2 (hour)"},
		{"*/0 * * * *", "step"},
	} {
		err := hunt.ValidateCron(c.expr)
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: err %v, want %q", c.expr, err, c.err)
		}
	}
}

func TestFingerprintAndEvidence(t *testing.T) {
	a := hunt.Fingerprint("q", []string{"host"}, map[string]any{"host": "ws-1", "count": 3})
	b := hunt.Fingerprint("q", []string{"host"}, map[string]any{"host": "ws-1", "count": 9})
	c := hunt.Fingerprint("q", nil, map[string]any{"host": "ws-1", "count": 9})
	if a != b || a == c || a == hunt.Fingerprint("other", []string{"host"}, map[string]any{"host": "ws-1"}) {
		t.Fatal("fingerprints do not follow the key fields and the query")
	}
	big := map[string]any{"cmd": strings.Repeat("x", 100000), "host": "ws-1"}
	ev := hunt.Evidence(big)
	if ev["_truncated"] != true || len(ev["cmd"].(string)) > hunt.MaxEvidenceBytes || ev["host"] != "ws-1" {
		t.Fatal("evidence not capped")
	}
	if hunt.RowSeverity(map[string]any{"sev": "Critical"}, "sev", "low") != "critical" || hunt.RowSeverity(nil, "sev", "low") != "low" {
		t.Fatal("row severity")
	}
}
