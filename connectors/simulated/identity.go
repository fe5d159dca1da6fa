package simulated

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
)

// Account states of the simulated identity provider, the ones every
// Identity reports.
const (
	UserEnabled  = connectors.UserEnabled
	UserDisabled = connectors.UserDisabled
)

// userRow is an account the simulated identity provider acted on. Names
// are stored lowercased: sign-in names match without case.
type userRow struct {
	UserName          string `gorm:"primaryKey"`
	Status            string
	Reason            string
	UpdatedAt         time.Time
	SessionsRevokedAt *time.Time
	MFAResetAt        *time.Time `gorm:"column:mfa_reset_at"`
}

func (userRow) TableName() string { return "sim_users" }

// identity is the simulated connectors.Identity.
type identity struct{ *backend }

var (
	_ connectors.Identity      = (*identity)(nil)
	_ connectors.HealthChecker = (*identity)(nil)
)

// lockUser returns the account's row locked for this transaction, creating
// it enabled on first use.
func lockUser(tx *gorm.DB, name string, now time.Time) (userRow, error) {
	fresh := userRow{UserName: name, Status: UserEnabled, UpdatedAt: now}
	if _, err := insertIfAbsent(tx, &fresh); err != nil {
		return userRow{}, fmt.Errorf("record user %s: %w", name, err)
	}
	var u userRow
	if err := forUpdate(tx).Take(&u, "user_name = ?", name).Error; err != nil {
		return userRow{}, fmt.Errorf("read user %s: %w", name, err)
	}
	return u, nil
}

// accountChange is one identity operation: its name, and what it does to
// a locked account row, returning the message and the columns to update.
type accountChange struct {
	operation string
	apply     func(u userRow, now time.Time) (msg string, updates map[string]any)
}

// change performs an accountChange once per key.
func (i *identity) change(ctx context.Context, key, user, reason string, ch accountChange) (connectors.Result, error) {
	if err := required("user", user); err != nil {
		return connectors.Result{}, err
	}
	name := strings.ToLower(strings.TrimSpace(user))
	c := call{key: key, connector: actions.ConnectorIdentity, operation: ch.operation,
		request: map[string]any{"user": name, "reason": reason}}
	return i.perform(ctx, c, func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		u, err := lockUser(tx, name, now)
		if err != nil {
			return connectors.Result{}, err
		}
		msg, updates := ch.apply(u, now)
		if len(updates) > 0 {
			updates["updated_at"], updates["reason"] = now, reason
			if err := tx.Model(&userRow{}).Where("user_name = ?", name).Updates(updates).Error; err != nil {
				return connectors.Result{}, fmt.Errorf("%s %s: %w", ch.operation, name, err)
			}
			if s, ok := updates["status"].(string); ok {
				u.Status = s
			}
		}
		return connectors.Result{Success: true, Message: msg, Output: map[string]any{
			"user": name, "status": u.Status, "changed_at": timestamp(now),
		}}, nil
	})
}

// DisableUser disables an account; disabling a disabled one succeeds.
func (i *identity) DisableUser(ctx context.Context, key, user, reason string) (connectors.Result, error) {
	return i.change(ctx, key, user, reason, accountChange{operation: "disable_user",
		apply: func(u userRow, _ time.Time) (string, map[string]any) {
			if u.Status == UserDisabled {
				return "user " + u.UserName + " already disabled", nil
			}
			return "user " + u.UserName + " disabled", map[string]any{"status": UserDisabled}
		}})
}

// EnableUser enables an account; enabling an enabled one succeeds, so a
// rollback never fails because someone re-enabled the account by hand.
func (i *identity) EnableUser(ctx context.Context, key, user, reason string) (connectors.Result, error) {
	return i.change(ctx, key, user, reason, accountChange{operation: "enable_user",
		apply: func(u userRow, _ time.Time) (string, map[string]any) {
			if u.Status == UserEnabled {
				return "user " + u.UserName + " was not disabled", nil
			}
			return "user " + u.UserName + " enabled", map[string]any{"status": UserEnabled}
		}})
}

// RevokeSessions records that every session of the account was revoked.
func (i *identity) RevokeSessions(ctx context.Context, key, user, reason string) (connectors.Result, error) {
	return i.change(ctx, key, user, reason, accountChange{operation: "revoke_sessions",
		apply: func(u userRow, now time.Time) (string, map[string]any) {
			return "sessions of " + u.UserName + " revoked", map[string]any{"sessions_revoked_at": now}
		}})
}

// ResetMFA records that the account's factors were removed.
func (i *identity) ResetMFA(ctx context.Context, key, user, reason string) (connectors.Result, error) {
	return i.change(ctx, key, user, reason, accountChange{operation: "reset_mfa",
		apply: func(u userRow, now time.Time) (string, map[string]any) {
			return "MFA factors of " + u.UserName + " reset", map[string]any{"mfa_reset_at": now}
		}})
}

// UserStatus reports an account's state: UserEnabled or UserDisabled.
func UserStatus(ctx context.Context, set connectors.Set, user string) (string, error) {
	i, ok := set.Identity.(*identity)
	if !ok {
		return "", errors.New("not a simulated identity connector")
	}
	var u userRow
	err := i.db(ctx).Take(&u, "user_name = ?", strings.ToLower(strings.TrimSpace(user))).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return UserEnabled, nil
	case err != nil:
		return "", fmt.Errorf("read user %s: %w", user, err)
	}
	return u.Status, nil
}

// CheckHealth implements connectors.HealthChecker.
func (i *identity) CheckHealth(ctx context.Context) connectors.Health {
	return i.healthOf(ctx, "simulated-identity", actions.ConnectorIdentity)
}
