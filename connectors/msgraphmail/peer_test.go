package msgraphmail_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-soc/vigil/connectors/vendortest"
)

// peer plays the Microsoft identity platform's token endpoint and the
// Graph mail endpoints Vigil uses, as documented: client-credentials
// tokens for the .default scope, bearer tokens on Graph, OData $filter on
// internetMessageId and displayName, move answering the moved message
// under a new id, inbox messageRules, and Graph's {"error":{code,message}}
// bodies.
type peer struct {
	*httptest.Server

	mu        sync.Mutex
	boxes     map[string]*mailbox
	calls     map[string]int
	nextID    int
	throttled int
}

type mailbox struct {
	folders  map[string]string // id -> display name
	messages []*message
	rules    map[string]map[string]any
}

type message struct{ id, internetID, folder string }

const (
	tenant        = "72f988bf-86f1-41af-91ab-2d7cd011db47"
	goodClient    = "6731de76-14a6-49ae-97bc-6eba6914391e"
	readOnlyApp   = "0c9d3f43-read-only-app"
	goodSecret    = "graph-client-secret"
	fullToken     = "eyJ0eXAi.full"
	readOnlyToken = "eyJ0eXAi.readonly"
)

var (
	filterIMID = regexp.MustCompile(`^internetMessageId eq '((?:[^']|'')*)'$`)
	filterName = regexp.MustCompile(`^displayName eq '((?:[^']|'')*)'$`)
	userRoute  = regexp.MustCompile(`^/v1.0/users/([^/]+)(/.*)$`)
)

func newPeer(t *testing.T, upns ...string) *peer {
	p := &peer{boxes: map[string]*mailbox{}, calls: map[string]int{}}
	for _, u := range upns {
		p.boxes[u] = &mailbox{folders: map[string]string{"inbox-" + u: "Inbox"}, rules: map[string]map[string]any{}}
	}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

// deliver puts a message with Internet message id imid in upn's inbox.
func (p *peer) deliver(upn, imid string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	p.boxes[upn].messages = append(p.boxes[upn].messages, &message{id: fmt.Sprintf("AAMkAG%d=", p.nextID), internetID: imid, folder: "inbox-" + upn})
}

// folderOf names the folder holding upn's copy of imid.
func (p *peer) folderOf(upn, imid string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.boxes[upn]
	for _, m := range b.messages {
		if m.internetID == imid {
			return b.folders[m.folder]
		}
	}
	return ""
}

func (p *peer) count(call string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[call]
}

func graphError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.URL.Path == "/"+tenant+"/oauth2/v2.0/token" {
		p.token(w, r)
		return
	}
	if p.throttled > 0 {
		p.throttled--
		w.Header().Set("Retry-After", "1")
		graphError(w, http.StatusTooManyRequests, "ApplicationThrottled", "Application is over its MailboxConcurrency limit.")
		return
	}
	auth := r.Header.Get("Authorization")
	if auth != "Bearer "+fullToken && auth != "Bearer "+readOnlyToken {
		graphError(w, http.StatusUnauthorized, "InvalidAuthenticationToken", "Access token is empty.")
		return
	}
	m := userRoute.FindStringSubmatch(r.URL.Path)
	if m == nil {
		graphError(w, http.StatusBadRequest, "BadRequest", "Resource not found for the segment.")
		return
	}
	box, ok := p.boxes[m[1]]
	if !ok {
		graphError(w, http.StatusNotFound, "ErrorInvalidUser", "The requested user '"+m[1]+"' is invalid.")
		return
	}
	route := r.Method + " " + routeName(m[2])
	p.calls[route]++
	if r.Method != "GET" && auth == "Bearer "+readOnlyToken {
		graphError(w, http.StatusForbidden, "ErrorAccessDenied", "Access is denied. Check credentials and try again.")
		return
	}
	p.route(w, r, m[1], box, route, m[2])
}

// routeName replaces ids in a path with placeholders.
func routeName(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) > 2 && (parts[1] == "messages" && len(parts) > 3) {
		parts[2] = "{id}"
	}
	if len(parts) > 4 && parts[3] == "messageRules" {
		parts[4] = "{id}"
	}
	return strings.Join(parts, "/")
}

