package datasource

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/outbound"
)

// maxHTTPBody bounds what one answer may hold.
const maxHTTPBody = 64 << 20

// httpTimeout bounds one HTTP call whatever the query's own timeout.
const httpTimeout = 5 * time.Minute

// httpSource queries a log store over its REST API. Settings: url (base),
// plus index (search_index), workspace_id (log_analytics), time_field
// (search_index, default @timestamp); credentials: api_key or
// username/password (search_index), token (siem_search, log_analytics,
// custom).
type httpSource struct {
	kind     string
	base     *url.URL
	settings map[string]any
	creds    map[string]string
	outbound func(context.Context) outbound.Policy
	maxRows  int

	mu           sync.Mutex
	client       *http.Client
	clientPolicy outbound.Policy
}

func openHTTP(cfg Config, opts Options) (Source, error) {
	raw := setting(cfg.Settings, "url")
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, &ConfigError{Field: "url", Message: "must be an absolute http(s) URL"}
	}
	switch cfg.Kind {
	case KindSearchIndex:
		if setting(cfg.Settings, "index") == "" {
			return nil, &ConfigError{Field: "index", Message: "a search_index source needs an index (or pattern)"}
		}
	case KindLogAnalytics:
		if setting(cfg.Settings, "workspace_id") == "" {
			return nil, &ConfigError{Field: "workspace_id", Message: "a log_analytics source needs a workspace id"}
		}
	}
	return &httpSource{kind: cfg.Kind, base: u, settings: cfg.Settings, creds: cfg.Credentials, outbound: opts.outbound,
		maxRows: intSetting(cfg.Settings, "max_rows")}, nil
}

// Close drops the idle connections of the source's client.
func (s *httpSource) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
	return nil
}

// clientFor answers the source's HTTP client for the policy in force: one
// per source, so its connections (and TLS sessions) serve every query,
// built again when the policy changed, since the policy is checked on
// each connection it dials.
func (s *httpSource) clientFor(p outbound.Policy) *http.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil && reflect.DeepEqual(s.clientPolicy, p) {
		return s.client
	}
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
	s.client, s.clientPolicy = p.Client(httpTimeout), p
	return s.client
}

// Test runs a trivial query over the last minute.
func (s *httpSource) Test(ctx context.Context) error {
	q := map[string]string{KindSearchIndex: "*", KindSIEMSearch: "search index=_internal | head 1",
		KindLogAnalytics: "print ok = 1", KindCustom: "test"}[s.kind]
	now := time.Now().UTC()
	_, err := s.Run(ctx, Request{Query: q, From: now.Add(-time.Minute), To: now, MaxRows: 1, Timeout: 15 * time.Second})
	return err
}

func (s *httpSource) Run(ctx context.Context, req Request) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, req.timeout())
	defer cancel()
	max := req.maxRows(s.maxRows)
	var (
		res Result
		err error
	)
	switch s.kind {
	case KindSearchIndex:
		res, err = s.runSearchIndex(ctx, req, max)
	case KindSIEMSearch:
		res, err = s.runSplunk(ctx, req, max)
	case KindLogAnalytics:
		res, err = s.runLogAnalytics(ctx, req, max)
	default:
		res, err = s.runCustom(ctx, req, max)
	}
	if err != nil && ctx.Err() != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrQueryTimeout, err)
	}
	return res, err
}

func (s *httpSource) endpoint(path string) string {
	u := *s.base
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	return u.String()
}

// send posts body and returns the answer's body, or an error with the
// status and the start of the answer. The call goes through the outbound
// policy in force: the URL is checked first, and every connection
// (redirects included) once its name is resolved.
func (s *httpSource) send(ctx context.Context, path, contentType string, body []byte, auth string) ([]byte, error) {
	target := s.endpoint(path)
	policy := s.outbound(ctx)
	if err := policy.CheckURL(target); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrRefused, s.kind, err)
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("Accept", "application/json")
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	resp, err := s.clientFor(policy).Do(r)
	if err != nil {
		return nil, fmt.Errorf("%s request: %w", s.kind, err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	if err != nil {
		return nil, fmt.Errorf("%s answer: %w", s.kind, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s answered %d: %.300s", s.kind, resp.StatusCode, data)
	}
	return data, nil
}

func (s *httpSource) bearer() string {
	if t := s.creds["token"]; t != "" {
		return "Bearer " + t
	}
	return ""
}

// rowsResult caps rows, collecting the columns in first-seen order.
func rowsResult(rows []map[string]any, max int) Result {
	res := Result{Rows: []map[string]any{}}
	seen := map[string]bool{}
	for _, r := range rows {
		if len(res.Rows) == max {
			res.Truncated = true
			break
		}
		for k := range r {
			if !seen[k] {
				seen[k] = true
				res.Columns = append(res.Columns, k)
			}
		}
		res.Rows = append(res.Rows, r)
	}
	return res
}

// runSplunk streams search/jobs/export: one JSON object per line, each
// with a "result".
func (s *httpSource) runSplunk(ctx context.Context, req Request, max int) (Result, error) {
	search := strings.TrimSpace(req.Query)
	if !strings.HasPrefix(search, "search ") && !strings.HasPrefix(search, "|") {
		search = "search " + search
	}
	form := url.Values{"search": {search}, "output_mode": {"json"},
		"earliest_time": {req.From.UTC().Format(time.RFC3339)}, "latest_time": {req.To.UTC().Format(time.RFC3339)}}
	data, err := s.send(ctx, "/services/search/jobs/export", "application/x-www-form-urlencoded", []byte(form.Encode()), s.bearer())
	if err != nil {
		return Result{}, err
	}
	var rows []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), maxHTTPBody)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var ev struct {
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			return Result{}, fmt.Errorf("siem_search answer: %w", err)
		}
		if ev.Result != nil {
			rows = append(rows, ev.Result)
		}
	}
	return rowsResult(rows, max), sc.Err()
}

// CheckOutbound refuses an HTTP source whose address the outbound policy
// in force does not allow, naming its url setting; SQL sources pass. Each
// call is checked again when it is made, since the policy may change.
func CheckOutbound(ctx context.Context, cfg Config, opts Options) error {
	if cfg.Kind == KindSQL {
		return nil
	}
	if err := opts.outbound(ctx).CheckURL(setting(cfg.Settings, "url")); err != nil {
		return &ConfigError{Field: "url", Message: err.Error() + " (setting outbound)"}
	}
	return nil
}
