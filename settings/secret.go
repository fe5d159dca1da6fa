package settings

import (
	"context"
	"encoding/json"
	"fmt"
)

// secretInput is what a write asked for the LLM API key.
type secretInput struct {
	given bool
	value string
}

// replaces reports whether the write supplies a new secret, as opposed to
// keeping (omitted or Mask) or clearing ("") the stored one.
func (in secretInput) replaces() bool {
	return in.given && in.value != "" && in.value != Mask
}

// takeSecret removes the API key members from obj, so the plaintext never
// reaches the struct that is stored, and returns what was asked for.
func takeSecret(obj map[string]json.RawMessage, errs fieldErrors) secretInput {
	var in secretInput
	if raw, ok := obj[fieldAPIKey]; ok {
		delete(obj, fieldAPIKey)
		if isNull(raw) || json.Unmarshal(raw, &in.value) != nil {
			errs.add(fieldAPIKey, "must be a string")
		} else {
			in.given = true
		}
	}
	// api_key_set is derived from the stored secret and ignored on write;
	// accepting it lets a client send back the value it read.
	if raw, ok := obj[fieldAPIKeySet]; ok {
		delete(obj, fieldAPIKeySet)
		var set bool
		if isNull(raw) || json.Unmarshal(raw, &set) != nil {
			errs.add(fieldAPIKeySet, "must be true or false")
		}
	}
	return in
}

// resolveSecret returns the sealed API key to store for a write: a fresh
// seal, nothing when cleared, or the stored value when kept.
func (s *Service) resolveSecret(in secretInput, stored storedLLM) (string, error) {
	switch {
	case in.replaces():
		sealed, err := s.box.Seal(in.value, apiKeyContext)
		if err != nil {
			return "", fmt.Errorf("seal llm api key: %w", err)
		}
		return sealed, nil
	case in.given && in.value == "":
		return "", nil
	}
	return stored.sealed, nil
}

// storedLLM reads what a write of the llm setting keeps or compares with.
// It reads the stored document directly rather than decoding it, so a
// write can still repair a stored document that no longer decodes.
func (s *Service) storedLLM(ctx context.Context) (storedLLM, error) {
	row, err := s.row(ctx, KeyLLM)
	if err != nil || row == nil {
		return storedLLM{}, err
	}
	v := row.Value.V
	out := storedLLM{}
	out.baseURL, _ = v["base_url"].(string)
	out.sealed, _ = v[fieldAPIKeySealed].(string)
	out.origin, _ = v[fieldAPIKeyOrigin].(string)
	return out, nil
}
