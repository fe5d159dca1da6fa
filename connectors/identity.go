package connectors

import "context"

// Account states an Identity reports in its results' status field.
const (
	UserEnabled  = "enabled"
	UserDisabled = "disabled"
)

// Identity acts on accounts at an identity provider (Microsoft Entra ID,
// Okta): the containment steps for a suspicious sign-in. user is the
// provider's user id or the user's sign-in name (UPN, login); an
// implementation resolves one to the other as its API needs. DisableUser is
// undone by EnableUser; revoking sessions and resetting MFA cannot be undone.
type Identity interface {
	DisableUser(ctx context.Context, key, user, reason string) (Result, error)
	EnableUser(ctx context.Context, key, user, reason string) (Result, error)
	// RevokeSessions signs the user out everywhere (refresh tokens and
	// browser sessions) so a stolen session stops working.
	RevokeSessions(ctx context.Context, key, user, reason string) (Result, error)
	// ResetMFA removes the user's enrolled factors so they must enrol again;
	// a provider without such an API answers with a permanent error.
	ResetMFA(ctx context.Context, key, user, reason string) (Result, error)
}