func (p *peer) route(w http.ResponseWriter, r *http.Request, upn string, box *mailbox, route, path string) {
	q := r.URL.Query()
	switch route {
	case "GET /mailFolders/inbox":
		reply(w, 200, map[string]any{"id": "inbox-" + upn, "displayName": "Inbox"})
	case "GET /messages":
		f := filterIMID.FindStringSubmatch(q.Get("$filter"))
		if f == nil {
			graphError(w, 400, "BadRequest", "Invalid filter clause")
			return
		}
		imid := strings.ReplaceAll(f[1], "''", "'")
		out := []any{}
		for _, msg := range box.messages {
			if msg.internetID == imid {
				out = append(out, map[string]any{"id": msg.id, "parentFolderId": msg.folder})
			}
		}
		reply(w, 200, map[string]any{"value": out})
	case "GET /mailFolders":
		f := filterName.FindStringSubmatch(q.Get("$filter"))
		if f == nil {
			graphError(w, 400, "BadRequest", "Invalid filter clause")
			return
		}
		out := []any{}
		for id, name := range box.folders {
			if name == strings.ReplaceAll(f[1], "''", "'") {
				out = append(out, map[string]any{"id": id, "displayName": name})
			}
		}
		reply(w, 200, map[string]any{"value": out})
	case "POST /mailFolders":
		var body struct {
			DisplayName string `json:"displayName"`
		}
		if json.NewDecoder(r.Body).Decode(&body) != nil || body.DisplayName == "" {
			graphError(w, 400, "ErrorInvalidRequest", "displayName is required")
			return
		}
		for _, name := range box.folders {
			if name == body.DisplayName {
				graphError(w, 409, "ErrorFolderExists", "A folder with the specified name already exists.")
				return
			}
		}
		p.nextID++
		id := fmt.Sprintf("AAMkFolder%d=", p.nextID)
		box.folders[id] = body.DisplayName
		reply(w, 201, map[string]any{"id": id, "displayName": body.DisplayName})
	case "POST /messages/{id}/move":
		p.move(w, r, upn, box, strings.Split(path, "/")[2])
	case "GET /mailFolders/inbox/messageRules":
		out := []any{}
		for _, rule := range box.rules {
			out = append(out, rule)
		}
		reply(w, 200, map[string]any{"value": out})
	case "POST /mailFolders/inbox/messageRules":
		var rule map[string]any
		if json.NewDecoder(r.Body).Decode(&rule) != nil || rule["displayName"] == nil || rule["sequence"] == nil ||
			rule["conditions"] == nil || rule["actions"] == nil {
			graphError(w, 400, "ErrorInvalidRequest", "displayName, sequence, conditions and actions are required")
			return
		}
		p.nextID++
		rule["id"] = fmt.Sprintf("AQAAAJ5dZq%d=", p.nextID)
		box.rules[rule["id"].(string)] = rule
		reply(w, 201, rule)
	case "DELETE /mailFolders/inbox/messageRules/{id}":
		id := strings.Split(path, "/")[4]
		if _, ok := box.rules[id]; !ok {
			graphError(w, 404, "ErrorItemNotFound", "The specified object was not found in the store.")
			return
		}
		delete(box.rules, id)
		w.WriteHeader(http.StatusNoContent)
	default:
		graphError(w, 400, "BadRequest", "Unsupported request "+route)
	}
}

func (p *peer) move(w http.ResponseWriter, r *http.Request, upn string, box *mailbox, id string) {
	var body struct {
		DestinationID string `json:"destinationId"`
	}
	if json.NewDecoder(r.Body).Decode(&body) != nil || body.DestinationID == "" {
		graphError(w, 400, "ErrorInvalidRequest", "destinationId is required")
		return
	}
	dest := body.DestinationID
	if dest == "inbox" {
		dest = "inbox-" + upn
	}
	if _, ok := box.folders[dest]; !ok {
		graphError(w, 404, "ErrorItemNotFound", "The specified folder could not be found in the store.")
		return
	}
	for _, msg := range box.messages {
		if msg.id == id {
			p.nextID++
			msg.id, msg.folder = fmt.Sprintf("AAMkAG%d=", p.nextID), dest
			reply(w, 201, map[string]any{"id": msg.id, "parentFolderId": dest, "internetMessageId": msg.internetID})
			return
		}
	}
	graphError(w, 404, "ErrorItemNotFound", "The specified object was not found in the store.")
}

func (p *peer) token(w http.ResponseWriter, r *http.Request) {
	vendortest.MicrosoftToken{Tenant: tenant, Scope: "https://graph.microsoft.com/.default",
		Secrets: map[string]string{goodClient: goodSecret, readOnlyApp: goodSecret},
		Tokens:  map[string]string{goodClient: fullToken, readOnlyApp: readOnlyToken}}.Serve(w, r)
}
