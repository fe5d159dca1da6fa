package httpaction

import (
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
)

// parse turns validated action parameters into a request.
func parse(p map[string]any) (request, error) {
	req := request{method: http.MethodPost, headers: http.Header{}}
	if m, _ := p["method"].(string); m != "" {
		req.method = strings.ToUpper(m)
	}
	raw, _ := p["url"].(string)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return request{}, fmt.Errorf("url %q is not an absolute http(s) URL", raw)
	}
	if u.User != nil {
		return request{}, fmt.Errorf("url may not carry credentials; use a credential connector")
	}
	req.target = u
	if h, ok := p["headers"].(map[string]any); ok {
		for name, v := range h {
			s, ok := v.(string)
			if !ok {
				return request{}, fmt.Errorf("header %s must be a string", name)
			}
			if forbiddenHeaders[strings.ToLower(name)] {
				return request{}, fmt.Errorf("header %s may not be set in a playbook; reference a credential connector instead", name)
			}
			if strings.ContainsAny(name+s, "\r\n") {
				return request{}, fmt.Errorf("header %s contains a line break", name)
			}
			req.headers.Set(textproto.CanonicalMIMEHeaderKey(name), s)
		}
	}
	if b, ok := p["body"].(map[string]any); ok {
		req.body = b
	}
	req.credential, _ = p["credential"].(string)
	if n, ok := p["expected_status"].(int64); ok {
		if n != 0 && (n < 100 || n > 599) {
			return request{}, fmt.Errorf("expected_status must be an HTTP status between 100 and 599")
		}
		req.expected = int(n)
	}
	if o, ok := p["output"].(map[string]any); ok {
		req.output = map[string]string{}
		for name, v := range o {
			s, ok := v.(string)
			if !ok || s == "" {
				return request{}, fmt.Errorf("output %s must be a dotted path string", name)
			}
			req.output[name] = s
		}
	}
	return req, nil
}

// lookup follows a dotted path ("data.items.0.id") into a decoded JSON
// document; a missing step yields nil.
func lookup(doc any, path string) any {
	cur := doc
	for _, step := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			cur = v[step]
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}
