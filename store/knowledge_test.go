package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func TestKnowledgeSearchRanksTitleMatchesFirstWithSnippets(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	for _, a := range []store.KnowledgeArticle{
		{Title: "Ransomware response", Content: "Isolate the host, then find the encryption process and its parent."},
		{Title: "Phishing runbook", Content: "Pull the message. If an attachment dropped ransomware, isolate first."},
		{Title: "VPN outages", Content: "Nothing about malware here at all."},
	} {
		if err := st.CreateKnowledge(ctx, &a); err != nil {
			t.Fatal(err)
		}
	}
	hits, err := st.SearchKnowledge(ctx, "ransomware", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].Title != "Ransomware response" || hits[1].Title != "Phishing runbook" {
		t.Fatalf("hits %+v", hits)
	}
	if hits[0].Rank <= hits[1].Rank {
		t.Fatalf("ranks %v, %v: the title match must rank higher", hits[0].Rank, hits[1].Rank)
	}
	if !strings.Contains(strings.ToLower(hits[1].Snippet), "**ransomware**") {
		t.Fatalf("snippet %q does not mark the match", hits[1].Snippet)
	}
	// Every word must match; stemming finds "isolating" for "isolate".
	if hits, _ := st.SearchKnowledge(ctx, "isolating attachment", 10); len(hits) != 1 || hits[0].Title != "Phishing runbook" {
		t.Fatalf("two-word search: %+v", hits)
	}
	// Search syntax in the input is taken as words, never as syntax.
	for _, q := range []string{`"unbalanced`, `ransomware OR -*`, `title:x NEAR(a b)`, `'; DROP TABLE knowledge_articles; --`, "   "} {
		if _, err := st.SearchKnowledge(ctx, q, 10); err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
	}
	// Edits and deletes reach the index.
	a, _ := st.KnowledgeByTitle(ctx, "VPN outages")
	a.Content = "Ransomware can look like an outage."
	if err := st.UpdateKnowledge(ctx, a); err != nil {
		t.Fatal(err)
	}
	if hits, _ := st.SearchKnowledge(ctx, "ransomware", 10); len(hits) != 3 {
		t.Fatalf("after an edit: %d hits", len(hits))
	}
	if err := st.DeleteKnowledge(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if hits, _ := st.SearchKnowledge(ctx, "outage", 10); len(hits) != 0 {
		t.Fatalf("a deleted article is still found: %+v", hits)
	}
	if err := st.CreateKnowledge(ctx, &store.KnowledgeArticle{Title: "ransomware RESPONSE"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate title (case aside): %v", err)
	}
}
