package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// KeyPrefixLen is how many leading characters of a key are kept in clear,
// so operators can tell keys apart.
const KeyPrefixLen = 8

// keyLastUsedGranularity bounds how often last_used_at is written, so a busy
// key does not turn every read into a write.
const keyLastUsedGranularity = time.Minute

// HashKey returns the stored form of an API key. Keys carry 256 random bits,
// so a fast hash is enough; a slow password hash would only add latency.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// GenerateKey returns a new random API key ("vgl_" + 43 URL-safe characters).
func GenerateKey() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate key: %w", err)
	}
	return "vgl_" + base64.RawURLEncoding.EncodeToString(b), nil
}

// CreateAPIKey issues a key for the user and returns the stored record and
// the full key, which is never retrievable again.
func (s *Store) CreateAPIKey(ctx context.Context, userID, name string, scopes []string, expiresAt *time.Time) (*APIKey, string, error) {
	key, err := GenerateKey()
	if err != nil {
		return nil, "", err
	}
	k, err := s.insertKey(ctx, userID, name, key, scopes, expiresAt)
	if err != nil {
		return nil, "", err
	}
	return k, key, nil
}

func (s *Store) insertKey(ctx context.Context, userID, name, key string, scopes []string, expiresAt *time.Time) (*APIKey, error) {
	if scopes == nil {
		scopes = []string{}
	}
	if expiresAt != nil {
		e := expiresAt.UTC().Truncate(time.Microsecond)
		expiresAt = &e
	}
	k := &APIKey{
		ID:        uuid.NewString(),
		UserID:    userID,
		Name:      name,
		KeyPrefix: key[:min(KeyPrefixLen, len(key))],
		KeyHash:   HashKey(key),
		Scopes:    NewJSON(scopes),
		ExpiresAt: expiresAt,
		CreatedAt: Now(),
	}
	if err := s.db.WithContext(ctx).Create(k).Error; err != nil {
		return nil, fmt.Errorf("create api key: %w", translate(err))
	}
	return k, nil
}

// RevokeAPIKey makes a key unusable from the next request on.
func (s *Store) RevokeAPIKey(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Model(&APIKey{}).
		Where("id = ? AND revoked_at IS NULL", id).Update("revoked_at", Now())
	if res.Error != nil {
		return fmt.Errorf("revoke api key: %w", res.Error)
	}
	// The trigger tells every process; this one forgets before it answers.
	s.keys.forget()
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// Principal is the authenticated caller of a request: a user reached
// through exactly one of an API key or a browser session.
type Principal struct {
	User    User
	Key     *APIKey
	Session *Session
}

// Scopes returns the key's scopes; empty means whatever the role allows.
func (p *Principal) Scopes() []string {
	if p.Key == nil {
		return nil
	}
	return p.Key.Scopes.V
}

// AuthenticateKey resolves a bearer key to its user. On PostgreSQL a key in
// use is served from memory while every change to keys and users is heard
// (keyCache), so revocation and disabling still take effect at once on
// every process; otherwise it reads the database on every call.
func (s *Store) AuthenticateKey(ctx context.Context, key string) (*Principal, error) {
	if key == "" {
		return nil, ErrUnauthenticated
	}
	s.listenForKeyChanges()
	hash := HashKey(key)
	k, u, ok := s.keys.get(hash)
	if !ok {
		gen := s.keys.begin()
		// One read for the key and its owner: this runs on every request
		// the cache cannot answer.
		err := s.db.WithContext(ctx).Joins("Owner").Take(&k, "api_keys.key_hash = ?", hash).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, ErrUnauthenticated
		}
		if err != nil {
			return nil, fmt.Errorf("look up api key: %w", err)
		}
		if k.Owner == nil {
			return nil, ErrUnauthenticated
		}
		u = *k.Owner
		s.keys.put(hash, gen, k, u)
	}
	now := Now()
	if k.RevokedAt != nil || (k.ExpiresAt != nil && !now.Before(*k.ExpiresAt)) || !u.Enabled {
		return nil, ErrUnauthenticated
	}
	k.Owner = nil
	if k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= keyLastUsedGranularity {
		// Best effort: a failed bookkeeping write must not fail the request.
		if err := s.db.WithContext(ctx).Model(&APIKey{}).Where("id = ?", k.ID).
			Update("last_used_at", now).Error; err == nil {
			k.LastUsedAt = &now
			s.keys.touch(hash, now)
		}
	}
	return &Principal{User: u, Key: &k}, nil
}

// BootstrapAdmin ensures a user "admin" with role admin exists and holds
// key. A key that was revoked stays revoked: restarting with the same
// environment must not undo an operator's revocation.
func (s *Store) BootstrapAdmin(ctx context.Context, key string) (revoked bool, err error) {
	key = strings.TrimSpace(key)
	if len(key) < 16 {
		return false, fmt.Errorf("%w: bootstrap admin key must be at least 16 characters", ErrInvalid)
	}
	u, err := s.UserByUsername(ctx, "admin")
	if errors.Is(err, ErrNotFound) {
		u, err = s.CreateUser(ctx, NewUser{Username: "admin", Email: "admin@localhost", Role: RoleAdmin, DisplayName: "Administrator"})
	}
	if err != nil {
		return false, fmt.Errorf("ensure admin user: %w", err)
	}
	var k APIKey
	err = s.db.WithContext(ctx).Take(&k, "key_hash = ?", HashKey(key)).Error
	switch {
	case err == nil:
		if k.UserID != u.ID {
			return false, fmt.Errorf("%w: bootstrap key belongs to another user", ErrConflict)
		}
		return k.RevokedAt != nil, nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		_, err = s.insertKey(ctx, u.ID, "bootstrap", key, nil, nil)
		return false, err
	default:
		return false, fmt.Errorf("look up bootstrap key: %w", err)
	}
}

// ListAPIKeys returns one page of the keys of one user, or of everyone
// when userID is empty, newest first, and how many there are. Revoked keys
// are included so the history stays visible.
func (s *Store) ListAPIKeys(ctx context.Context, userID string, p Page) ([]APIKey, int64, error) {
	q := s.db.WithContext(ctx).Model(&APIKey{}).Session(&gormSession)
	if userID != "" {
		q = q.Where("user_id = ?", userID)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count api keys: %w", err)
	}
	var keys []APIKey
	if err := p.apply(q.Order("created_at DESC, id DESC")).Find(&keys).Error; err != nil {
		return nil, 0, fmt.Errorf("list api keys: %w", err)
	}
	return keys, total, nil
}

// GetAPIKey reads one key record.
func (s *Store) GetAPIKey(ctx context.Context, id string) (*APIKey, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var k APIKey
	if err := s.db.WithContext(ctx).Take(&k, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &k, nil
}
