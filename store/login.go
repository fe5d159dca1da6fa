package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
)

// dummyHashes holds, per bcrypt cost, a hash that a failed sign-in for an
// unknown, disabled or password-less account is compared against, so that
// every failure costs one comparison at the cost real hashes are made with
// and the answer time does not tell which accounts exist.
var dummyHashes sync.Map // int -> []byte

func dummyHash() ([]byte, error) {
	cost := BcryptCost
	if h, ok := dummyHashes.Load(cost); ok {
		return h.([]byte), nil
	}
	h, err := bcrypt.GenerateFromPassword([]byte("vigil-timing-equaliser"), cost)
	if err != nil {
		return nil, fmt.Errorf("make timing hash: %w", err)
	}
	actual, _ := dummyHashes.LoadOrStore(cost, h)
	return actual.([]byte), nil
}

// passwordCheckObserver hears every password comparison; see
// ObservePasswordChecks.
var passwordCheckObserver atomic.Pointer[func(cost int)]

// ObservePasswordChecks calls fn with the bcrypt cost of every password
// comparison VerifyLogin makes until stop is called. It exists so tests can
// prove how many comparisons sign-ins made and that each one cost the same,
// without measuring time.
func ObservePasswordChecks(fn func(cost int)) (stop func()) {
	passwordCheckObserver.Store(&fn)
	return func() { passwordCheckObserver.CompareAndSwap(&fn, nil) }
}

func passwordMatches(hash []byte, password string) bool {
	if fn := passwordCheckObserver.Load(); fn != nil {
		cost, _ := bcrypt.Cost(hash)
		(*fn)(cost)
	}
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
}

// VerifyLogin checks a username-or-email and password. Every failure is
// ErrUnauthenticated, whatever its cause, and every call makes exactly one
// bcrypt comparison: an unknown, disabled or password-less account is
// compared against a dummy hash of the current cost.
func (s *Store) VerifyLogin(ctx context.Context, login, password string) (*User, error) {
	// Fetched on every path, so that the one call that makes it is not
	// told apart by which account it named.
	dummy, err := dummyHash()
	if err != nil {
		return nil, err
	}
	var u User
	err = s.db.WithContext(ctx).
		Take(&u, "lower(username) = lower(?) OR lower(email) = lower(?)", login, login).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("look up user: %w", err)
	}
	usable := err == nil && u.Enabled && u.PasswordHash != ""
	hash := []byte(u.PasswordHash)
	if !usable {
		hash = dummy
	}
	if !passwordMatches(hash, password) || !usable {
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
