package triage

import "testing"

// A free-text context note that mentions a self-service portal is about
// the asset, not a user's own action; a correlated self-service reset is.
func TestContextNoteIsNotACorrelatedUserAction(t *testing.T) {
	note := map[string]any{"signature": "ET EXPLOIT Apache log4j RCE Attempt", "host_context": map[string]any{
		"dest_asset": "portal.orbitel.net (customer self-service portal, Apache Tomcat 9)"}}
	reset := map[string]any{"title": "Password reset", "correlation": "user-initiated self-service password reset 40 seconds earlier"}
	for name, tc := range map[string]struct {
		raw  map[string]any
		want bool
	}{"a context note": {note, false}, "a correlated reset": {reset, true}} {
		if got := correlatedUserAction(newDoc(tc.raw)); got != tc.want {
			t.Errorf("%s: correlatedUserAction = %v, want %v", name, got, tc.want)
		}
	}
}
