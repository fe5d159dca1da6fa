package triage

import (
	"maps"
	"strings"
)

// OneLogin's Events API (/api/1/events, its event webhooks and SIEM
// streams) numbers each event in event_type_id, names the user in
// login_name and user_name, the address in ipaddr and the second factor
// used in otp_device_name, and carries Vigilance AI's risk_score (0 to 100)
// beside its risk_reasons. oneLoginEvent rewrites one event into the names
// the sign-in readers already know, so a chain of them reads like any
// other provider's.

// oneLoginEventTypes maps the sign-in event type ids onto the event
// vocabulary the identity readers share, with the outcome each records.
var oneLoginEventTypes = map[int]struct{ event, outcome string }{
	5: {"user.session.start (OneLogin USER_LOGGED_INTO_ONELOGIN)", "success"},
	6: {"user.authentication.failed (OneLogin USER_FAILED_AUTHENTICATION)", "failure"},
	8: {"user.authentication.sso (OneLogin USER_LOGGED_INTO_APP)", "success"},
}

// oneLoginOwnPasswordChange is USER_CHANGED_PASSWORD, the user's own
// change when the actor is the user; an administrator's change of
// another user's password is not mapped.
const oneLoginOwnPasswordChange = 11

// oneLoginRiskLevel folds a Vigilance AI risk score onto the three levels
// other providers state. OneLogin's own policies and score insights cut
// it into five buckets: minimal (up to 5), low (to 25), medium (to 50),
// high (to 75) and very high. Its "very high" is what Entra and Okta call
// high; its "high" is their medium, a score a new browser or a first
// visit to a country reaches on its own.
func oneLoginRiskLevel(score float64) string {
	switch {
	case score > 75:
		return "high"
	case score > 50:
		return "medium"
	}
	return "low"
}

// oneLoginEvent returns raw with the common names added at its top level
// when it is a OneLogin event (a numeric event_type_id beside the user's
// id or name), and raw itself otherwise. The payload's own top-level
// fields are never overwritten.
func oneLoginEvent(raw map[string]any) map[string]any {
	id, ok := asNumber(raw["event_type_id"])
	if !ok || raw["user_id"] == nil && raw["user_name"] == nil {
		return raw
	}
	out := commonNames(maps.Clone(raw))
	add := out.add
	kind, known := oneLoginEventTypes[int(id)]
	if known {
		add("eventType", kind.event)
		add("outcome", kind.outcome)
	}
	if int(id) == oneLoginOwnPasswordChange {
		actor, hasActor := asNumber(raw["actor_user_id"])
		if user, _ := asNumber(raw["user_id"]); !hasActor || actor == user {
			add("eventType", "user.account.update_password (OneLogin USER_CHANGED_PASSWORD)")
		}
	}
	add("userPrincipalName", raw["login_name"])
	add("ipAddress", raw["ipaddr"])
	if score, ok := asNumber(raw["risk_score"]); ok {
		add("riskLevel", oneLoginRiskLevel(score))
	}
	if device, _ := raw["otp_device_name"].(string); known && kind.outcome == "success" && strings.TrimSpace(device) != "" {
		add("mfaResult", "success ("+device+")")
	}
	return out
}

// commonNames is a copy of a provider's event that takes the names the
// sign-in readers share, never over the event's own top-level fields.
type commonNames map[string]any

// add sets k to v unless the event already has k or v is empty.
func (c commonNames) add(k string, v any) {
	if _, taken := c[k]; !taken && v != nil && v != "" {
		c[k] = v
	}
}

// providerEvent rewrites an identity provider's own event shape (PingOne,
// OneLogin, Salesforce) into the common names, returning raw itself for
// any other.
func providerEvent(raw map[string]any) map[string]any {
	return salesforceLogin(oneLoginEvent(pingOneActivity(raw)))
}
