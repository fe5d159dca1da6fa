package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// APIError is the SPEC envelope an API call answered with, kept whole so
// a page can show the message next to the control that caused it.
type APIError struct {
	Status  int
	Code    string
	Message string
	Details map[string]any
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// DetailString returns one detail as text, or "".
func (e *APIError) DetailString(key string) string {
	if v, ok := e.Details[key].(string); ok {
		return v
	}
	return ""
}

// apiClient performs the dashboard's reads and writes as requests to the
// JSON API handler in this process. Each call carries the browser's own
// session cookie and, for writes, the CSRF token the browser posted, so
// the API applies role, scope, level, four-eyes and CSRF checks exactly
// as it does for any other client.
type apiClient struct {
	api http.Handler
}

// call sends one request for the browser request from and decodes the
// "data" member of the answer into out (when out is not nil).
func (a apiClient) call(from *http.Request, method, path string, body any, out any) error {
	res, err := a.send(from, method, path, body)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(res.body.Bytes(), &env); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("decode data of %s %s: %w", method, path, err)
	}
	return nil
}

// callRaw is call for answers whose top level is the value itself (paged
// lists with meta, /health).
func (a apiClient) callRaw(from *http.Request, method, path string, out any) error {
	res, err := a.send(from, method, path, nil)
	if err != nil {
		var apiErr *APIError
		// /health answers 503 with its body when a component is down.
		if !(asAPIError(err, &apiErr) && res != nil) {
			return err
		}
	}
	if err := json.Unmarshal(res.body.Bytes(), out); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	return err
}

func (a apiClient) send(from *http.Request, method, path string, body any) (*recorder, error) {
	req, err := a.newRequest(from.Context(), from, method, path, body)
	if err != nil {
		return nil, err
	}
	res := newRecorder()
	a.api.ServeHTTP(res, req)
	if res.status >= 400 {
		return res, decodeAPIError(res)
	}
	return res, nil
}

// newRequest builds the internal request: only the session cookie, the
// client's address (for rate limits and the audit trail), its user agent
// and the CSRF token travel from the browser's request.
func (a apiClient) newRequest(ctx context.Context, from *http.Request, method, path string, body any) (*http.Request, error) {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, path, rd)
	if err != nil {
		return nil, err
	}
	req.RemoteAddr = from.RemoteAddr
	req.Host = from.Host
	req.TLS = from.TLS
	if xff := from.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		req.Header["X-Forwarded-For"] = xff
	}
	req.Header.Set("User-Agent", from.UserAgent())
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c, err := from.Cookie(sessionCookie); err == nil {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	if method != http.MethodGet {
		// The API compares the token with the session's; the dashboard
		// only forwards what the browser posted.
		req.Header.Set("X-CSRF-Token", from.PostFormValue("csrf_token"))
	}
	return req, nil
}

func decodeAPIError(res *recorder) error {
	var env struct {
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	e := &APIError{Status: res.status}
	if json.Unmarshal(res.body.Bytes(), &env) == nil && env.Error.Code != "" {
		e.Code, e.Message, e.Details = env.Error.Code, env.Error.Message, env.Error.Details
	} else {
		e.Code, e.Message = "error", http.StatusText(res.status)
	}
	return e
}

func asAPIError(err error, target **APIError) bool {
	e, ok := err.(*APIError)
	if ok {
		*target = e
	}
	return ok
}

// query encodes non-empty values as a query string, "" when none.
func query(vals url.Values) string {
	for k, v := range vals {
		if len(v) == 0 || strings.TrimSpace(v[0]) == "" {
			delete(vals, k)
		}
	}
	if len(vals) == 0 {
		return ""
	}
	return "?" + vals.Encode()
}

// recorder is the in-memory ResponseWriter the API answers into.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}, status: http.StatusOK} }

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(status int)      { r.status = status }
