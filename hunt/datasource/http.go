package datasource

import "net/http"

// HTTPDoer sends HTTP requests; *http.Client is one.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

func openHTTP(cfg Config, opts Options) (Source, error) {
	return nil, &ConfigError{Field: "kind", Message: cfg.Kind + " sources are not available yet"}
}
