package triage

import "testing"

// TestAFederationTokenIsNoIdentityProviderSignIn holds that a console
// session minted with GetFederationToken from an IAM user's keys
// (CloudTrail's FederatedUser, with the empty webIdFederationData every
// session carries) earns no credit for federation, while a SAML role
// session does.
func TestAFederationTokenIsNoIdentityProviderSignIn(t *testing.T) {
	read := func(identity map[string]any) CloudFields {
		raw := map[string]any{"eventSource": "signin.amazonaws.com", "eventName": "ConsoleLogin", "userIdentity": identity,
			"sourceIPAddress": "5.188.206.19", "responseElements": map[string]any{"ConsoleLogin": "Success"},
			"additionalEventData": map[string]any{"MFAUsed": "No"}}
		return normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Cloud
	}
	minted := map[string]any{"type": "FederatedUser", "arn": "arn:aws:sts::418273650921:federated-user/datapipe-debug",
		"sessionContext": map[string]any{"sessionIssuer": map[string]any{"type": "IAMUser", "userName": "svc-datapipe-etl"},
			"webIdFederationData": map[string]any{}, "attributes": map[string]any{"mfaAuthenticated": "false"}}}
	if read(minted).Federated {
		t.Error("a session minted from an IAM user's keys read as a sign-in through the identity provider")
	}
	saml := map[string]any{"type": "AssumedRole", "arn": "arn:aws:sts::418273650921:assumed-role/AWSReservedSSO_Admin/jo@example.com",
		"sessionContext": map[string]any{"sessionIssuer": map[string]any{"type": "Role"}, "webIdFederationData": map[string]any{}}}
	if !read(saml).Federated {
		t.Error("a role session through single sign-on was not read as federated")
	}
	oidc := map[string]any{"type": "WebIdentityUser", "arn": "arn:aws:sts::418273650921:assumed-role/ci/x",
		"sessionContext": map[string]any{"webIdFederationData": map[string]any{"federatedProvider": "arn:aws:iam::418273650921:oidc-provider/token.actions.githubusercontent.com"}}}
	if !read(oidc).Federated {
		t.Error("a named web identity provider was not read as federation")
	}
}
