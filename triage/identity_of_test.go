package triage

// identityOf is the identity fields a sign-in payload normalizes to, as the
// analyzer reads them for a suspicious-login incident.
func identityOf(raw map[string]any) IdentityFields {
	return normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity
}
