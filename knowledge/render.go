// Package knowledge renders knowledge base articles: Markdown turned into
// HTML that is safe to put in the dashboard whoever wrote the article.
package knowledge

import (
	"bytes"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

var (
	// markdown renders GitHub-flavoured Markdown (tables, task lists,
	// strikethrough, autolinks). Raw HTML in the source is dropped by
	// goldmark's default of not rendering it, and the sanitizer below
	// removes whatever else could run script.
	markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))
	// policy allows the formatting user content needs and nothing that
	// executes: no script, no event handlers, no javascript: URLs, and
	// links open without handing over the page (rel=noopener).
	policy = newPolicy()
)

func newPolicy() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowAttrs("class").Matching(bluemonday.SpaceSeparatedTokens).OnElements("code")
	return p
}

// Render turns Markdown into sanitized HTML.
func Render(source string) string {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(source), &buf); err != nil {
		return policy.Sanitize("<pre>" + bluemonday.StrictPolicy().Sanitize(source) + "</pre>")
	}
	return policy.Sanitize(buf.String())
}
