package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// DeliveryHeader carries the stable delivery id on every HTTP request, so
// a receiver can recognise a retry.
const DeliveryHeader = "X-Svc-Delivery"

// postJSON sends body to url and classifies the answer: 2xx is success;
// 408, 429 and 5xx are retried (honouring Retry-After); other answers are
// permanent failures.
func postJSON(ctx context.Context, client *http.Client, method, url string, body []byte, headers map[string]string) Result {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return permanent(0, "build request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Vigil-Notifications")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return transient(0, fmt.Errorf("send: %w", err))
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return ok(resp.StatusCode)
	}
	err = fmt.Errorf("provider answered %d: %s", resp.StatusCode, bytes.TrimSpace(answer))
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode >= 500 {
		r := transient(resp.StatusCode, err)
		r.RetryAfter = retryAfter(resp.Header.Get("Retry-After"))
		return r
	}
	return Result{ProviderStatus: resp.StatusCode, Err: err}
}

// retryAfter reads Retry-After as seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps and slices of plain values are marshalled
	}
	return b
}
