package actions

// Identity action type names: containment steps on an account at the
// identity provider, for suspicious sign-ins.
const (
	DisableUser    = "disable_user"
	EnableUser     = "enable_user"
	RevokeSessions = "revoke_sessions"
	ResetMFA       = "reset_mfa"
)

// CategoryIdentity groups the action types that act on user accounts.
const CategoryIdentity = "identity"

// ConnectorIdentity is the kind of tool that acts on accounts.
const ConnectorIdentity = "identity"

func accountParam(what string) Param {
	return Param{Name: "user", Type: TypeString, Required: true, MaxLength: 254,
		Description: "the identity provider's user id or sign-in name of the account to " + what}
}

// identityTypes are the account actions. Disabling an account locks a
// person out of everything, so a senior analyst approves it by default;
// enabling it again reopens access an attacker may hold and needs the same.
var identityTypes = []Type{
	{
		Name: DisableUser, Description: "Disable a user account at the identity provider so it cannot sign in.",
		Category: CategoryIdentity, SupportsRollback: true, RollbackAction: EnableUser,
		DefaultApprovalLevel: "senior", Connector: ConnectorIdentity,
		Parameters: []Param{accountParam("disable"), reasonParam("account disablement")},
	},
	{
		Name: EnableUser, Description: "Enable a disabled user account again.",
		Category: CategoryIdentity, DefaultApprovalLevel: "senior", Connector: ConnectorIdentity,
		Parameters: []Param{accountParam("enable"), reasonParam("account re-enablement")},
	},
	{
		Name: RevokeSessions, Description: "Sign a user out everywhere: revoke refresh tokens and browser sessions.",
		Category: CategoryIdentity, Connector: ConnectorIdentity,
		Parameters: []Param{accountParam("sign out"), reasonParam("session revocation")},
	},
	{
		Name: ResetMFA, Description: "Remove a user's enrolled MFA factors so they must enrol again.",
		// Re-enrolment is the moment an attacker holding the password can
		// register their own factor: another analyst confirms.
		Category: CategoryIdentity, DefaultApprovalLevel: "analyst", Connector: ConnectorIdentity,
		Parameters: []Param{accountParam("reset"), reasonParam("MFA reset")},
	},
}
