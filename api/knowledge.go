package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/knowledge"
	"github.com/vigil-soc/vigil/store"
)

// maxSearchResults bounds a knowledge search answer.
const maxSearchResults = 50

// registerKnowledge adds the knowledge base routes: everyone reads,
// analysts write, seniors delete.
func registerKnowledge(a *routes, s *server) {
	const (
		viewer, analyst, senior = store.RoleViewer, store.RoleAnalyst, store.RoleSenior
		get, post, put, del     = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	)
	a.handle(Route{get, "/v1/knowledge", viewer, ScopeRead, LimitRead, ""}, s.listKnowledge)
	a.handle(Route{post, "/v1/knowledge", analyst, ScopeWrite, LimitWrite, "knowledge.create"}, s.createKnowledge)
	a.handle(Route{get, "/v1/knowledge/:id", viewer, ScopeRead, LimitRead, ""}, s.getKnowledge)
	a.handle(Route{put, "/v1/knowledge/:id", analyst, ScopeWrite, LimitWrite, "knowledge.update"}, s.updateKnowledge)
	a.handle(Route{del, "/v1/knowledge/:id", senior, ScopeWrite, LimitWrite, "knowledge.delete"}, s.deleteKnowledge)
}

// knowledgeView is an article; ContentHTML is its Markdown rendered and
// sanitized, present on single reads.
type knowledgeView struct {
	ID            string    `json:"id"`
	Title         string    `json:"title"`
	Content       string    `json:"content,omitempty"`
	ContentHTML   string    `json:"content_html,omitempty"`
	Tags          []string  `json:"tags"`
	IncidentTypes []string  `json:"incident_types"`
	PackageName   string    `json:"package_name,omitempty"`
	CreatedBy     string    `json:"created_by"`
	UpdatedBy     string    `json:"updated_by"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
	// Search results carry their rank (higher is better) and a snippet
	// with the matched words between ** marks.
	Rank    *float64 `json:"rank,omitempty"`
	Snippet string   `json:"snippet,omitempty"`
}

func viewKnowledge(a *store.KnowledgeArticle, full bool) knowledgeView {
	v := knowledgeView{ID: a.ID, Title: a.Title, Tags: orEmpty(a.Tags.V), IncidentTypes: orEmpty(a.IncidentTypes.V),
		PackageName: a.PackageName, CreatedBy: a.CreatedBy, UpdatedBy: a.UpdatedBy,
		CreatedAt: a.CreatedAt.UTC(), UpdatedAt: a.UpdatedAt.UTC()}
	if full {
		v.Content, v.ContentHTML = a.Content, knowledge.Render(a.Content)
	}
	return v
}

type knowledgeRequest struct {
	Title         *string  `json:"title"`
	Content       *string  `json:"content"`
	Tags          []string `json:"tags"`
	IncidentTypes []string `json:"incident_types"`
}

// apply validates the request into a with the limits package items have.
func (r knowledgeRequest) apply(a *store.KnowledgeArticle) error {
	bad := map[string]string{}
	a.Title = requiredText(bad, "title", r.Title, content.MaxTitleLength)
	a.Content = optionalText(bad, "content", r.Content, content.MaxContentLength)
	for field, list := range map[string][]string{"tags": r.Tags, "incident_types": r.IncidentTypes} {
		if len(list) > content.MaxTags {
			bad[field] = "at most " + strconv.Itoa(content.MaxTags) + " entries"
		}
		for _, t := range list {
			if strings.TrimSpace(t) == "" || len(t) > content.MaxTagLength {
				bad[field] = "entries must be 1 to " + strconv.Itoa(content.MaxTagLength) + " characters"
			}
		}
	}
	if len(bad) > 0 {
		return validationError(bad)
	}
	a.Tags, a.IncidentTypes = store.NewJSON(r.Tags), store.NewJSON(r.IncidentTypes)
	return nil
}

func titleTaken(err error, title string) error {
	if errors.Is(err, store.ErrConflict) {
		return newError(http.StatusConflict, CodeConflict, "an article titled "+strconv.Quote(title)+" already exists")
	}
	return err
}

func (s *server) createKnowledge(c *gin.Context) (reply, error) {
	var req knowledgeRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	by := principal(c).User.Username
	a := &store.KnowledgeArticle{CreatedBy: by, UpdatedBy: by}
	if err := req.apply(a); err != nil {
		return reply{}, err
	}
	if err := s.store.CreateKnowledge(c, a); err != nil {
		return reply{}, titleTaken(err, a.Title)
	}
	setAuditTarget(c, a.ID)
	return created(viewKnowledge(a, true)), nil
}

func (s *server) updateKnowledge(c *gin.Context) (reply, error) {
	var req knowledgeRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	a, err := s.store.GetKnowledge(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "knowledge article")
	}
	if err := req.apply(a); err != nil {
		return reply{}, err
	}
	a.UpdatedBy = principal(c).User.Username
	if err := s.store.UpdateKnowledge(c, a); err != nil {
		return reply{}, titleTaken(err, a.Title)
	}
	setAuditTarget(c, a.ID)
	return ok(viewKnowledge(a, true)), nil
}

func (s *server) getKnowledge(c *gin.Context) (reply, error) {
	a, err := s.store.GetKnowledge(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "knowledge article")
	}
	return ok(viewKnowledge(a, true)), nil
}

func (s *server) deleteKnowledge(c *gin.Context) (reply, error) {
	id := c.Param("id")
	if err := s.store.DeleteKnowledge(c, id); err != nil {
		return reply{}, orNotFound(err, "knowledge article")
	}
	setAuditTarget(c, id)
	return noContent(), nil
}

// listKnowledge lists articles by title, or, with q, searches them: best
// match first, each with a snippet.
func (s *server) listKnowledge(c *gin.Context) (reply, error) {
	if q := c.Query("q"); q != "" {
		if len(q) > 500 {
			return reply{}, validationError(map[string]string{"q": "at most 500 characters"})
		}
		hits, err := s.store.SearchKnowledge(c, q, maxSearchResults)
		if err != nil {
			return reply{}, err
		}
		out := make([]knowledgeView, len(hits))
		for i := range hits {
			out[i] = viewKnowledge(&hits[i].KnowledgeArticle, false)
			rank := hits[i].Rank
			out[i].Rank, out[i].Snippet = &rank, hits[i].Snippet
		}
		return ok(out), nil
	}
	bad := map[string]string{}
	p := parsePaging(c, bad)
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	rows, total, err := s.store.ListKnowledge(c, store.KnowledgeFilter{Tag: c.Query("tag"),
		IncidentType: c.Query("incident_type"), Page: p})
	if err != nil {
		return reply{}, err
	}
	out := make([]knowledgeView, len(rows))
	for i := range rows {
		out[i] = viewKnowledge(&rows[i], false)
	}
	return paged(out, p, total), nil
}
