package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// apiClient calls a Vigil server over real HTTP with one admin key.
type apiClient struct {
	base, key string
	http      *http.Client
}

// newAPIClient keeps up to conc idle connections: the default of two per
// host would make most requests dial a new connection and measure TCP
// set-up instead of Vigil.
func newAPIClient(base, key string, conc int) *apiClient {
	tr := &http.Transport{MaxIdleConns: 2 * conc, MaxIdleConnsPerHost: 2 * conc, IdleConnTimeout: time.Minute}
	return &apiClient{base: base, key: key, http: &http.Client{Transport: tr, Timeout: 2 * time.Minute}}
}

func (a *apiClient) close() { a.http.CloseIdleConnections() }

// do sends one request and returns the status and the whole body, read to
// the end so the connection goes back to the pool.
func (a *apiClient) do(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := a.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, nil, fmt.Errorf("%s %s: read body: %w", method, path, err)
	}
	return res.StatusCode, out, nil
}

// send sends a prepared request and decodes its JSON object answer.
func (a *apiClient) send(req *http.Request) (int, map[string]any, error) {
	res, err := a.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		return res.StatusCode, nil, fmt.Errorf("answer %d is not a JSON object: %.200s", res.StatusCode, out)
	}
	return res.StatusCode, m, nil
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// unexpected describes a wrong answer with the start of its body.
func unexpected(method, path string, status int, body []byte) error {
	if len(body) > 300 {
		body = body[:300]
	}
	return fmt.Errorf("%s %s: status %d: %s", method, path, status, body)
}

// createBody is the request an alert source would send for operation i.
func createBody(i int) ([]byte, error) {
	r := opRand(i, 3)
	typ, sev := incidentTypes.pick(r), severities.pick(r)
	return json.Marshal(map[string]any{
		"incident_type": typ,
		"source":        sources[typ],
		"severity":      sev,
		"description":   typ + " reported by " + sources[typ],
		"raw_data":      rawData(r, typ, i),
	})
}

// createdLog remembers every incident the API created, to check numbering
// afterwards and to have incidents to triage.
type createdLog struct {
	mu      sync.Mutex
	ids     []string
	numbers []string
}

func (l *createdLog) add(id, number string) {
	l.mu.Lock()
	l.ids = append(l.ids, id)
	l.numbers = append(l.numbers, number)
	l.mu.Unlock()
}

// createOp is measurement 2: POST /api/incidents, which must answer 201.
func createOp(a *apiClient, log *createdLog) opFunc {
	const path = "/api/incidents"
	return func(ctx context.Context, i int) error {
		body, err := createBody(i)
		if err != nil {
			return err
		}
		status, out, err := a.do(ctx, http.MethodPost, path, body)
		if err != nil {
			return err
		}
		if status != http.StatusCreated {
			return unexpected(http.MethodPost, path, status, out)
		}
		var res struct {
			Data struct {
				ID             string `json:"id"`
				IncidentNumber string `json:"incident_number"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &res); err != nil || res.Data.ID == "" {
			return fmt.Errorf("POST %s: 201 without an incident: %s", path, out)
		}
		log.add(res.Data.ID, res.Data.IncidentNumber)
		return nil
	}
}

// checkNumbers verifies that the created incident numbers are distinct and
// consecutive within one year, which is what the counter row promises under
// concurrent creation.
func checkNumbers(numbers []string) (string, error) {
	if len(numbers) == 0 {
		return "", fmt.Errorf("no incidents were created")
	}
	type num struct {
		year int
		seq  int64
	}
	parsed := make([]num, 0, len(numbers))
	for _, s := range numbers {
		var n num
		if _, err := fmt.Sscanf(s, "INC-%d-%d", &n.year, &n.seq); err != nil {
			return "", fmt.Errorf("incident number %q is not INC-<year>-<seq>", s)
		}
		parsed = append(parsed, n)
	}
	slices.SortFunc(parsed, func(a, b num) int {
		if a.year != b.year {
			return a.year - b.year
		}
		return int(a.seq - b.seq)
	})
	first, last := parsed[0], parsed[len(parsed)-1]
	for k := 1; k < len(parsed); k++ {
		p, n := parsed[k-1], parsed[k]
		switch {
		case n.year != p.year:
			return "", fmt.Errorf("numbers span years %d and %d", p.year, n.year)
		case n.seq == p.seq:
			return "", fmt.Errorf("number INC-%d-%04d was given twice", n.year, n.seq)
		case n.seq != p.seq+1:
			return "", fmt.Errorf("gap between INC-%d-%04d and INC-%d-%04d", p.year, p.seq, n.year, n.seq)
		}
	}
	return fmt.Sprintf("%d numbers INC-%d-%04d … INC-%d-%04d, distinct and consecutive",
		len(parsed), first.year, first.seq, last.year, last.seq), nil
}

// listOp is measurement 4: one GET of a list page, checked for a full page
// when the table holds enough matching rows.
func listOp(a *apiClient, path string) opFunc {
	return func(ctx context.Context, _ int) error {
		status, out, err := a.do(ctx, http.MethodGet, path, nil)
		if err != nil {
			return err
		}
		if status != http.StatusOK {
			return unexpected(http.MethodGet, path, status, out)
		}
		var res struct {
			Data []json.RawMessage `json:"data"`
			Meta struct {
				Page    int   `json:"page"`
				PerPage int   `json:"per_page"`
				Total   int64 `json:"total"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			return fmt.Errorf("GET %s: %w", path, err)
		}
		offset := int64((res.Meta.Page - 1) * res.Meta.PerPage)
		want := min(int64(res.Meta.PerPage), max(0, res.Meta.Total-offset))
		if int64(len(res.Data)) != want {
			return fmt.Errorf("GET %s: %d rows, want %d of %d", path, len(res.Data), want, res.Meta.Total)
		}
		return nil
	}
}

// triageOp is measurement 6: POST /api/incidents/{id}/triage on incident i,
// waiting for the verdict; anything but 200 with a completed triage fails.
func triageOp(a *apiClient, ids []string) opFunc {
	return func(ctx context.Context, i int) error {
		if i >= len(ids) {
			return fmt.Errorf("no incident for triage %d", i)
		}
		path := "/api/incidents/" + ids[i] + "/triage"
		status, out, err := a.do(ctx, http.MethodPost, path, nil)
		if err != nil {
			return err
		}
		if status != http.StatusOK {
			return unexpected(http.MethodPost, path, status, out)
		}
		var res struct {
			Data struct {
				Status string `json:"status"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &res); err != nil || res.Data.Status != "completed" {
			return unexpected(http.MethodPost, path, status, out)
		}
		return nil
	}
}
