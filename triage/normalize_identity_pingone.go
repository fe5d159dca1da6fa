package triage

import (
	"maps"
	"strings"
)

// PingOne's audit activities (the /activities API, its webhooks and SIEM
// exports) name the event in action.type, the user in actors.user.name
// beside an opaque id, the outcome in result.status and the address in
// ip, and call a second factor a "device". pingOneActivity rewrites one
// activity into the names the sign-in readers already know, so a chain of
// them reads like any other provider's.

// pingOneActionEvents maps PingOne action types (folded) onto the event
// vocabulary the identity readers share: pairing and removing an MFA
// device are factor enrolment and removal, a recovery is a password reset.
var pingOneActionEvents = map[string]string{
	"devicecreated":    "factor.enroll (PingOne DEVICE.CREATED)",
	"devicedeleted":    "factor.deactivate (PingOne DEVICE.DELETED)",
	"passwordrecovery": "password.reset (PingOne PASSWORD.RECOVERY)",
	"passwordreset":    "password.reset (PingOne PASSWORD.RESET)",
}

// pingOneActivity returns raw with the common names added at its top level
// when it is a PingOne activity (an action object with a type beside an
// actors object), and raw itself otherwise. The payload's own top-level
// fields are never overwritten.
func pingOneActivity(raw map[string]any) map[string]any {
	action, _ := raw["action"].(map[string]any)
	actors, _ := raw["actors"].(map[string]any)
	if action == nil || actors == nil {
		return raw
	}
	kind, _ := action["type"].(string)
	if kind == "" {
		return raw
	}
	out := commonNames(maps.Clone(raw))
	add := out.add
	event := strings.ToLower(kind)
	if mapped, ok := pingOneActionEvents[normKey(kind)]; ok {
		event = mapped
	}
	add("eventType", event)
	if user, _ := actors["user"].(map[string]any); user != nil {
		add("userPrincipalName", user["name"])
	}
	if res, _ := raw["result"].(map[string]any); res != nil {
		if status, _ := res["status"].(string); status != "" {
			add("outcome", strings.ToLower(status))
		}
	}
	add("ipAddress", raw["_ip"])
	return out
}
