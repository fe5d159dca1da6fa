package triage

import "strings"

// Identity providers describe the signing-in device in a block of their
// own (Entra deviceDetail, Okta device, PingOne and Auth0 device objects,
// Duo access_device) with flags that say whether the organisation manages,
// trusts or registered it. These readers find the flags by meaning
// wherever the block sits.

var (
	// deviceTrustFlags say the organisation manages or trusts the device.
	deviceTrustFlags = setOf("managed", "ismanaged", "compliant", "iscompliant", "trusted", "istrusted",
		"devicetrusted", "trusteddevice", "domainjoined", "isdomainjoined", "hybridjoined", "corporateowned",
		"companyowned", "iscorporate")
	// deviceRegisteredFlags say the device was enrolled for the user
	// before, without saying the organisation manages it.
	deviceRegisteredFlags = setOf("registered", "isregistered", "enrolled", "isenrolled")
	// deviceStatedFlags are trust flags whose name is clear wherever a
	// sign-in record files them, outside a device block too.
	deviceStatedFlags = setOf("ismanaged", "managed", "iscompliant", "compliant", "devicemanaged")
	// deviceStateKeys hold a device's trust, join type or compliance as
	// a state (see deviceTrustStates).
	deviceStateKeys = setOf("compliancestate", "compliancestatus", "devicecompliance", "posturestatus", "trustlevel", "devicetrustlevel", "devicetrust",
		"trusttype", "trustedendpointstatus")
	// deviceTrustStates fold the states products give a device's trust,
	// join type or compliance: true is trusted, false untrusted.
	deviceTrustStates = map[string]bool{"compliant": true, "trusted": true, "managed": true, "hybridazureadjoined": true,
		"azureadjoined": true, "domainjoined": true, "untrusted": false, "nottrusted": false, "unmanaged": false}
)

// readDeviceTrust reads the device's trust, wherever the record files it:
// a managed, compliant, joined or trusted device is the organisation's
// own; a registered one is known to the user's account; a record that
// states every trust flag false is an unmanaged device.
func readDeviceTrust(f *IdentityFields, cur *doc) {
	stated, trusted := false, false
	// The sign-in's own device block speaks for it: a related sign-in's
	// nested deeper (Entra's relatedInteractiveSignIn, the session that
	// issued a replayed token) describes another device.
	depth := -1
	for _, e := range cur.entries {
		if _, ok := e.val.(bool); ok && deviceTrustFlags[e.key] && (deviceScope(e) || deviceStatedFlags[e.key]) && (depth < 0 || e.depth < depth) {
			depth = e.depth
		}
	}
	for _, e := range cur.entries {
		b, ok := e.val.(bool)
		if !ok || !deviceScope(e) && !deviceStatedFlags[e.key] {
			continue
		}
		if deviceTrustFlags[e.key] && e.depth > depth {
			continue
		}
		switch {
		case deviceTrustFlags[e.key]:
			stated = true
			trusted = trusted || b
		case deviceRegisteredFlags[e.key] && b:
			f.DeviceKnown = f.DeviceKnown || !f.DeviceNew
		}
	}
	for _, e := range cur.entries {
		v, ok := e.val.(string)
		if !ok || !deviceStateKeys[e.key] || depth >= 0 && e.depth > depth {
			continue
		}
		if t, ok := deviceTrustStates[normKey(v)]; ok {
			stated, trusted = true, trusted || t
		}
	}
	switch {
	case trusted:
		f.DeviceManaged = true
		f.DeviceKnown = f.DeviceKnown || !f.DeviceNew
		f.DeviceUnmanaged = false
	case stated && !f.DeviceManaged:
		f.DeviceUnmanaged = true
	}
}

// deviceScope reports an entry that belongs to a device block, or a flag
// whose own name says it is about the device.
func deviceScope(e entry) bool {
	if strings.HasPrefix(e.key, "device") || strings.HasSuffix(e.key, "device") {
		return true
	}
	parent := strings.TrimSuffix(e.scope, "."+e.key)
	return strings.Contains(parent, "device") || strings.Contains(parent, "endpoint")
}

// deviceRegistrationResource is the Device Registration Service's
// application id in every Entra tenant.
const deviceRegistrationResource = "01cb2876-7ebd-4aa4-9cc9-d28bd4d359a9"

// readDeviceRegistration sets DeviceRegistration from the sign-in's
// resource, by id or by name.
func readDeviceRegistration(f *IdentityFields, cur *doc) {
	for _, s := range cur.scalarStrs("resourceid", "resourcedisplayname", "resourceappid", "resource") {
		if k := strings.ToLower(strings.TrimSpace(s)); k == deviceRegistrationResource || k == "device registration service" {
			f.DeviceRegistration = true
			return
		}
	}
}
