package triage

import (
	"regexp"
	"strings"
)

// disabledRefusalCodes are the outcome codes providers give a sign-in they
// refused because the account is disabled: Entra error 50057, the Windows
// logon sub-status 0xC0000072, and the spelled-out reasons of the others.
var disabledRefusalCodes = []string{"accountdisabled", "userdisabled", "disabledaccount", "accountisdisabled", "accountdeactivated", "userdeactivated", "deactivateduser", "disableduser", "accountsuspended", "usersuspended"}

// disabledAttemptRe finds a detection that names an attempt on a disabled
// or deactivated account.
var disabledAttemptRe = regexp.MustCompile(`(?i)\b(disabled|deactivated|terminated)\s+(user\s+)?account\b[^\n]{0,60}\b(log ?on|log ?in|sign[- ]?in|authenticat\w*|attempt\w*|access)|\b(log ?on|log ?in|sign[- ]?in|authenticat\w*|attempt\w*)\b[^\n]{0,40}\b(from|to|by|on|of|with)\s+(a\s+)?(disabled|deactivated|terminated)\s+(user\s+)?account\b`)

// readDisabledAccount sets DisabledAccount when the payload shows a
// sign-in attempt on an account that is disabled, and then the attempt
// as refused: a disabled account cannot sign in. An account that an
// administrator or a remediation disabled after the event is not this:
// only outcome codes and the detection's own wording are read.
func readDisabledAccount(f *IdentityFields, d *doc, alertText string) {
	outcome := normKey(lowerJoin(d.scalarStrs("result", "status", "outcome", "resulttype", "failurereason", "resultdescription", "reason", "substatus", "statuscode", "errorcode", "failurecode")))
	code, _ := d.number("errorcode")
	sub := strings.ToLower(d.str("substatus", "failurereasoncode"))
	if firstSubstring(outcome, disabledRefusalCodes) != "" || code == 50057 || sub == "0xc0000072" || disabledAttemptRe.MatchString(alertText) {
		f.DisabledAccount = true
		if f.Result != "success" || firstSubstring(outcome, disabledRefusalCodes) != "" {
			f.Result = "failure"
		}
	}
}
