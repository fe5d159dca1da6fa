package triage

import (
	"regexp"
	"strings"
)

// workloadSignIn reports a sign-in by an application rather than a person
// (an Entra service principal or managed identity, a cloud workload
// identity), and how many countries the payload's workload sign-ins come
// from. Workloads run where they are deployed and do not travel: one
// credential used from two countries is one credential in two hands.
func workloadSignIn(d *doc) (workload bool, countries int) {
	kinds := normKey(lowerJoin(d.strs("signineventtypes", "category", "signineventtype")))
	// Entra files servicePrincipalId as "" on every user sign-in, so only a
	// value names a workload, and a sign-in typed as a user's is not one.
	workload = d.str("serviceprincipalid", "serviceprincipalname", "managedidentityid") != "" && !containsAnyTerm(kinds, "interactiveuser") ||
		containsAnyTerm(kinds, "serviceprincipal", "managedidentity", "workloadidentity")
	if !workload {
		return false, 0
	}
	seen := map[string]bool{}
	for _, c := range d.strs("countryorregion", "countrycode", "country") {
		if c = strings.ToUpper(strings.TrimSpace(c)); c != "" {
			seen[c] = true
		}
	}
	return true, len(seen)
}

// workloadSecret reports a workload that proved itself with a shared
// secret, which can be copied, rather than a certificate or a federated
// credential bound to where it runs.
func workloadSecret(d *doc) bool {
	return normKey(d.str("clientcredentialtype", "credentialtype")) == "clientsecret"
}

// newCredentialRe finds a statement that the credential in use was added
// recently: "new client secret", "credential key ... added <date>",
// "certificate was uploaded yesterday".
var newCredentialRe = regexp.MustCompile(`\b(new|newly (added|created|generated)|recently (added|created)|fresh)\s+(client\s+)?(secret|credential|certificate|key|password)s?\b|\b(secret|credential|certificate|key|password)s?\b[^.\n]{0,60}\b(was |were )?(added|created|generated|uploaded|registered)\b`)

// workloadNewCredential reports a workload sign-in with a credential the
// payload calls new, or whose age it gives as under a week.
func workloadNewCredential(d *doc) bool {
	if n, ok := d.number("credentialagedays", "secretagedays", "keyagedays", "credentialage"); ok && n >= 0 && n < 7 {
		return true
	}
	if v, ok := d.boolean("newcredential", "isnewcredential", "credentialrecentlyadded"); ok {
		return v
	}
	return newCredentialRe.MatchString(d.text)
}
