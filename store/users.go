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

// ListUsers returns one page of users ordered by username, and how many
// users there are.
func (s *Store) ListUsers(ctx context.Context, p Page) ([]User, int64, error) {
	var total int64
	if err := s.db.WithContext(ctx).Model(&User{}).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count users: %w", err)
	}
	var users []User
	if err := p.apply(s.db.WithContext(ctx).Order("lower(username), id")).Find(&users).Error; err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	return users, total, nil
}

// UserUpdate lists the fields that may change; nil means unchanged.
type UserUpdate struct {
	Email       *string
	Role        *string
	DisplayName *string
	Enabled     *bool
	Password    *string
}

// UpdateUser applies the changes. Disabling a user revokes their sessions
// and API keys for good (enabling them again issues nothing back); a new
// password ends their sessions. A change that would leave no enabled admin
// fails with ErrLastAdmin.
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
		disabled := u.Enabled != nil && !*u.Enabled
		if disabled || u.Password != nil {
			if err := tx.Model(&Session{}).Where("user_id = ? AND revoked_at IS NULL", id).
				Update("revoked_at", Now()).Error; err != nil {
				return err
			}
		}
		if disabled {
			// Revoked for good: enabling the user again must not bring
			// back credentials that may have leaked meanwhile.
			return tx.Model(&APIKey{}).Where("user_id = ? AND revoked_at IS NULL", id).
				Update("revoked_at", Now()).Error
		}
		return nil
	})
	// The trigger tells every process; this one forgets before it answers.
	s.keys.forget()
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
	s.keys.forget()
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
