package triage

import "testing"

func TestBaselineAndFollowOnObjectsAreNotTheEvent(t *testing.T) {
	d := newDoc(map[string]any{
		"event": map[string]any{"ip": "203.0.113.9", "geo": map[string]any{"country_code": "US"}},
		"related": map[string]any{
			"user_usual":  map[string]any{"country": "SE"},
			"after_login": []any{map[string]any{"date": "2026-01-01T00:00:00Z", "type": "sce"}},
		},
	})
	if got := d.str("country", "countrycode"); got != "US" {
		t.Errorf("country = %q, want the event's US, not the usual SE", got)
	}
	if got := d.str("usualcountry"); got != "SE" {
		t.Errorf("usualcountry = %q, want SE", got)
	}
	if got := d.str("login", "date"); got != "" {
		t.Errorf("a follow-on event's field was read as the event's: %q", got)
	}
}
