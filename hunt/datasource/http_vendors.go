package datasource

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// runSearchIndex calls <index>/_search: a query text starting with '{' is
// query DSL, anything else a Lucene query string; the window is a range
// filter on the time field and size is the row cap.
func (s *httpSource) runSearchIndex(ctx context.Context, req Request, max int) (Result, error) {
	var query any
	text := strings.TrimSpace(req.Query)
	if strings.HasPrefix(text, "{") {
		var dsl map[string]any
		if err := json.Unmarshal([]byte(text), &dsl); err != nil {
			return Result{}, fmt.Errorf("query DSL: %w", err)
		}
		query = dsl
	} else {
		query = map[string]any{"query_string": map[string]any{"query": text}}
	}
	field := setting(s.settings, "time_field")
	if field == "" {
		field = "@timestamp"
	}
	body, _ := json.Marshal(map[string]any{
		"size":             max + 1,
		"track_total_hits": true,
		"query": map[string]any{"bool": map[string]any{
			"must": []any{query},
			"filter": []any{map[string]any{"range": map[string]any{field: map[string]any{
				"gte": req.From.UTC().Format(time.RFC3339Nano), "lt": req.To.UTC().Format(time.RFC3339Nano),
				"format": "strict_date_optional_time"}}}},
		}},
	})
	auth := ""
	switch {
	case s.creds["api_key"] != "":
		auth = "ApiKey " + s.creds["api_key"]
	case s.creds["username"] != "":
		auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(s.creds["username"]+":"+s.creds["password"]))
	}
	data, err := s.send(ctx, "/"+setting(s.settings, "index")+"/_search", "application/json", body, auth)
	if err != nil {
		return Result{}, err
	}
	var ans struct {
		Hits struct {
			Hits []struct {
				ID     string         `json:"_id"`
				Index  string         `json:"_index"`
				Source map[string]any `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return Result{}, fmt.Errorf("search_index answer: %w", err)
	}
	rows := make([]map[string]any, 0, len(ans.Hits.Hits))
	for _, h := range ans.Hits.Hits {
		row := map[string]any{"_id": h.ID, "_index": h.Index}
		for k, v := range h.Source {
			row[k] = v
		}
		rows = append(rows, row)
	}
	return rowsResult(rows, max), nil
}

// runLogAnalytics posts KQL to v1/workspaces/<id>/query with the window as
// an ISO 8601 timespan; the answer's first table becomes the rows.
func (s *httpSource) runLogAnalytics(ctx context.Context, req Request, max int) (Result, error) {
	body, _ := json.Marshal(map[string]any{"query": req.Query,
		"timespan": req.From.UTC().Format(time.RFC3339) + "/" + req.To.UTC().Format(time.RFC3339)})
	data, err := s.send(ctx, "/v1/workspaces/"+setting(s.settings, "workspace_id")+"/query", "application/json", body, s.bearer())
	if err != nil {
		return Result{}, err
	}
	var ans struct {
		Tables []struct {
			Columns []struct {
				Name string `json:"name"`
			} `json:"columns"`
			Rows [][]any `json:"rows"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return Result{}, fmt.Errorf("log_analytics answer: %w", err)
	}
	var rows []map[string]any
	if len(ans.Tables) > 0 {
		t := ans.Tables[0]
		for _, r := range t.Rows {
			row := make(map[string]any, len(t.Columns))
			for i, c := range t.Columns {
				if i < len(r) {
					row[c.Name] = r[i]
				}
			}
			rows = append(rows, row)
		}
	}
	return rowsResult(rows, max), nil
}

// runCustom posts {query, parameters, from, to} and reads {"rows": [...]}.
func (s *httpSource) runCustom(ctx context.Context, req Request, max int) (Result, error) {
	body, _ := json.Marshal(map[string]any{"query": req.Query, "parameters": req.Params,
		"from": req.From.UTC().Format(time.RFC3339), "to": req.To.UTC().Format(time.RFC3339)})
	data, err := s.send(ctx, "", "application/json", body, s.bearer())
	if err != nil {
		return Result{}, err
	}
	var ans struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return Result{}, fmt.Errorf("custom answer: %w", err)
	}
	return rowsResult(ans.Rows, max), nil
}
