// Package settings provides Vigil's instance-wide settings: typed,
// validated documents kept in the store, with defaults for any that were
// never written and secrets sealed by a secrets.Box before they are stored.
package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/internal/ttlcache"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// Mask stands in for a secret that is set; sending it back in a write keeps
// the stored secret.
const Mask = "********"

// ErrUnknownKey means the setting key is not one of Keys().
var ErrUnknownKey = errors.New("unknown setting key")

// Names of the LLM API key in the API and in the stored document, and the
// context it is sealed under so a sealed value cannot be replayed into
// another secret field.
const (
	fieldAPIKey       = "api_key"
	fieldAPIKeySet    = "api_key_set"
	fieldAPIKeySealed = "api_key_encrypted"
	apiKeyContext     = secrets.ContextLLMAPIKey
)

// Service reads and writes settings. It is safe for concurrent use.
type Service struct {
	st  *store.Store
	box *secrets.Box

	general ttlcache.Value[General]
	llm     ttlcache.Value[LLM]

	mu      sync.Mutex
	written []func(key string)
}

// OnPut registers fn to be told the key of every setting written through
// Put, so caches built from a setting elsewhere drop it at once.
func (s *Service) OnPut(fn func(key string)) {
	s.mu.Lock()
	s.written = append(s.written, fn)
	s.mu.Unlock()
}

// tellWritten calls the OnPut listeners for key.
func (s *Service) tellWritten(key string) {
	s.mu.Lock()
	fns := slices.Clone(s.written)
	s.mu.Unlock()
	for _, fn := range fns {
		fn(key)
	}
}

// NewService returns a Service over st. box may be nil, in which case
// settings without secrets still work and writing a secret is refused.
func NewService(st *store.Store, box *secrets.Box) *Service {
	return &Service{st: st, box: box}
}

// View is a setting as shown to API callers (secrets masked).
type View struct {
	Key       string         `json:"key"`
	Value     map[string]any `json:"value"`
	UpdatedAt *time.Time     `json:"updated_at"`
	UpdatedBy string         `json:"updated_by,omitempty"`
}

