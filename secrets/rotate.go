package secrets

import (
	"errors"
	"fmt"
)

// Contexts that stored secrets are sealed under. Each names one field, so a
// sealed value copied into another field will not open there; the store's
// list of sealed fields refers to these names so rotation opens every value
// with the context it was sealed with.
const (
	// ContextWebhookSecret seals a webhook source's HMAC secret.
	ContextWebhookSecret = "webhook.secret"
	// ContextLLMAPIKey seals the LLM provider's API key in the llm setting.
	ContextLLMAPIKey = "llm.api_key"
	// ContextDataSourceCredentials seals a hunt data source's credentials.
	ContextDataSourceCredentials = "data_source.credentials"
)

// OldEnvVar names the environment variable that may carry the previous key
// to `vigil secrets rotate`.
const OldEnvVar = "VIGIL_OLD_SECRET_KEY"

// ErrSameKey means a rotation was asked to move secrets to the key they are
// already sealed under.
var ErrSameKey = errors.New("the old and the new secret keys are the same key")

// probeContext is used only to compare two keys; nothing is stored under it.
const probeContext = "vigil key comparison"

// Rotation moves sealed values from an old key to a new one.
type Rotation struct {
	old, new *Box
}

// NewRotation checks that both keys are set and differ. Keys are compared
// by what they seal, so two spellings of one key (the same bytes in two
// base64 alphabets) count as the same key.
func NewRotation(old, new *Box) (*Rotation, error) {
	if old == nil || new == nil {
		return nil, ErrNoKey
	}
	probe, err := new.Seal("probe", probeContext)
	if err != nil {
		return nil, err
	}
	if _, err := old.Open(probe, probeContext); err == nil {
		return nil, ErrSameKey
	}
	return &Rotation{old: old, new: new}, nil
}

// Reseal returns sealed re-encrypted under the new key, and whether it
// changed. A value that opens only under the new key is returned as it is,
// so running a rotation again after it committed changes nothing. A value
// that opens under neither key is an error.
func (r *Rotation) Reseal(sealed, context string) (string, bool, error) {
	plain, err := r.old.Open(sealed, context)
	if err == nil {
		out, err := r.new.Seal(plain, context)
		return out, err == nil, err
	}
	if !errors.Is(err, ErrDecrypt) {
		return "", false, err
	}
	if _, nerr := r.new.Open(sealed, context); nerr == nil {
		return sealed, false, nil
	}
	return "", false, fmt.Errorf("%w (it opens with neither the old nor the new key)", ErrDecrypt)
}
