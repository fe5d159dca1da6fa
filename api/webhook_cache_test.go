package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// Sources are cached for the intake; a rotation or removal through the
// API still applies to the very next alert.
func TestWebhookRotationAndRemovalApplyAtOnce(t *testing.T) {
	name := "rot-" + randomSuffix()
	old := registerSource(t, name, nil)
	alert := func() string { return strings.Replace(edrAlert, "%s", randomSuffix(), 1) }
	expectStatus(t, deliver(t, name, old, alert(), time.Now()), http.StatusCreated) // now cached

	fresh := "whsec-" + randomSuffix() + "-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleManager), map[string]any{"source": name, "secret": fresh})
	expectStatus(t, r, http.StatusOK)
	expectStatus(t, deliver(t, name, old, alert(), time.Now()), http.StatusUnauthorized)
	expectStatus(t, deliver(t, name, fresh, alert(), time.Now()), http.StatusCreated)

	// So does a rotation of the secret alone.
	rot := call(t, http.MethodPost, "/api/webhooks/"+name+"/rotate-secret", keyFor(t, store.RoleManager), nil)
	expectStatus(t, rot, http.StatusOK)
	expectStatus(t, deliver(t, name, fresh, alert(), time.Now()), http.StatusUnauthorized)
	fresh = rot.data()["secret"].(string)
	expectStatus(t, deliver(t, name, fresh, alert(), time.Now()), http.StatusCreated)

	expectStatus(t, call(t, http.MethodDelete, "/api/webhooks/"+name, keyFor(t, store.RoleManager), nil), http.StatusNoContent)
	expectStatus(t, deliver(t, name, fresh, alert(), time.Now()), http.StatusNotFound)

	// Registered again: the cached absence is forgotten too.
	again := registerSource(t, name, nil)
	expectStatus(t, deliver(t, name, again, alert(), time.Now()), http.StatusCreated)
}
