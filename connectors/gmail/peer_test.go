package gmail_test

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// peer plays Google's OAuth token endpoint for the JWT bearer grant and
// the Gmail API v1 endpoints Vigil uses, as documented: the assertion must
// be an RS256 JWT signed by the service account's key, issued by its
// client_email, for the token endpoint, with the impersonated user as sub
// and scopes that domain-wide delegation grants; Gmail checks the bearer
// token and answers with its message, filter and error shapes.
type peer struct {
	*httptest.Server

	mu        sync.Mutex
	pub       *rsa.PublicKey
	email     string
	granted   []string // scopes granted by domain-wide delegation
	users     map[string]*box
	tokens    map[string]string // access token -> user
	calls     map[string]int
	nextID    int
	throttled int

	tokenRequests int
}

type box struct {
	messages []*message
	filters  map[string]map[string]any
}

type message struct {
	id, messageID string
	labels        []string
}

var messagePath = regexp.MustCompile(`^/gmail/v1/users/me/(messages|settings/filters)(?:/([^/]+))?(?:/(trash|untrash))?$`)

const saEmail = "vigil-mail@vigil-prod.iam.gserviceaccount.com"

// newKey returns a fresh RSA key and the JSON key file of a service
// account holding it.
func newKey(t *testing.T, tokenURL string) (*rsa.PrivateKey, string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	file, _ := json.Marshal(map[string]string{"type": "service_account", "project_id": "vigil-prod",
		"private_key_id": "3f1c0b", "private_key": string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": saEmail, "client_id": "1040000000000", "token_uri": tokenURL})
	return k, string(file)
}

func newPeer(t *testing.T, users ...string) (*peer, string) {
	p := &peer{email: saEmail, users: map[string]*box{}, tokens: map[string]string{}, calls: map[string]int{},
		granted: []string{"https://www.googleapis.com/auth/gmail.modify", "https://www.googleapis.com/auth/gmail.settings.basic"}}
	for _, u := range users {
		p.users[u] = &box{filters: map[string]map[string]any{}}
	}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	k, file := newKey(t, p.URL+"/token")
	p.pub = &k.PublicKey
	return p, file
}

func (p *peer) deliver(user, messageID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	p.users[user].messages = append(p.users[user].messages,
		&message{id: fmt.Sprintf("18c%05x", p.nextID), messageID: messageID, labels: []string{"INBOX", "UNREAD"}})
}

func (p *peer) labels(user, messageID string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.users[user].messages {
		if m.messageID == messageID {
			return slices.Clone(m.labels)
		}
	}
	return nil
}

func (p *peer) count(call string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[call]
}

func googleError(w http.ResponseWriter, status int, message, reason string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": message,
		"errors": []any{map[string]string{"message": message, "domain": "global", "reason": reason}},
		"status": map[int]string{401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED"}[status]}})
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.URL.Path == "/token" {
		p.token(w, r)
		return
	}
	if p.throttled > 0 {
		p.throttled--
		w.Header().Set("Retry-After", "1")
		googleError(w, 429, "User-rate limit exceeded.", "rateLimitExceeded")
		return
	}
	user, ok := p.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	if !ok {
		googleError(w, 401, "Request had invalid authentication credentials.", "authError")
		return
	}
	b := p.users[user]
	if r.URL.Path == "/gmail/v1/users/me/profile" {
		reply(w, 200, map[string]any{"emailAddress": user, "messagesTotal": len(b.messages), "historyId": "1234"})
		return
	}
	m := messagePath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		googleError(w, 404, "Not Found", "notFound")
		return
	}
	route := r.Method + " " + m[1]
	if m[2] != "" {
		route += "/{id}"
	}
	if m[3] != "" {
		route += "/" + m[3]
	}
	p.calls[route]++
	switch route {
	case "GET messages":
		p.list(w, r, b)
	case "GET messages/{id}", "POST messages/{id}/trash", "POST messages/{id}/untrash":
		p.message(w, r, b, m[2], m[3])
	case "GET settings/filters":
		out := []any{}
		for _, f := range b.filters {
			out = append(out, f)
		}
		if len(out) == 0 {
			reply(w, 200, map[string]any{})
			return
		}
		reply(w, 200, map[string]any{"filter": out})
	case "POST settings/filters":
		var f map[string]any
		if json.NewDecoder(r.Body).Decode(&f) != nil || f["criteria"] == nil || f["action"] == nil {
			googleError(w, 400, "Filter doesn't have any criteria", "invalidArgument")
			return
		}
		for _, have := range b.filters {
			if fmt.Sprint(have["criteria"]) == fmt.Sprint(f["criteria"]) && fmt.Sprint(have["action"]) == fmt.Sprint(f["action"]) {
				googleError(w, 400, "Filter already exists", "failedPrecondition")
				return
			}
		}
		p.nextID++
		f["id"] = fmt.Sprintf("ANe1Bm%d", p.nextID)
		b.filters[f["id"].(string)] = f
		reply(w, 200, f)
	case "DELETE settings/filters/{id}":
		if _, ok := b.filters[m[2]]; !ok {
			googleError(w, 404, "Requested entity was not found.", "notFound")
			return
		}
		delete(b.filters, m[2])
		w.WriteHeader(http.StatusNoContent)
	default:
		googleError(w, 404, "Not Found", "notFound")
	}
}

func (p *peer) list(w http.ResponseWriter, r *http.Request, b *box) {
	id, ok := strings.CutPrefix(r.URL.Query().Get("q"), "rfc822msgid:")
	if !ok || r.URL.Query().Get("includeSpamTrash") != "true" {
		googleError(w, 400, "this peer expects q=rfc822msgid: and includeSpamTrash=true", "invalidArgument")
		return
	}
	out := []any{}
	for _, m := range b.messages {
		if strings.Trim(m.messageID, "<>") == id {
			out = append(out, map[string]string{"id": m.id, "threadId": m.id})
		}
	}
	if len(out) == 0 {
		reply(w, 200, map[string]any{"resultSizeEstimate": 0})
		return
	}
	reply(w, 200, map[string]any{"messages": out, "resultSizeEstimate": len(out)})
}

func (p *peer) message(w http.ResponseWriter, r *http.Request, b *box, id, op string) {
	for _, m := range b.messages {
		if m.id != id {
			continue
		}
		switch op {
		case "trash":
			m.labels = append(slices.DeleteFunc(m.labels, func(l string) bool { return l == "INBOX" || l == "TRASH" }), "TRASH")
		case "untrash":
			m.labels = append(slices.DeleteFunc(m.labels, func(l string) bool { return l == "TRASH" || l == "INBOX" }), "INBOX")
		default:
			if r.URL.Query().Get("format") != "minimal" {
				googleError(w, 400, "this peer expects format=minimal", "invalidArgument")
				return
			}
		}
		reply(w, 200, map[string]any{"id": m.id, "threadId": m.id, "labelIds": m.labels})
		return
	}
	googleError(w, 404, "Requested entity was not found.", "notFound")
}

// token implements the JWT bearer grant checks.
func (p *peer) token(w http.ResponseWriter, r *http.Request) {
	p.tokenRequests++
	_ = r.ParseForm()
	if r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		reply(w, 400, map[string]string{"error": "unsupported_grant_type", "error_description": "Invalid grant_type: " + r.PostForm.Get("grant_type")})
		return
	}
	parts := strings.Split(r.PostForm.Get("assertion"), ".")
	if len(parts) != 3 {
		reply(w, 400, map[string]string{"error": "invalid_grant", "error_description": "Invalid JWT."})
		return
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(p.pub, crypto.SHA256, sum[:], sig) != nil {
		reply(w, 400, map[string]string{"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
		return
	}
	var claims struct {
		Iss, Scope, Aud, Sub string
		Exp, Iat             int64
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	_ = json.Unmarshal(payload, &claims)
	if claims.Iss != p.email || claims.Aud != p.URL+"/token" || claims.Exp < time.Now().Unix() || claims.Exp-claims.Iat > 3600 {
		reply(w, 400, map[string]string{"error": "invalid_grant", "error_description": "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."})
		return
	}
	for _, s := range strings.Fields(claims.Scope) {
		if !slices.Contains(p.granted, s) {
			reply(w, 401, map[string]string{"error": "unauthorized_client",
				"error_description": "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested."})
			return
		}
	}
	if _, ok := p.users[claims.Sub]; !ok {
		reply(w, 400, map[string]string{"error": "invalid_grant", "error_description": "Invalid email or User ID"})
		return
	}
	p.nextID++
	tok := fmt.Sprintf("ya29.peer-%d", p.nextID)
	p.tokens[tok] = claims.Sub
	reply(w, 200, map[string]any{"access_token": tok, "expires_in": 3599, "token_type": "Bearer"})
}
