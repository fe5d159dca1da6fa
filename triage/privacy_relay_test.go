package triage

import "testing"

// iCloud Private Relay on a device the provider knows is closed; the same
// relay on a new device, or a Tor exit, is not.
func TestPrivacyRelayOnAKnownDeviceIsClosed(t *testing.T) {
	base := map[string]any{
		"result": map[string]any{"level": "HIGH", "score": 80},
		"event": map[string]any{"ip": "172.226.44.19", "flow": map[string]any{"type": "AUTHENTICATION"},
			"user": map[string]any{"name": "m.okonkwo@norvale.com"}, "completionStatus": "SUCCESS"},
		"details": map[string]any{
			"anonymousNetwork": map[string]any{"level": "HIGH", "reason": "IP is an anonymous relay (Apple iCloud Private Relay)"},
			"newDevice":        map[string]any{"level": "LOW", "status": "KNOWN_DEVICE"},
		},
	}
	alert := func(details map[string]any) map[string]any {
		d := withFields(base["details"].(map[string]any), details)
		return withFields(base, map[string]any{"details": d})
	}
	checkClosed(t, "suspicious_login", []closeCase{
		{"relay on a known device", base, true},
		{"relay on a new device", alert(map[string]any{"newDevice": map[string]any{"level": "HIGH", "status": "NEW_DEVICE"}}), false},
		{"a Tor exit", alert(map[string]any{"anonymousNetwork": map[string]any{"level": "HIGH", "reason": "IP is a Tor exit node"}}), false},
	})
}

// The relay's egress runs on content-delivery networks whose names read
// like hosting providers; that is the relay, not a server signing in.
func TestPrivacyRelayEgressIsNotAHostingNetwork(t *testing.T) {
	signIn := map[string]any{
		"user": "n.ortega@corvane.example", "ip": "172.225.80.14", "result": "success", "mfa": "passed",
		"isp": "Akamai Technologies (iCloud Private Relay egress)",
	}
	checkFires(t, "identity.hosting_network", "suspicious_login", "medium", []fireCase{
		{"iCloud Private Relay egress", signIn, false},
		{"a data centre", withFields(signIn, map[string]any{"isp": "DigitalOcean, LLC"}), true},
	})
}

// An identity provider that lists the relay's address as anonymous without
// naming it: Safari on an iPhone from the relay's egress block, with the
// second factor passed, is the relay; the same address under another
// browser, or another address, is still an anonymous network.
func TestUnnamedPrivacyRelayIsReadFromItsAddressAndBrowser(t *testing.T) {
	const safari = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0.1 Mobile/15E148 Safari/604.1"
	const chrome = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/129.0.6668.69 Mobile/15E148 Safari/604.1"
	risk := map[string]any{
		"riskEventType": "anonymizedIPAddress", "riskLevel": "low", "riskState": "remediated",
		"riskDetail": "userPassedMFADrivenByRiskBasedPolicy", "activity": "signin",
		"ipAddress": "172.225.46.118", "userPrincipalName": "l.fischer@corvane.example",
		"additionalInfo": `[{"Key":"userAgent","Value":"` + safari + `"}]`,
	}
	checkFires(t, "identity.privacy_relay_with_proof", "suspicious_login", "low", []fireCase{
		{"Safari on an iPhone from the relay's block", risk, true},
		{"Chrome on an iPhone from the same block", withFields(risk, map[string]any{"additionalInfo": `[{"Key":"userAgent","Value":"` + chrome + `"}]`}), false},
		{"Safari from an address outside the block", withFields(risk, map[string]any{"ipAddress": "185.220.101.4"}), false},
	})
}

// Without a second factor or a known device on record, the provider's own
// low rating of the relay's anonymous address is the proof; a medium or
// high rating is not.
func TestPrivacyRelayTheProviderRatedLow(t *testing.T) {
	const safari = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1"
	risk := map[string]any{
		"riskEventType": "anonymizedIPAddress", "riskLevel": "low", "riskState": "atRisk", "riskDetail": "none", "activity": "signin",
		"ipAddress": "172.226.148.23", "userPrincipalName": "priyanka.shah@cascadiahealth.example",
		"additionalInfo": `[{"Key":"userAgent","Value":"` + safari + `"}]`,
	}
	checkFires(t, "identity.privacy_relay_with_proof", "suspicious_login", "low", []fireCase{
		{"rated low", risk, true},
		{"rated medium", withFields(risk, map[string]any{"riskLevel": "medium"}), false},
	})
}
