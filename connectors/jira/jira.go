// Package jira files Vigil's tickets as Jira Cloud issues through the
// REST API v3, authenticated with an Atlassian account's e-mail address and
// API token. Each issue carries a label derived from the action id, and a
// JQL search for that label runs before every creation, so a retried action
// finds the issue it filed instead of filing a second one.
package jira

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations use.
const Type = "jira"

// defaultPriorities maps Vigil's ticket priorities to the names of Jira's
// default priority scheme.
const defaultPriorities = "low=Low,medium=Medium,high=High,critical=Highest"

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: "Jira Cloud",
		Kinds: []string{connectors.KindTicketing},
		Fields: []connectors.Field{
			{Name: "base_url", Required: true, Description: "site address, for example https://example.atlassian.net"},
			{Name: "email", Required: true, Description: "e-mail address of the Atlassian account that files issues"},
			{Name: "api_token", Required: true, Secret: true, Description: "API token of that account"},
			{Name: "project_key", Required: true, Description: "key of the project issues are filed in, for example SEC"},
			{Name: "issue_type", Default: "Task", Description: "issue type name, for example Task or Incident"},
			{Name: "priorities", Default: defaultPriorities,
				Description: "Vigil priority to Jira priority name, comma separated; an empty name leaves the priority unset"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Connector is a configured Jira Cloud site; it implements
// connectors.Ticketing and connectors.Tester.
type Connector struct {
	api        *vendorhttp.Client
	site       string
	project    string
	issueType  string
	priorities map[string]string
}

// New builds a connector from cfg without calling Jira.
func New(cfg connectors.Config) (*Connector, error) {
	site := strings.TrimSuffix(cfg.Setting("base_url", ""), "/")
	email, token := cfg.Setting("email", ""), cfg.Secrets["api_token"]
	project := cfg.Setting("project_key", "")
	if site == "" || email == "" || token == "" || project == "" {
		return nil, connectors.Permanentf("jira: base_url, email, api_token and project_key are required")
	}
	priorities, err := parsePriorities(cfg.Setting("priorities", defaultPriorities))
	if err != nil {
		return nil, err
	}
	return &Connector{
		api: &vendorhttp.Client{Vendor: "Jira Cloud", BaseURL: site, HTTP: cfg.HTTP,
			Auth: basicAuth(email, token)},
		site: site, project: project, issueType: cfg.Setting("issue_type", "Task"), priorities: priorities,
	}, nil
}

// basicAuth signs each request with the account's e-mail and API token.
func basicAuth(email, token string) func(context.Context, *http.Request) error {
	return func(_ context.Context, req *http.Request) error {
		req.SetBasicAuth(email, token)
		return nil
	}
}

// parsePriorities reads "low=Low,medium=Medium,...".
func parsePriorities(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		from, to, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(from) == "" {
			return nil, connectors.Permanentf("jira: priorities entry %q is not vigil=Jira", pair)
		}
		out[strings.TrimSpace(from)] = strings.TrimSpace(to)
	}
	return out, nil
}

// Test reads the token's own account and the configured project: the
// first proves the credentials, the second that the account can see
// where issues go.
func (c *Connector) Test(ctx context.Context) error {
	if _, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: "/rest/api/3/myself"}); err != nil {
		return err
	}
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: "/rest/api/3/project/" + url.PathEscape(c.project)})
	if err != nil {
		return fmt.Errorf("project %s: %w", c.project, err)
	}
	return nil
}
