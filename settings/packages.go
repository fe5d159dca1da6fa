package settings

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strings"
)

// KeyPackages is the content package policy's setting key.
const KeyPackages = "packages"

// Packages is the policy for importing content packages.
type Packages struct {
	// RequireSignature refuses packages that are unsigned or not signed
	// by one of TrustedKeys.
	RequireSignature bool `json:"require_signature"`
	// TrustedKeys are the publishers whose signatures are accepted, each
	// written NAME=KEY with KEY an ed25519 public key in standard base64:
	// plain strings, so the settings form edits them one per line.
	TrustedKeys []string `json:"trusted_keys"`
}

// PublisherKey is a named ed25519 public key, standard base64.
type PublisherKey struct {
	Name      string
	PublicKey string
}

// ParseTrustedKey splits a NAME=KEY entry of TrustedKeys.
func ParseTrustedKey(entry string) (PublisherKey, bool) {
	name, key, ok := strings.Cut(entry, "=")
	if !ok {
		return PublisherKey{}, false
	}
	// Base64 padding is '=' too: the name ends at the first one.
	return PublisherKey{Name: strings.TrimSpace(name), PublicKey: strings.TrimSpace(key)}, true
}

// Keys returns the trusted keys parsed.
func (p Packages) Keys() []PublisherKey {
	out := make([]PublisherKey, 0, len(p.TrustedKeys))
	for _, e := range p.TrustedKeys {
		if k, ok := ParseTrustedKey(e); ok {
			out = append(out, k)
		}
	}
	return out
}

func (p *Packages) validate(errs fieldErrors) {
	if len(p.TrustedKeys) > 100 {
		errs.add("trusted_keys", "at most 100 keys")
	}
	for i, e := range p.TrustedKeys {
		field := fmt.Sprintf("trusted_keys[%d]", i)
		k, ok := ParseTrustedKey(e)
		if !ok || k.Name == "" || len(k.Name) > 100 {
			errs.add(field, "write NAME=KEY, with a name of 1 to 100 characters")
			continue
		}
		if b, err := base64.StdEncoding.DecodeString(k.PublicKey); err != nil || len(b) != ed25519.PublicKeySize {
			errs.add(field, "KEY must be an ed25519 public key in standard base64 (44 characters)")
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
