package settings

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
)

// KeyPackages is the content package policy's setting key.
const KeyPackages = "packages"

// Packages is the policy for importing content packages.
type Packages struct {
	// RequireSignature refuses packages that are unsigned or not signed
	// by one of TrustedKeys.
	RequireSignature bool `json:"require_signature"`
	// TrustedKeys are the publishers whose signatures are accepted.
	TrustedKeys []PublisherKey `json:"trusted_keys"`
}

// PublisherKey is a named ed25519 public key, standard base64.
type PublisherKey struct {
	Name      string `json:"name"`
	PublicKey string `json:"public_key"`
}

func (p *Packages) validate(errs fieldErrors) {
	if len(p.TrustedKeys) > 100 {
		errs.add("trusted_keys", "at most 100 keys")
	}
	for i, k := range p.TrustedKeys {
		field := fmt.Sprintf("trusted_keys[%d]", i)
		errs.length(field+".name", k.Name, 1, 100)
		if b, err := base64.StdEncoding.DecodeString(k.PublicKey); err != nil || len(b) != ed25519.PublicKeySize {
			errs.add(field+".public_key", "must be an ed25519 public key in standard base64 (44 characters)")
		}
	}
	if p.RequireSignature && len(p.TrustedKeys) == 0 {
		errs.add("trusted_keys", "name at least one key when signatures are required")
	}
}

// Packages returns the content package policy, or its defaults.
func (s *Service) Packages(ctx context.Context) (Packages, error) {
	sh, _, err := s.load(ctx, KeyPackages)
	if err != nil {
		return Packages{}, err
	}
	return *sh.(*Packages), nil
}
