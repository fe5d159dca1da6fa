package httpaction_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/httpaction"
	"github.com/vigil-soc/vigil/outbound"
)

// peer is a local service that records what it received.
type peer struct {
	*httptest.Server
	hits   atomic.Int32
	header http.Header
	body   map[string]any
}

func newPeer(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) *peer {
	p := &peer{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.hits.Add(1)
		p.header = r.Header.Clone()
		p.body = nil
		_ = json.NewDecoder(r.Body).Decode(&p.body)
		h(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *peer) host() string { u, _ := url.Parse(p.URL); return u.Host }

// executor allows the peer's address as an internal host (allow_hosts) and
// lists requestHosts for http_request.
func executor(allowInternal []string, requestHosts ...string) *httpaction.Executor {
	pol := outbound.Policy{AllowHTTP: true, AllowHosts: allowInternal, HTTPRequestHosts: requestHosts}
	return &httpaction.Executor{
		Policy: func(context.Context) outbound.Policy { return pol },
		Credential: func(_ context.Context, id string) (httpaction.Credential, error) {
			if id != "ticket-api" {
				return httpaction.Credential{}, connectors.Permanentf("no credential %q", id)
			}
			return httpaction.Credential{Header: "X-Api-Key", Value: "s3cret"}, nil
		},
	}
}

// run validates params like Set.Execute does, then performs the request.
func run(t *testing.T, e *httpaction.Executor, params map[string]any) (connectors.Result, error) {
	t.Helper()
	set := connectors.Set{HTTP: e}
	return set.Execute(context.Background(), actions.HTTPRequest, "action-1", params)
}

func TestRequestSendsTemplateAndMapsOutput(t *testing.T) {
	p := newPeer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/tickets" {
			http.Error(w, "wrong route", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"data":{"id":"T-7","links":[{"href":"https://t.example/T-7"}]}}`))
	})
	res, err := run(t, executor([]string{"127.0.0.1"}, p.host()), map[string]any{
		"url": p.URL + "/api/tickets", "headers": map[string]any{"X-Team": "soc"},
		"body": map[string]any{"title": "Contain host"}, "credential": "ticket-api", "expected_status": float64(201),
		"output": map[string]any{"ticket": "data.id", "link": "data.links.0.href", "missing": "data.nope"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output["ticket"] != "T-7" || res.Output["link"] != "https://t.example/T-7" || res.Output["missing"] != nil ||
		res.Output["status_code"] != 201 {
		t.Fatalf("output %+v", res.Output)
	}
	if p.header.Get("X-Api-Key") != "s3cret" || p.header.Get("X-Team") != "soc" ||
		p.header.Get("Idempotency-Key") != "action-1" || p.body["title"] != "Contain host" {
		t.Fatalf("peer saw headers %v body %v", p.header, p.body)
	}
	if strings.Contains(res.Message, "s3cret") {
		t.Fatal("secret in result")
	}
}

func TestRequestRefusesUnlistedHost(t *testing.T) {
	p := newPeer(t, func(w http.ResponseWriter, _ *http.Request) {})
	_, err := run(t, executor([]string{"127.0.0.1"}, "api.example.com"), map[string]any{"url": p.URL + "/x"})
	mustPermanent(t, err, "not listed in setting outbound.http_request_hosts")
	if p.hits.Load() != 0 {
		t.Fatal("unlisted host was called")
	}
	// Deny by default: an empty list refuses every host.
	_, err = run(t, executor([]string{"127.0.0.1"}), map[string]any{"url": p.URL + "/x"})
	mustPermanent(t, err, "not listed")
}

func TestRequestRefusesRedirectToAnotherHost(t *testing.T) {
	other := newPeer(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	// "localhost" and "127.0.0.1" are different hosts for the policy.
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	p := newPeer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+"/stolen", http.StatusFound)
	})
	_, err := run(t, executor([]string{"127.0.0.1", "localhost"}, p.host(), strings.TrimPrefix(otherURL, "http://")),
		map[string]any{"url": p.URL + "/start", "credential": "ticket-api"})
	mustPermanent(t, err, "redirect to http://localhost")
	if other.hits.Load() != 0 {
		t.Fatal("redirect target was called")
	}
}

func TestRequestFollowsRedirectOnSameHost(t *testing.T) {
	p := newPeer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	res, err := run(t, executor([]string{"127.0.0.1"}, p.host()),
		map[string]any{"method": "GET", "url": p.URL + "/old", "output": map[string]any{"ok": "ok"}})
	if err != nil || res.Output["ok"] != true {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestRequestRefusesInternalAddressUnlessAllowed(t *testing.T) {
	for _, addr := range []string{"10.0.0.8", "169.254.10.1", "127.0.0.1"} {
		_, err := run(t, executor(nil, addr), map[string]any{"url": "http://" + addr + "/hook"})
		mustPermanent(t, err, "is internal")
	}
	_, err := run(t, executor(nil, "169.254.169.254"), map[string]any{"url": "http://169.254.169.254/latest/meta-data"})
	mustPermanent(t, err, "metadata endpoint")
	// Listing the peer in allow_hosts as well lets the call through.
	p := newPeer(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	if _, err := run(t, executor([]string{"127.0.0.1"}, p.host()), map[string]any{"url": p.URL}); err != nil {
		t.Fatal(err)
	}
}

func TestRequestBoundsAndStatus(t *testing.T) {
	big := newPeer(t, func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("x", 2048)))
	})
	e := executor([]string{"127.0.0.1"}, big.host())
	e.MaxResponse = 1024
	_, err := run(t, e, map[string]any{"url": big.URL})
	mustPermanent(t, err, "larger than 1024 bytes")

	status := http.StatusBadRequest
	p := newPeer(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) })
	_, err = run(t, executor([]string{"127.0.0.1"}, p.host()), map[string]any{"url": p.URL})
	mustPermanent(t, err, "answered 400, expected 2xx")
	status = http.StatusServiceUnavailable
	_, err = run(t, executor([]string{"127.0.0.1"}, p.host()), map[string]any{"url": p.URL})
	if err == nil || errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("503 should be retryable, got %v", err)
	}
}

func TestRequestRefusesCredentialsInPlaybook(t *testing.T) {
	_, err := run(t, executor(nil, "api.example.com"), map[string]any{
		"url": "https://api.example.com/x", "headers": map[string]any{"Authorization": "Bearer t"}})
	mustPermanent(t, err, "may not be set in a playbook")
	_, err = run(t, executor(nil, "api.example.com"), map[string]any{"url": "https://user:pw@api.example.com/x"})
	mustPermanent(t, err, "may not carry credentials")
}

func mustPermanent(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want a permanent error containing %q", err, want)
	}
}

// TestCredentialStaysOnItsHosts: an http_credential limited to some hosts
// is not sent anywhere else, and its header and prefix come from settings.
func TestCredentialStaysOnItsHosts(t *testing.T) {
	cred := httpaction.CredentialFrom(connectors.Config{
		Settings: map[string]string{"header": "X-Auth", "prefix": "Token ", "hosts": "itsm.corp.example, other.example"},
		Secrets:  map[string]string{"value": "abc"}})
	if cred.Header != "X-Auth" || cred.Value != "Token abc" || len(cred.Hosts) != 2 {
		t.Fatalf("credential %+v", cred)
	}
	p := newPeer(t, func(w http.ResponseWriter, _ *http.Request) {})
	e := executor([]string{"127.0.0.1"}, p.host())
	e.Credential = func(context.Context, string) (httpaction.Credential, error) { return cred, nil }
	_, err := run(t, e, map[string]any{"url": p.URL, "credential": "itsm"})
	mustPermanent(t, err, "may not be sent to")
	if p.hits.Load() != 0 {
		t.Fatal("credential was sent to a host it is not for")
	}
}
