package intake

import (
	"fmt"
	"testing"
)

func TestMapSeverityDefaults(t *testing.T) {
	tests := []struct {
		raw      any
		wantText string
		want     string
	}{
		{"informational", "informational", "low"},
		{"Info", "Info", "low"},
		{"low", "low", "low"},
		{"MINOR", "MINOR", "low"},
		{"Medium", "Medium", "medium"},
		{"moderate", "moderate", "medium"},
		{"Warning", "Warning", "medium"},
		{"warn", "warn", "medium"},
		{"High", "High", "high"},
		{"error", "error", "high"},
		{"Major", "Major", "high"},
		{"severe", "severe", "high"},
		{"Critical", "Critical", "critical"},
		{"urgent", "urgent", "critical"},
		{"EMERGENCY", "EMERGENCY", "critical"},
		{"fatal", "fatal", "critical"},
		{"crit", "crit", "critical"},
		{"  high\n", "high", "high"},
		{"P1", "P1", "medium"},
		{"unknown", "unknown", "medium"},
		{"", "", "medium"},
		{nil, "", "medium"},
		{"NaN", "NaN", "medium"},
		{"Inf", "Inf", "medium"},
		// The 0-5 scale.
		{0.0, "0", "low"},
		{1.0, "1", "low"},
		{2.0, "2", "medium"},
		{3.0, "3", "high"},
		{4.0, "4", "critical"},
		{5.0, "5", "critical"},
		{"3", "3", "high"},
		{" 4 ", "4", "critical"},
		// The 0-100 score from 6 upwards.
		{6.0, "6", "low"},
		{29.0, "29", "low"},
		{30.0, "30", "medium"},
		{59.9, "59.9", "medium"},
		{60.0, "60", "high"},
		{79.0, "79", "high"},
		{80.0, "80", "critical"},
		{100.0, "100", "critical"},
		{"95", "95", "critical"},
		// On neither scale.
		{101.0, "101", "medium"},
		{-1.0, "-1", "medium"},
		{2.5, "2.5", "medium"},
		{5.5, "5.5", "medium"},
		{1e300, "1e+300", "medium"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.raw), func(t *testing.T) {
			text, got := mapSeverity(tc.raw, nil)
			if text != tc.wantText || got != tc.want {
				t.Errorf("mapSeverity(%#v) = %q, %q; want %q, %q", tc.raw, text, got, tc.wantText, tc.want)
			}
		})
	}
}

func TestMapSeverityMapping(t *testing.T) {
	tests := []struct {
		name    string
		raw     any
		mapping map[string]string
		want    string
	}{
		{"custom name", "P1", map[string]string{"P1": "critical", "P2": "high"}, "critical"},
		{"key case ignored", "p2", map[string]string{"P1": "critical", "P2": "high"}, "high"},
		{"overrides a default name", "High", map[string]string{"high": "critical"}, "critical"},
		{"value case and space ignored", "sev-a", map[string]string{"SEV-A": " Critical "}, "critical"},
		{"applies to numbers", 4.0, map[string]string{"4": "high"}, "high"},
		{"applies to numeric text", "4", map[string]string{"4": "medium"}, "medium"},
		{"invalid value falls back to defaults", "high", map[string]string{"high": "severe"}, "high"},
		{"unmapped value uses defaults", "Low", map[string]string{"P1": "critical"}, "low"},
		{"exact key beats a case variant", "High", map[string]string{"HIGH": "low", "High": "critical"}, "critical"},
		{"case variants resolve deterministically", "high", map[string]string{"HIGH": "low", "High": "critical"}, "low"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Repeated to catch any dependence on map iteration order.
			for range 20 {
				if _, got := mapSeverity(tc.raw, tc.mapping); got != tc.want {
					t.Fatalf("mapSeverity(%#v, %v) = %q, want %q", tc.raw, tc.mapping, got, tc.want)
				}
			}
		})
	}
}

func TestParseAppliesMapping(t *testing.T) {
	mapping := map[string]string{"P1": "critical", "3": "low"}
	tests := []struct {
		name, file string
		body       string
		wantRaw    string
		want       string
	}{
		{name: "generic", body: `{"event_type": "x", "timestamp": 1741944000, "data": {"severity": "p1"}}`, wantRaw: "p1", want: "critical"},
		{name: "endpoint integer", body: `{"metadata": {"eventType": "e", "eventCreationTime": 1741944530000}, "event": {"DetectId": "d", "Severity": 3, "HostnameField": "h", "DetectName": "n"}}`, wantRaw: "3", want: "low"},
		{name: "simple", body: `{"title": "t", "severity": "P1"}`, wantRaw: "P1", want: "critical"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ParseSimple([]byte(tc.body), "src", mapping)
			if err != nil {
				t.Fatal(err)
			}
			if a.SeverityRaw != tc.wantRaw || a.Severity != tc.want {
				t.Errorf("got %q -> %q, want %q -> %q", a.SeverityRaw, a.Severity, tc.wantRaw, tc.want)
			}
		})
	}
}