// List returns every setting in Keys() order, with defaults (and a nil
// UpdatedAt) for those never written.
func (s *Service) List(ctx context.Context) ([]View, error) {
	rows, err := s.st.ListSettings(ctx)
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]*store.Setting, len(rows))
	for i := range rows {
		byKey[rows[i].Key] = &rows[i]
	}
	out := make([]View, 0, len(Keys()))
	for _, key := range Keys() {
		v, err := view(key, byKey[key])
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Get returns one setting for display; ErrUnknownKey for a key not in Keys().
func (s *Service) Get(ctx context.Context, key string) (View, error) {
	if _, ok := newShape(key); !ok {
		return View{}, fmt.Errorf("%w: %q", ErrUnknownKey, key)
	}
	row, err := s.row(ctx, key)
	if err != nil {
		return View{}, err
	}
	return view(key, row)
}

// Put replaces the setting key with the JSON object body, written by actor.
// Fields the body omits take their defaults, except the LLM API key: an
// omitted or masked api_key keeps the stored secret and "" clears it; a
// kept key cannot follow base_url to another origin. What a GET returned
// may be sent back as is: read-only members are ignored (see
// writableMembers) and a redacted base_url stands for the stored one.
// Invalid input yields a *ValidationError naming every bad field.
func (s *Service) Put(ctx context.Context, key string, body []byte, actor string) (View, error) {
	sh, ok := newShape(key)
	if !ok {
		return View{}, fmt.Errorf("%w: %q", ErrUnknownKey, key)
	}
	obj, err := parseObject(body)
	if err != nil {
		return View{}, err
	}
	errs := fieldErrors{}
	obj = writableMembers(key, obj, errs)
	var secret secretInput
	var stored storedLLM
	if key == KeyLLM {
		secret = takeSecret(obj, errs)
		if secret.replaces() && s.box == nil {
			errs.add(fieldAPIKey, secrets.EnvVar+" must be set to store secrets")
		}
		if stored, err = s.storedLLM(ctx); err != nil {
			return View{}, err
		}
	}
	overlay(sh, obj, errs, true)
	if l, ok := sh.(*LLM); ok {
		checkBaseURL(l, stored, secret, errs)
	}
	sh.validate(errs)
	if err := errs.err(); err != nil {
		return View{}, err
	}
	value, err := toMap(sh)
	if err != nil {
		return View{}, fmt.Errorf("encode setting %s: %w", key, err)
	}
	if key == KeyLLM {
		sealed, err := s.resolveSecret(secret, stored)
		if err != nil {
			return View{}, err
		}
		if sealed != "" {
			value[fieldAPIKeySealed] = sealed
			value[fieldAPIKeyOrigin] = keyOriginAfter(sh.(*LLM).BaseURL, stored, secret)
		}
	}
	row, err := s.st.PutSetting(ctx, key, value, actor)
	switch key {
	case KeyGeneral:
		s.general.Forget()
	case KeyLLM:
		s.llm.Forget()
	}
	s.tellWritten(key)
	if err != nil {
		return View{}, err
	}
	return view(key, row)
}

// General returns the general setting, or its defaults.
func (s *Service) General(ctx context.Context) (General, error) {
	sh, _, err := s.load(ctx, KeyGeneral)
	if err != nil {
		return General{}, err
	}
	return *sh.(*General), nil
}

// RateLimits returns the rate limit setting, or its defaults.
func (s *Service) RateLimits(ctx context.Context) (RateLimits, error) {
	sh, _, err := s.load(ctx, KeyRateLimits)
	if err != nil {
		return RateLimits{}, err
	}
	return *sh.(*RateLimits), nil
}

// LLM returns the LLM setting, or its defaults, with APIKey decrypted. A
// stored key that cannot be opened (no box, or a changed VIGIL_SECRET_KEY)
// is an error rather than an empty key, so the client fails loudly instead
// of calling the provider unauthenticated.
func (s *Service) LLM(ctx context.Context) (LLM, error) {
	sh, sealed, err := s.load(ctx, KeyLLM)
	if err != nil {
		return LLM{}, err
	}
	l := *sh.(*LLM)
	if sealed == "" {
		return l, nil
	}
	stored, err := s.storedLLM(ctx)
	if err != nil {
		return LLM{}, err
	}
	// Writes refuse to move the base URL without a new key; this guards
	// against a document changed behind the API's back.
	if l.BaseURL != "" && Origin(l.BaseURL) != stored.keyOrigin() {
		return LLM{}, errors.New("llm api key was entered for another base_url origin; enter it again")
	}
	if l.APIKey, err = s.box.Open(sealed, apiKeyContext); err != nil {
		return LLM{}, fmt.Errorf("open llm api key: %w", err)
	}
	return l, nil
}

// row reads the stored setting, or nil when it was never written.
func (s *Service) row(ctx context.Context, key string) (*store.Setting, error) {
	row, err := s.st.GetSetting(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read setting %s: %w", key, err)
	}
	return row, nil
}

// load reads key as its typed shape plus the sealed API key, if any.
func (s *Service) load(ctx context.Context, key string) (shape, string, error) {
	row, err := s.row(ctx, key)
	if err != nil {
		return nil, "", err
	}
	return decodeRow(key, row)
}

// decodeRow overlays a stored row (nil for none) on the defaults for key.
func decodeRow(key string, row *store.Setting) (shape, string, error) {
	sh, _ := newShape(key)
	if row == nil {
		return sh, "", nil
	}
	obj, err := storedObject(row.Value.V)
	if err != nil {
		return nil, "", fmt.Errorf("decode setting %s: %w", key, err)
	}
	var sealed string
	if raw, ok := obj[fieldAPIKeySealed]; ok && key == KeyLLM {
		delete(obj, fieldAPIKeySealed)
		if err := json.Unmarshal(raw, &sealed); err != nil {
			return nil, "", fmt.Errorf("decode setting %s: %s: %w", key, fieldAPIKeySealed, err)
		}
	}
	errs := fieldErrors{}
	overlay(sh, obj, errs, false)
	if err := errs.err(); err != nil {
		return nil, "", fmt.Errorf("stored setting %s is corrupt: %w", key, err)
	}
	return sh, sealed, nil
}

// view renders a stored row (nil for none) for display.
func view(key string, row *store.Setting) (View, error) {
	sh, sealed, err := decodeRow(key, row)
	if err != nil {
		return View{}, err
	}
	value, err := toMap(sh)
	if err != nil {
		return View{}, fmt.Errorf("encode setting %s: %w", key, err)
	}
	if key == KeyLLM {
		value["base_url"] = RedactURL(sh.(*LLM).BaseURL)
		value[fieldAPIKey] = ""
		if sealed != "" {
			value[fieldAPIKey] = Mask
		}
		value[fieldAPIKeySet] = sealed != ""
	}
	v := View{Key: key, Value: value}
	if row != nil {
		at := row.UpdatedAt
		v.UpdatedAt, v.UpdatedBy = &at, row.UpdatedBy
	}
	return v, nil
}

// Box is the box that seals secrets; nil when VIGIL_SECRET_KEY is unset.
// Other features that keep secrets (notification channels) seal with it.
func (s *Service) Box() *secrets.Box { return s.box }
