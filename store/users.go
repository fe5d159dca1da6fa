package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Password rules. bcrypt reads at most 72 bytes, so longer passwords are
// refused rather than silently truncated.
const (
	MinPasswordLength = 12
	MaxPasswordBytes  = 72
)

// BcryptCost is the work factor for password hashes.
var BcryptCost = 12

// ErrLastAdmin means the change would leave no enabled admin.
var ErrLastAdmin = errors.New("the last enabled admin cannot be demoted, disabled or deleted")

// dummyHash is compared against when a login names no user, so the answer
// takes as long as for a real user with a wrong password.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("vigil-timing-equaliser"), bcrypt.MinCost)

// NewUser holds what is needed to create a user.
type NewUser struct {
	Username    string
	Email       string
	Role        string
	DisplayName string
	Password    string // optional; empty means API keys only
}

// CheckPassword reports why a password is unacceptable, or "".
func CheckPassword(pw string) string {
	switch {
	case len([]rune(pw)) < MinPasswordLength:
		return fmt.Sprintf("must be at least %d characters", MinPasswordLength)
	case len(pw) > MaxPasswordBytes:
		return fmt.Sprintf("must be at most %d bytes", MaxPasswordBytes)
	}
	return ""
}

func hashPassword(pw string) (string, error) {
	if msg := CheckPassword(pw); msg != "" {
		return "", fmt.Errorf("%w: password %s", ErrInvalid, msg)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), BcryptCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// CreateUser inserts an enabled user.
func (s *Store) CreateUser(ctx context.Context, in NewUser) (*User, error) {
	if RoleRank(in.Role) < 0 {
		return nil, fmt.Errorf("%w: unknown role %q", ErrInvalid, in.Role)
	}
	now := Now()
	u := &User{
		ID:          uuid.NewString(),
		Username:    in.Username,
		Email:       in.Email,
		Role:        in.Role,
		DisplayName: in.DisplayName,
		Enabled:     true,
		CreatedAt:   now,
		UpdatedAt:   now,
	}
	if in.Password != "" {
		h, err := hashPassword(in.Password)
		if err != nil {
			return nil, err
		}
		u.PasswordHash = h
	}
	if err := s.db.WithContext(ctx).Create(u).Error; err != nil {
		return nil, fmt.Errorf("create user: %w", translate(err))
	}
	return u, nil
}

// UserByUsername finds a user by username, case-insensitively.
func (s *Store) UserByUsername(ctx context.Context, username string) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).Take(&u, "lower(username) = lower(?)", username).Error
	if err != nil {
		return nil, translate(err)
	}
	return &u, nil
}

// GetUser reads one user.
func (s *Store) GetUser(ctx context.Context, id string) (*User, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var u User
	if err := s.db.WithContext(ctx).Take(&u, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &u, nil
}

// ListUsers returns every user ordered by username.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	var users []User
	if err := s.db.WithContext(ctx).Order("lower(username)").Find(&users).Error; err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return users, nil
}

// VerifyLogin checks a username-or-email and password. Every failure is
// ErrUnauthenticated, whatever its cause, and takes a bcrypt comparison.
func (s *Store) VerifyLogin(ctx context.Context, login, password string) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).
		Take(&u, "lower(username) = lower(?) OR lower(email) = lower(?)", login, login).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("look up user: %w", err)
	}
	hash := []byte(u.PasswordHash)
	if err != nil || len(hash) == 0 {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return nil, ErrUnauthenticated
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil || !u.Enabled {
		return nil, ErrUnauthenticated
	}
	return &u, nil
}

// LoginAccount names the account a login string refers to, for throttling
// failed sign-ins per account whichever of username or email is typed: the
// user's id when one matches, otherwise the normalised login itself.
func (s *Store) LoginAccount(ctx context.Context, login string) string {
	var u User
	err := s.db.WithContext(ctx).Select("id").
		Take(&u, "lower(username) = lower(?) OR lower(email) = lower(?)", login, login).Error
	if err != nil {
		return "login:" + strings.ToLower(login)
	}
	return "user:" + u.ID
}

// UserUpdate lists the fields that may change; nil means unchanged.
type UserUpdate struct {
	Email       *string
	Role        *string
	DisplayName *string
	Enabled     *bool
	Password    *string
}

// UpdateUser applies the changes. Disabling a user revokes their sessions;
// their keys stop working because authentication checks the user. A change
// that would leave no enabled admin fails with ErrLastAdmin.
func (s *Store) UpdateUser(ctx context.Context, id string, u UserUpdate) (*User, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	changes := map[string]any{"updated_at": Now()}
	if u.Email != nil {
		changes["email"] = strings.TrimSpace(*u.Email)
	}
	if u.Role != nil {
		if RoleRank(*u.Role) < 0 {
			return nil, fmt.Errorf("%w: unknown role %q", ErrInvalid, *u.Role)
		}
		changes["role"] = *u.Role
	}
	if u.DisplayName != nil {
		changes["display_name"] = *u.DisplayName
	}
	if u.Enabled != nil {
		changes["enabled"] = *u.Enabled
	}
	if u.Password != nil {
		h, err := hashPassword(*u.Password)
		if err != nil {
			return nil, err
		}
		changes["password_hash"] = h
	}
	losesAdmin := (u.Role != nil && *u.Role != RoleAdmin) || (u.Enabled != nil && !*u.Enabled)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if losesAdmin {
			if err := s.guardLastAdmin(tx, id); err != nil {
				return err
			}
		}
		res := tx.Model(&User{}).Where("id = ?", id).Updates(changes)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		if u.Enabled != nil && !*u.Enabled || u.Password != nil {
			return tx.Model(&Session{}).Where("user_id = ? AND revoked_at IS NULL", id).
				Update("revoked_at", Now()).Error
		}
		return nil
	})
	if err != nil {
		return nil, translate(err)
	}
	return s.GetUser(ctx, id)
}

// DeleteUser removes a user with their keys and sessions.
func (s *Store) DeleteUser(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.guardLastAdmin(tx, id); err != nil {
			return err
		}
		for _, m := range []any{&APIKey{}, &Session{}} {
			if err := tx.Where("user_id = ?", id).Delete(m).Error; err != nil {
				return err
			}
		}
		res := tx.Where("id = ?", id).Delete(&User{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		return nil
	})
	return translate(err)
}

// guardLastAdmin fails when id is an enabled admin and no other enabled
// admin exists. Locking the admin rows serialises concurrent demotions on
// PostgreSQL; SQLite write transactions are serial already.
func (s *Store) guardLastAdmin(tx *gorm.DB, id string) error {
	q := tx.Model(&User{}).Where("role = ? AND enabled = ?", RoleAdmin, true)
	if s.dialect == DialectPostgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var admins []User
	if err := q.Select("id").Find(&admins).Error; err != nil {
		return err
	}
	isAdmin := false
	for _, a := range admins {
		if a.ID == id {
			isAdmin = true
		}
	}
	if isAdmin && len(admins) == 1 {
		return ErrLastAdmin
	}
	return nil
}
