// Package vendorhttp is the HTTP plumbing every vendor connector shares:
// JSON requests against a base URL, an authentication hook, a bounded
// number of attempts that honour Retry-After on 429 and 503, a cap on the
// answer's size, and vendor errors mapped to plain-word kinds (ErrAuth,
// ErrPermission, ...) and to permanent or retryable, so a wrong credential
// fails at once instead of retrying for hours.
package vendorhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/outbound"
)

// Client calls one vendor API.
type Client struct {
	// Vendor names the product in error messages ("CrowdStrike Falcon").
	Vendor string
	// BaseURL is prefixed to every request path.
	BaseURL string
	// HTTP is the client from connectors.Config (outbound policy, timeout).
	HTTP *http.Client
	// Auth, when set, adds credentials to each attempt (for example
	// BearerFrom(tokenSource)); its errors are returned as they are.
	Auth func(ctx context.Context, req *http.Request) error
	// Attempts bounds the tries per call (default 3).
	Attempts int
	// MaxWait is the longest wait honoured inside one call (default 20 s);
	// a vendor asking for more gets a retryable error carrying RetryAfter,
	// and the workflow engine's retry policy waits instead.
	MaxWait time.Duration
	// MaxBody caps the answer read (default 4 MiB).
	MaxBody int64
}

// Request is one API call.
type Request struct {
	Method string
	// Path is appended to BaseURL; it may carry its own query string.
	Path   string
	Query  url.Values
	Header http.Header
	// Body is sent as JSON, unless it is url.Values (sent as a form) or
	// []byte (sent as it is, with the Content-Type from Header).
	Body any
	// Out, when set, receives the JSON answer of a successful call.
	Out any
}

// Response is a successful call's answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do performs r, retrying 408, 425, 429, 5xx and network failures up to
// Attempts times with backoff (Retry-After when the vendor sends one). A
// status outside 2xx becomes an *Error.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	body, contentType, err := encodeBody(r.Body)
	if err != nil {
		return nil, &Error{Vendor: c.Vendor, Kind: ErrVendor, Detail: err.Error(), Permanent: true}
	}
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = 3
	}
	var last *Error
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 {
			wait := backoff(attempt, last.RetryAfter)
			if wait > c.maxWait() {
				return nil, last
			}
			select {
			case <-ctx.Done():
				return nil, last
			case <-time.After(wait):
			}
		}
		resp, err := c.once(ctx, r, body, contentType)
		if err == nil {
			return resp, nil
		}
		var ve *Error
		if !errors.As(err, &ve) || ve.Permanent {
			return nil, err
		}
		last = ve
	}
	return nil, last
}

func (c *Client) maxWait() time.Duration {
	if c.MaxWait > 0 {
		return c.MaxWait
	}
	return 20 * time.Second
}

// once performs a single attempt.
func (c *Client) once(ctx context.Context, r Request, body []byte, contentType string) (*Response, error) {
	target := strings.TrimSuffix(c.BaseURL, "/") + r.Path
	if len(r.Query) > 0 {
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		target += sep + r.Query.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, target, rd)
	if err != nil {
		return nil, &Error{Vendor: c.Vendor, Kind: ErrVendor, Detail: "bad request URL", Permanent: true}
	}
	for k, vs := range r.Header {
		req.Header[k] = vs
	}
	if contentType != "" && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", contentType)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	if c.Auth != nil {
		if err := c.Auth(ctx, req); err != nil {
			return nil, err
		}
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		// A call the outbound policy refuses is refused on every try.
		return nil, &Error{Vendor: c.Vendor, Kind: ErrNetwork, Detail: networkDetail(err),
			Permanent: errors.Is(err, outbound.ErrRefused)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody()+1))
	if err != nil {
		return nil, &Error{Vendor: c.Vendor, Kind: ErrNetwork, Detail: "answer cut off"}
	}
	if int64(len(data)) > c.maxBody() {
		return nil, &Error{Vendor: c.Vendor, Status: resp.StatusCode, Kind: ErrVendor,
			Detail: fmt.Sprintf("answer larger than %d bytes", c.maxBody()), Permanent: true}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		kind, permanent := classify(resp.StatusCode)
		return nil, &Error{Vendor: c.Vendor, Status: resp.StatusCode, Kind: kind, Permanent: permanent,
			Detail: vendorMessage(data), RetryAfter: retryAfter(resp.Header)}
	}
	if r.Out != nil && len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, r.Out); err != nil {
			return nil, &Error{Vendor: c.Vendor, Status: resp.StatusCode, Kind: ErrVendor,
				Detail: "answer is not the JSON expected", Permanent: true}
		}
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

func (c *Client) maxBody() int64 {
	if c.MaxBody > 0 {
		return c.MaxBody
	}
	return 4 << 20
}

// encodeBody renders a request body and its content type.
func encodeBody(b any) ([]byte, string, error) {
	switch v := b.(type) {
	case nil:
		return nil, "", nil
	case []byte:
		return v, "", nil
	case url.Values:
		return []byte(v.Encode()), "application/x-www-form-urlencoded", nil
	default:
		data, err := json.Marshal(v)
		if err != nil {
			return nil, "", fmt.Errorf("encode request: %w", err)
		}
		return data, "application/json", nil
	}
}

// backoff is the wait before attempt n (1-based retries): the vendor's
// Retry-After when given, else 500 ms doubled per retry.
func backoff(n int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	return 500 * time.Millisecond << (n - 1)
}

// retryAfter is the wait an answer asks for: Retry-After (delay seconds or
// an HTTP date), else the epoch-second reset time some vendors send instead
// (CrowdStrike's X-RateLimit-RetryAfter, Okta's X-Rate-Limit-Reset).
func retryAfter(h http.Header) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s >= 0 {
			return time.Duration(s) * time.Second
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(time.Until(t), 0)
		}
	}
	for _, name := range []string{"X-RateLimit-RetryAfter", "X-Rate-Limit-Reset"} {
		if s, err := strconv.ParseInt(strings.TrimSpace(h.Get(name)), 10, 64); err == nil && s > 0 {
			return max(time.Until(time.Unix(s, 0)), 0)
		}
	}
	return 0
}

// vendorMessage extracts a short human message from an error body: the
// common JSON shapes ("message", "error", "error_description", "errors"[0],
// "error.message") or the start of the text.
func vendorMessage(body []byte) string {
	var v map[string]any
	if json.Unmarshal(body, &v) == nil {
		for _, k := range []string{"message", "error_description", "detail", "errorSummary", "error"} {
			switch m := v[k].(type) {
			case string:
				return clip(m)
			case map[string]any:
				if s, ok := m["message"].(string); ok {
					return clip(s)
				}
			}
		}
		if errs, ok := v["errors"].([]any); ok && len(errs) > 0 {
			if m, ok := errs[0].(map[string]any); ok {
				for _, k := range []string{"message", "detail", "title"} {
					if s, ok := m[k].(string); ok {
						return clip(s)
					}
				}
			}
		}
		return ""
	}
	return clip(string(body))
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// networkDetail names a transport failure without echoing the URL, whose
// query string could hold a vendor key.
func networkDetail(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	return err.Error()
}
