package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// sessionTouchGranularity bounds how often last_seen_at is written.
const sessionTouchGranularity = time.Minute

// Session is a browser login; only a hash of its cookie token is stored.
type Session struct {
	ID         string `gorm:"primaryKey"`
	TokenHash  string
	UserID     string
	CSRFToken  string `gorm:"column:csrf_token"`
	ClientIP   string `gorm:"column:client_ip"`
	UserAgent  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	RevokedAt  *time.Time
	// Owner is filled only by authentication.
	Owner *User `gorm:"foreignKey:UserID"`
}

// SessionLifetimes are the idle and absolute limits of a session.
type SessionLifetimes struct {
	Idle     time.Duration
	Absolute time.Duration
}

func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// CreateSession starts a session for the user and returns it with the
// cookie token, which is not stored.
func (s *Store) CreateSession(ctx context.Context, userID, clientIP, userAgent string, absolute time.Duration) (*Session, string, error) {
	token, err := randomToken()
	if err != nil {
		return nil, "", err
	}
	csrf, err := randomToken()
	if err != nil {
		return nil, "", err
	}
	now := Now()
	if len(userAgent) > 512 {
		userAgent = userAgent[:512]
	}
	sess := &Session{
		ID: uuid.NewString(), TokenHash: HashKey(token), UserID: userID, CSRFToken: csrf,
		ClientIP: clientIP, UserAgent: userAgent, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(absolute),
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(sess).Error; err != nil {
			return err
		}
		return tx.Model(&User{}).Where("id = ?", userID).Update("last_login_at", now).Error
	})
	if err != nil {
		return nil, "", fmt.Errorf("create session: %w", translate(err))
	}
	return sess, token, nil
}

// AuthenticateSession resolves a session cookie token. It refuses revoked,
// idle-expired and absolutely expired sessions and disabled users, reading
// the database on every call.
func (s *Store) AuthenticateSession(ctx context.Context, token string, idle time.Duration) (*Principal, error) {
	if token == "" {
		return nil, ErrUnauthenticated
	}
	// One read for the session and its user: this runs on every request.
	var sess Session
	err := s.db.WithContext(ctx).Joins("Owner").Take(&sess, "sessions.token_hash = ?", HashKey(token)).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrUnauthenticated
	}
	if err != nil {
		return nil, fmt.Errorf("look up session: %w", err)
	}
	now := Now()
	if sess.RevokedAt != nil || !now.Before(sess.ExpiresAt) || now.Sub(sess.LastSeenAt) >= idle {
		return nil, ErrUnauthenticated
	}
	u := sess.Owner
	if u == nil || !u.Enabled {
		return nil, ErrUnauthenticated
	}
	sess.Owner = nil
	if now.Sub(sess.LastSeenAt) >= sessionTouchGranularity {
		if err := s.db.WithContext(ctx).Model(&Session{}).Where("id = ?", sess.ID).
			Update("last_seen_at", now).Error; err == nil {
			sess.LastSeenAt = now
		}
	}
	return &Principal{User: *u, Session: &sess}, nil
}

// RevokeSession ends a session at once.
func (s *Store) RevokeSession(ctx context.Context, id string) error {
	err := s.db.WithContext(ctx).Model(&Session{}).
		Where("id = ? AND revoked_at IS NULL", id).Update("revoked_at", Now()).Error
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}
