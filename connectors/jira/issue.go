package jira

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// labelPrefix starts the label that ties an issue to the action that filed
// it. Jira labels cannot hold spaces; action ids never do.
const labelPrefix = "vigil-action-"

// issueRef is how Jira names an issue in create and search answers.
type issueRef struct {
	ID     string `json:"id"`
	Key    string `json:"key"`
	Self   string `json:"self"`
	Fields struct {
		Created string `json:"created"`
	} `json:"fields"`
}

// CreateTicket files t as an issue, or returns the issue an earlier call
// with the same key filed.
func (c *Connector) CreateTicket(ctx context.Context, key string, t connectors.Ticket) (connectors.Result, error) {
	if strings.TrimSpace(t.Title) == "" {
		return connectors.Result{}, connectors.Permanentf("jira: a ticket needs a title")
	}
	if key == "" || strings.ContainsAny(key, " \t\"\\") {
		return connectors.Result{}, connectors.Permanentf("jira: action id %q cannot be used as a label", key)
	}
	if t.Priority == "" {
		t.Priority = "medium"
	}
	label := labelPrefix + key
	existing, err := c.findByLabel(ctx, label)
	if err != nil {
		return connectors.Result{}, err
	}
	if existing != nil {
		return c.result(*existing, t.Priority, "already filed"), nil
	}
	fields := map[string]any{
		"project":     map[string]string{"key": c.project},
		"issuetype":   map[string]string{"name": c.issueType},
		"summary":     summary(t.Title),
		"description": document(t.Description, key),
		"labels":      []string{label},
	}
	if name := c.priorities[t.Priority]; name != "" {
		fields["priority"] = map[string]string{"name": name}
	}
	var created issueRef
	_, err = c.api.Do(ctx, vendorhttp.Request{Method: "POST", Path: "/rest/api/3/issue",
		Body: map[string]any{"fields": fields}, Out: &created})
	if err != nil {
		return connectors.Result{}, fmt.Errorf("create issue: %w", err)
	}
	if created.Key == "" {
		return connectors.Result{}, fmt.Errorf("create issue: Jira answered without an issue key")
	}
	return c.result(created, t.Priority, "created"), nil
}

// findByLabel returns the issue carrying label in the project, if any.
// Jira's search index trails writes by a moment, which only matters when
// the same action is retried within it.
func (c *Connector) findByLabel(ctx context.Context, label string) (*issueRef, error) {
	var page struct {
		Issues []issueRef `json:"issues"`
	}
	jql := fmt.Sprintf("project = %q AND labels = %q", c.project, label)
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: "/rest/api/3/search/jql",
		Query: url.Values{"jql": {jql}, "fields": {"created"}, "maxResults": {"1"}}, Out: &page})
	if err != nil {
		return nil, fmt.Errorf("search for an issue filed earlier: %w", err)
	}
	if len(page.Issues) == 0 {
		return nil, nil
	}
	return &page.Issues[0], nil
}

// result describes issue; created_at is Jira's own time for an issue
// found by search and the filing time for one just created.
func (c *Connector) result(issue issueRef, priority, verb string) connectors.Result {
	created := issue.Fields.Created
	if created == "" {
		created = time.Now().UTC().Format(time.RFC3339)
	}
	return connectors.Result{Success: true, Message: "Jira issue " + issue.Key + " " + verb, Output: map[string]any{
		"ticket_id": issue.Key, "issue_id": issue.ID, "url": c.site + "/browse/" + issue.Key,
		"priority": priority, "created_at": created,
	}}
}

// summary fits a title into Jira's one-line, 255-character summary.
func summary(title string) string {
	s := strings.Join(strings.Fields(title), " ")
	if r := []rune(s); len(r) > 255 {
		s = string(r[:254]) + "…"
	}
	return s
}

// document renders plain text as an Atlassian Document Format document:
// one paragraph per blank-line-separated block, line breaks kept, and a
// closing paragraph naming the action, since ADF refuses empty text nodes
// and Jira a document without content.
func document(text, key string) map[string]any {
	var paragraphs []any
	for _, block := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p := paragraph(block); p != nil {
			paragraphs = append(paragraphs, p)
		}
	}
	paragraphs = append(paragraphs, paragraph("Filed by Vigil for response action "+key+"."))
	return map[string]any{"type": "doc", "version": 1, "content": paragraphs}
}

// paragraph is one ADF paragraph of text nodes joined by hard breaks, or
// nil when block holds no text.
func paragraph(block string) map[string]any {
	var nodes []any
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimRight(line, " \t")
		if line == "" {
			continue
		}
		if len(nodes) > 0 {
			nodes = append(nodes, map[string]any{"type": "hardBreak"})
		}
		nodes = append(nodes, map[string]any{"type": "text", "text": line})
	}
	if nodes == nil {
		return nil
	}
	return map[string]any{"type": "paragraph", "content": nodes}
}
