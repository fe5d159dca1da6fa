package triage

import (
	"regexp"
	"strings"
)

// exposedSecretRe finds the wording of an alert about a credential found
// where it should not be.
var exposedSecretRe = regexp.MustCompile(`secret|exposed|leak|hard-?coded|committed|plain ?text`)

// exposedSecretAlert reports an alert about a credential found where it
// should not be (a secret scanner's finding, a key in an image or a
// repository), by its wording or a scanner's fields: only there does a
// placeholder key mean nothing is exposed. A detector watching a key in
// use (GuardDuty) names the key because the key acted, whatever it looks
// like.
func exposedSecretAlert(d *doc) bool {
	return exposedSecretRe.MatchString(d.text) || d.has(secretScannerKeys...)
}

// secretScannerKeys are the fields only a secret scanner's finding has: the
// kind of secret, the secret or the text it matched, and its validity.
var secretScannerKeys = append([]string{"secrettype", "secret", "matchedtext"}, secretValidityKeys...)

// exampleCredentialRe matches the placeholder credentials cloud providers
// print in their documentation: AWS marks every example access key id and
// secret with EXAMPLE (AKIAIOSFODNN7EXAMPLE, ...EXAMPLEKEY).
var exampleCredentialRe = regexp.MustCompile(`\b(akia|asia)[0-9a-z]{8,12}example\b|[0-9a-z/+]{16,}examplekey\b`)

// secretValidityKeys hold a secret scanner's check of whether the exposed
// credential works (GitHub secret scanning validity, GitGuardian
// validity, a cloud scanner's key validation).
var secretValidityKeys = []string{"validity", "secretvalidity", "keyvalidation", "validationresult", "tokenvalidity", "credentialvalidity"}

// unusableSecret reports an exposed credential that opens nothing: a
// provider's documentation placeholder, or one the scanner's own check
// found invalid or inactive. Only the scanner's stated result is read; a
// credential not checked, checked valid, or revoked after it was exposed
// (it may have been used in between) is not unusable.
func unusableSecret(d *doc) bool {
	if exampleCredentialRe.MatchString(d.text) {
		return true
	}
	for _, s := range d.strs(secretValidityKeys...) {
		v := strings.ToLower(s)
		if strings.Contains(v, "not valid") || strings.Contains(v, "not a valid") || strings.Contains(v, "invalidclienttokenid") {
			return true
		}
		switch strings.TrimSpace(v) {
		case "invalid", "inactive":
			return true
		}
	}
	return false
}
