// Package llm asks a language model behind an OpenAI-compatible
// chat-completions API for an incident verdict, validates the answer
// strictly, and falls back to the built-in rule analyzer whenever the model
// is disabled, unreachable, slow or gives an answer that does not fit.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/triage"
)

// Defaults for fields a Config leaves empty.
const (
	DefaultProvider = "openai-compatible"
	DefaultTimeout  = 30 * time.Second
)

// maxResponseBytes bounds what is read from the provider: a verdict is a
// few kilobytes, and a misbehaving endpoint must not exhaust memory.
const maxResponseBytes = 1 << 20

// Config says how to reach the model.
type Config struct {
	// Provider names the API dialect; it labels metrics and Analysis.Analyzer.
	Provider string
	// BaseURL is the API root, e.g. http://127.0.0.1:11434/v1; requests go
	// to its chat/completions path.
	BaseURL string
	// Model is sent with every request.
	Model string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	// Timeout bounds one request, body included.
	Timeout time.Duration
}

// Usage is what the provider reported as billed for one request.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

// Failure kinds of Client.Analyze, for errors.Is. The error's message is a
// short reason fit for Analysis.FallbackReason: it never carries the API key
// or the provider's response body, which may echo credentials.
var (
	// ErrConfig means the Config cannot be used (no base URL or model).
	ErrConfig = errors.New("llm configuration invalid")
	// ErrTimeout means the provider did not answer within Config.Timeout.
	ErrTimeout = errors.New("llm timeout")
	// ErrTransport means the request could not be sent or its answer read.
	ErrTransport = errors.New("llm request failed")
	// ErrStatus means the provider answered with a non-2xx status.
	ErrStatus = errors.New("llm http error")
	// ErrMalformed means the answer was not a valid verdict.
	ErrMalformed = errors.New("llm answer malformed")
)

// failure is an error whose message is a finished reason, matching its kind
// and, if any, its cause with errors.Is.
type failure struct {
	reason string
	kind   error
	cause  error
}

func (f *failure) Error() string   { return f.reason }
func (f *failure) Unwrap() []error { return []error{f.kind, f.cause} }

func fail(kind, cause error, format string, args ...any) error {
	return &failure{reason: fmt.Sprintf(format, args...), kind: kind, cause: cause}
}

// Client talks to one provider. It is safe for concurrent use.
type Client struct {
	cfg Config
	hc  *http.Client
	m   *Metrics
}

// NewClient returns a Client for cfg, filling in DefaultProvider and
// DefaultTimeout. hc nil means a client that follows no redirects; m may
// be nil.
func NewClient(cfg Config, hc *http.Client, m *Metrics) *Client {
	if cfg.Provider == "" {
		cfg.Provider = DefaultProvider
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if hc == nil {
		hc = noRedirects
	}
	return &Client{cfg: cfg, hc: hc, m: m}
}

// noRedirects is the default HTTP client: a provider answers where its
// base URL points, and a redirect must not carry the request (and its
// key) to an origin nobody configured. A redirect is a non-2xx answer.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
	return http.ErrUseLastResponse
}}

// chatRequest is the subset of the chat-completions request Vigil sends.
// Temperature 0 asks for the most deterministic answer the model can give.
type chatRequest struct {
	Model          string         `json:"model"`
	Messages       []chatMessage  `json:"messages"`
	Temperature    float64        `json:"temperature"`
	ResponseFormat responseFormat `json:"response_format"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type string `json:"type"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// Analyze asks for a structured verdict about the incident and validates it.
// Usage is returned whenever the provider reported it, even with an error.
// Errors match one of the Err* kinds with errors.Is; when ctx itself ends,
// the error also matches ctx.Err().
func (c *Client) Analyze(ctx context.Context, inc triage.Incident, ind triage.Indicators) (triage.Analysis, Usage, error) {
	endpoint, err := c.endpoint()
	if err != nil {
		return triage.Analysis{}, Usage{}, err
	}
	prompt, err := userPrompt(inc, ind)
	if err != nil {
		return triage.Analysis{}, Usage{}, fail(ErrMalformed, err, "llm prompt: %v", err)
	}
	body, err := encode(chatRequest{
		Model: c.cfg.Model,
		Messages: []chatMessage{
			{Role: "system", Content: systemPrompt},
			{Role: "user", Content: prompt},
		},
		ResponseFormat: responseFormat{Type: "json_object"},
	})
	if err != nil {
		return triage.Analysis{}, Usage{}, fail(ErrMalformed, err, "llm request: %v", err)
	}
	raw, err := c.post(ctx, endpoint, body)
	if err != nil {
		return triage.Analysis{}, Usage{}, err
	}
	var resp chatResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return triage.Analysis{}, Usage{}, fail(ErrMalformed, err, "llm answer malformed: response is not chat-completions JSON")
	}
	usage := Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
	c.m.usage(c.cfg.Provider, usage)
	if len(resp.Choices) == 0 || resp.Choices[0].Message.Content == nil {
		return triage.Analysis{}, usage, fail(ErrMalformed, nil, "llm answer malformed: no choices with message content")
	}
	a, err := parseAnswer(*resp.Choices[0].Message.Content)
	if err != nil {
		return triage.Analysis{}, usage, fail(ErrMalformed, err, "llm answer malformed: %v", err)
	}
	a.Analyzer = "llm:" + c.cfg.Provider
	a.Model = c.cfg.Model
	return a, usage, nil
}

// endpoint joins the base URL and the chat-completions path, whether or not
// the base ends in a slash, keeping any query string.
func (c *Client) endpoint() (string, error) {
	if strings.TrimSpace(c.cfg.Model) == "" {
		return "", fail(ErrConfig, nil, "llm configuration invalid: model is empty")
	}
	u, err := url.Parse(strings.TrimSpace(c.cfg.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fail(ErrConfig, err, "llm configuration invalid: base_url must be an absolute http or https URL")
	}
	return u.JoinPath("chat", "completions").String(), nil
}

// post sends one request and returns the body of a 2xx answer.
func (c *Client) post(ctx context.Context, endpoint string, body []byte) ([]byte, error) {
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		// The error quotes the URL, which may hold credentials.
		return nil, fail(ErrConfig, err, "llm configuration invalid: base_url cannot be requested")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	c.m.request(c.cfg.Provider, c.cfg.Model)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fail(ErrStatus, nil, "llm http %d", resp.StatusCode)
	}
	if len(raw) > maxResponseBytes {
		return nil, fail(ErrMalformed, nil, "llm answer malformed: response exceeds %d bytes", maxResponseBytes)
	}
	return raw, nil
}

// transportError tells the caller giving up apart from the provider not
// answering. The reason is the same for every way of not answering (refused,
// reset, unknown host, timeout, broken TLS): it is shown to API callers, and
// telling them apart would let whoever can set base_url probe which hosts
// and ports exist behind Vigil. The cause, without the URL, is logged for
// operators.
func (c *Client) transportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fail(ErrTransport, errors.Join(ctx.Err(), err), "llm request abandoned: %v", ctx.Err())
	}
	kind := ErrTransport
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		kind = ErrTimeout
	}
	slog.Warn("llm provider unreachable", "provider", c.cfg.Provider, "timeout", c.cfg.Timeout, "err", redactURL(err))
	return fail(kind, err, "llm unreachable")
}

// redactURL drops the URL from a *url.Error: a base URL may carry
// credentials in its user info or query.
func redactURL(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
