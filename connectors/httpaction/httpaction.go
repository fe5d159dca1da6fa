// Package httpaction performs the generic http_request action: one JSON
// request to a host an admin listed in the outbound setting's
// http_request_hosts, with an optional credential taken from a configured
// http_credential connector, no redirect to another host, and bounded
// answer size and time.
package httpaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/outbound"
)

// Defaults for Executor's bounds.
const (
	DefaultTimeout     = 15 * time.Second
	DefaultMaxResponse = 1 << 20
)

// Credential is a secret header a request may carry, and the hosts it may
// be sent to (any listed http_request host when empty).
type Credential struct {
	Header string
	Value  string
	Hosts  []string
}

// Executor performs http_request actions; it implements
// connectors.HTTPRequester.
type Executor struct {
	// Policy returns the current outbound policy.
	Policy func(ctx context.Context) outbound.Policy
	// Credential resolves a credential by connector id; nil refuses any
	// request that names one.
	Credential func(ctx context.Context, id string) (Credential, error)
	// Timeout bounds one request including reading the answer.
	Timeout time.Duration
	// MaxResponse bounds the answer's size in bytes.
	MaxResponse int64
}

var _ connectors.HTTPRequester = (*Executor)(nil)

// forbiddenHeaders may not be written in a playbook: credentials come from
// sealed connector secrets, and the transport owns the rest.
var forbiddenHeaders = map[string]bool{
	"authorization": true, "proxy-authorization": true, "cookie": true, "host": true,
	"content-length": true, "transfer-encoding": true, "connection": true,
}

// request is one http_request's validated parameters.
type request struct {
	method     string
	target     *url.URL
	headers    http.Header
	body       map[string]any
	credential string
	expected   int
	output     map[string]string
}

// Request performs one http_request; key goes out as the Idempotency-Key
// header so a receiver that supports it can drop a retried call.
func (e *Executor) Request(ctx context.Context, key string, params map[string]any) (connectors.Result, error) {
	req, err := parse(params)
	if err != nil {
		return connectors.Result{}, connectors.Permanent(err)
	}
	policy := e.Policy(ctx)
	if !policy.RequestHostAllowed(req.target.Host) {
		return connectors.Result{}, connectors.Permanentf(
			"host %s is not listed in setting outbound.http_request_hosts", req.target.Host)
	}
	if err := policy.CheckURL(req.target.String()); err != nil {
		return connectors.Result{}, connectors.Permanent(err)
	}
	httpReq, err := e.build(ctx, key, req)
	if err != nil {
		return connectors.Result{}, err
	}
	client := policy.Client(e.timeout())
	client.CheckRedirect = sameHost(req.target, policy)
	resp, err := client.Do(httpReq)
	if err != nil {
		return connectors.Result{}, describeFailure(req, err)
	}
	defer resp.Body.Close()
	return e.answer(req, resp)
}

func (e *Executor) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return DefaultTimeout
}

func (e *Executor) maxResponse() int64 {
	if e.MaxResponse > 0 {
		return e.MaxResponse
	}
	return DefaultMaxResponse
}

// build makes the HTTP request, with the credential's header when named.
func (e *Executor) build(ctx context.Context, key string, req request) (*http.Request, error) {
	var body io.Reader
	if req.body != nil {
		b, err := json.Marshal(req.body)
		if err != nil {
			return nil, connectors.Permanentf("body cannot be encoded as JSON: %v", err)
		}
		body = bytes.NewReader(b)
	}
	httpReq, err := http.NewRequestWithContext(ctx, req.method, req.target.String(), body)
	if err != nil {
		return nil, connectors.Permanentf("cannot build request: %v", err)
	}
	httpReq.Header = req.headers
	httpReq.Header.Set("Idempotency-Key", key)
	httpReq.Header.Set("Accept", "application/json")
	if body != nil {
		httpReq.Header.Set("Content-Type", "application/json")
	}
	if req.credential == "" {
		return httpReq, nil
	}
	if e.Credential == nil {
		return nil, connectors.Permanentf("credential %q cannot be resolved: no credentials are configured", req.credential)
	}
	cred, err := e.Credential(ctx, req.credential)
	if err != nil {
		return nil, err
	}
	if len(cred.Hosts) > 0 && !(outbound.Policy{HTTPRequestHosts: cred.Hosts}).RequestHostAllowed(req.target.Host) {
		return nil, connectors.Permanentf("credential %q may not be sent to %s", req.credential, req.target.Host)
	}
	httpReq.Header.Set(cred.Header, cred.Value)
	return httpReq, nil
}

// sameHost refuses a redirect that leaves the original scheme and host, so
// a listed host cannot bounce the request (and its credential) elsewhere.
func sameHost(original *url.URL, policy outbound.Policy) func(*http.Request, []*http.Request) error {
	return func(next *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return outbound.Refusedf("too many redirects")
		}
		if !strings.EqualFold(next.URL.Host, original.Host) || next.URL.Scheme != original.Scheme {
			return outbound.Refusedf("redirect to %s://%s refused: only redirects within %s are followed",
				next.URL.Scheme, next.URL.Host, original.Host)
		}
		return policy.CheckURL(next.URL.String())
	}
}

// describeFailure words a transport failure without the URL's query,
// which may carry tokens. Policy refusals (internal address, redirect)
// are permanent; a timeout or refused connection may pass.
func describeFailure(req request, err error) error {
	msg := err.Error()
	var uerr *url.Error
	if errors.As(err, &uerr) {
		msg = uerr.Err.Error()
	}
	where := req.method + " " + req.target.Scheme + "://" + req.target.Host + req.target.Path
	if errors.Is(err, outbound.ErrRefused) {
		return connectors.Permanentf("%s: %s", where, msg)
	}
	return fmt.Errorf("%s: %s", where, msg)
}

// answer checks the status, reads a bounded body and maps the output.
func (e *Executor) answer(req request, resp *http.Response) (connectors.Result, error) {
	limit := e.maxResponse()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return connectors.Result{}, fmt.Errorf("read answer: %w", err)
	}
	if int64(len(raw)) > limit {
		return connectors.Result{}, connectors.Permanentf("answer larger than %d bytes", limit)
	}
	where := req.method + " " + req.target.Host + req.target.Path
	if !statusAccepted(req.expected, resp.StatusCode) {
		err := fmt.Errorf("%s answered %d, expected %s", where, resp.StatusCode, expectation(req.expected))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return connectors.Result{}, err
		}
		return connectors.Result{}, connectors.Permanent(err)
	}
	out := map[string]any{"status_code": resp.StatusCode}
	if len(req.output) > 0 {
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return connectors.Result{}, connectors.Permanentf("%s answered with a body that is not JSON; output cannot be mapped", where)
		}
		for name, path := range req.output {
			out[name] = lookup(doc, path)
		}
	}
	return connectors.Result{Success: true, Message: fmt.Sprintf("%s answered %d", where, resp.StatusCode), Output: out}, nil
}

func statusAccepted(expected, got int) bool {
	if expected == 0 {
		return got >= 200 && got < 300
	}
	return got == expected
}

func expectation(expected int) string {
	if expected == 0 {
		return "2xx"
	}
	return fmt.Sprint(expected)
}
