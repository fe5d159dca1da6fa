package vendortest

import (
	"encoding/json"
	"mime"
	"net/http"
)

// MicrosoftToken answers the Microsoft identity platform's v2.0 token
// endpoint (/{tenant}/oauth2/v2.0/token) for the client-credentials grant
// as Microsoft documents it: a form POST with grant_type, scope and the
// client's id and secret (in the form or, client_secret_basic, in an
// Authorization header); AADSTS errors in the documented shape otherwise.
type MicrosoftToken struct {
	Tenant string
	// Scope is the one resource scope accepted (".../.default").
	Scope string
	// Secrets maps each known client id to its secret.
	Secrets map[string]string
	// Tokens maps each client id to the access token it receives.
	Tokens map[string]string
}

// Serve answers one token request.
func (m MicrosoftToken) Serve(w http.ResponseWriter, r *http.Request) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if r.Method != http.MethodPost || ct != "application/x-www-form-urlencoded" || r.ParseForm() != nil ||
		r.URL.Path != "/"+m.Tenant+"/oauth2/v2.0/token" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_request", "error_description": "AADSTS900144: malformed request"})
		return
	}
	f := r.PostForm
	if f.Get("grant_type") != "client_credentials" || f.Get("scope") != m.Scope {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_scope",
			"error_description": "AADSTS70011: The provided value for the input parameter 'scope' is not valid."})
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = f.Get("client_id"), f.Get("client_secret")
	}
	if want, known := m.Secrets[id]; !known || secret != want {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_client",
			"error_description": "AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.",
			"error_codes":       []int{7000215}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"token_type": "Bearer", "expires_in": 3599, "ext_expires_in": 3599, "access_token": m.Tokens[id]})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
