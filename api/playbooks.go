package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
)

// Playbook error codes.
const (
	CodeBuiltinPlaybook  = "builtin_playbook"
	CodePlaybookDisabled = "playbook_disabled"
)

// playbookView is a playbook with its current definition.
type playbookView struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Version     string            `json:"version"`
	Enabled     bool              `json:"enabled"`
	Builtin     bool              `json:"builtin"`
	Triggers    playbook.Triggers `json:"triggers"`
	Variables   map[string]any    `json:"variables,omitempty"`
	Steps       []playbook.Step   `json:"steps,omitempty"`
	CreatedAt   time.Time         `json:"created_at"`
	UpdatedAt   time.Time         `json:"updated_at"`
}

func playbookSummary(p *store.Playbook) playbookView {
	return playbookView{ID: p.ID, Name: p.Name, Description: p.Description, Version: p.Version, Enabled: p.Enabled,
		Builtin: p.Builtin, Triggers: playbook.Triggers{IncidentType: p.TriggerIncidentType, AutoRun: p.AutoRun},
		CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC()}
}

func playbookDetail(p *store.Playbook, v *store.PlaybookVersion) playbookView {
	view := playbookSummary(p)
	if res := playbook.Parse([]byte(v.Content)); res.Playbook != nil {
		view.Variables, view.Steps = res.Playbook.Variables, res.Playbook.Steps
	}
	view.Version = v.Version
	return view
}

// playbookRequest is a playbook as YAML text (content) or as JSON fields.
type playbookRequest struct {
	Content     *string            `json:"content"`
	Name        *string            `json:"name"`
	Description *string            `json:"description"`
	Enabled     *bool              `json:"enabled"`
	Triggers    *playbook.Triggers `json:"triggers"`
	Variables   map[string]any     `json:"variables"`
	Steps       []playbook.Step    `json:"steps"`
}

// definition turns a request into validated YAML text: content is parsed
// as sent (errors point at its lines); JSON fields are merged over base.
func (r playbookRequest) definition(base *playbook.Playbook) (*playbook.Playbook, []byte, error) {
	if r.Content != nil {
		res := playbook.Parse([]byte(*r.Content))
		if !res.Valid() {
			return nil, nil, playbookInvalid(res)
		}
		return res.Playbook, []byte(*r.Content), nil
	}
	p := &playbook.Playbook{}
	if base != nil {
		copied := *base
		p = &copied
	}
	if r.Name != nil {
		p.Name = *r.Name
	}
	if r.Description != nil {
		p.Description = *r.Description
	}
	if r.Triggers != nil {
		p.Triggers = *r.Triggers
	}
	if r.Variables != nil {
		p.Variables = r.Variables
	}
	if r.Steps != nil {
		p.Steps = r.Steps
	}
	if res := playbook.Validate(p); !res.Valid() {
		return nil, nil, playbookInvalid(res)
	}
	text, err := playbook.Marshal(p)
	if err != nil {
		return nil, nil, err
	}
	return p, text, nil
}

func playbookInvalid(res playbook.Result) error {
	return &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation, Message: "playbook does not validate",
		Details: map[string]any{"errors": res.Errors, "warnings": res.Warnings}}
}

func metaOf(p *playbook.Playbook) store.PlaybookMeta {
	return store.PlaybookMeta{Name: p.Name, Description: p.Description,
		TriggerIncidentType: p.Triggers.IncidentType, AutoRun: p.Triggers.AutoRun}
}

type validateRequest struct {
	Content *string `json:"content"`
}

// validatePlaybook checks YAML text and reports problems by line.
func (s *server) validatePlaybook(c *gin.Context) (reply, error) {
	var req validateRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	if req.Content == nil {
		return reply{}, validationError(map[string]string{"content": "is required: the playbook's YAML text"})
	}
	res := playbook.Parse([]byte(*req.Content))
	out := gin.H{"valid": res.Valid(), "warnings": nonNil(res.Warnings)}
	if !res.Valid() {
		out["errors"] = res.Errors
	}
	return ok(out), nil
}

func nonNil(p []playbook.Problem) []playbook.Problem {
	if p == nil {
		return []playbook.Problem{}
	}
	return p
}

func (s *server) playbookSchema(*gin.Context) (reply, error) {
	return reply{status: http.StatusOK, contentType: "application/schema+json", data: playbook.Schema()}, nil
}

func (s *server) listPlaybooks(c *gin.Context) (reply, error) {
	rows, err := s.store.ListPlaybooks(c)
	if err != nil {
		return reply{}, err
	}
	out := make([]playbookView, 0, len(rows))
	for i := range rows {
		out = append(out, playbookSummary(&rows[i]))
	}
	return ok(out), nil
}

func (s *server) getPlaybook(c *gin.Context) (reply, error) {
	p, v, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	return ok(playbookDetail(p, v)), nil
}

func (s *server) createPlaybook(c *gin.Context) (reply, error) {
	var req playbookRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	def, text, err := req.definition(nil)
	if err != nil {
		return reply{}, err
	}
	p, err := s.store.CreatePlaybook(c, metaOf(def), string(text), principal(c).User.Username, false)
	if errors.Is(err, store.ErrConflict) {
		return reply{}, newError(http.StatusConflict, CodeConflict, "a playbook named "+strconv.Quote(def.Name)+" already exists")
	}
	if err != nil {
		return reply{}, err
	}
	if req.Enabled != nil && !*req.Enabled {
		if p, err = s.store.SavePlaybookVersion(c, p.ID, metaOf(def), false, string(text), principal(c).User.Username); err != nil {
			return reply{}, err
		}
	}
	setAuditTarget(c, p.ID)
	setAuditDetails(c, map[string]any{"name": p.Name, "version": p.Version})
	return created(playbookSummary(p)), nil
}

// updatePlaybook saves a new version; the old ones are kept.
func (s *server) updatePlaybook(c *gin.Context) (reply, error) {
	var req playbookRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	p, v, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	base := playbook.Parse([]byte(v.Content)).Playbook
	def, text, err := req.definition(base)
	if err != nil {
		return reply{}, err
	}
	enabled := p.Enabled
	if req.Enabled != nil {
		enabled = *req.Enabled
	}
	saved, err := s.store.SavePlaybookVersion(c, p.ID, metaOf(def), enabled, string(text), principal(c).User.Username)
	if errors.Is(err, store.ErrConflict) {
		return reply{}, newError(http.StatusConflict, CodeConflict, "a playbook named "+strconv.Quote(def.Name)+" already exists")
	}
	if err != nil {
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"name": saved.Name, "version": saved.Version})
	nv, err := s.store.PlaybookVersionByNumber(c, saved.ID, saved.VersionNumber)
	if err != nil {
		return reply{}, err
	}
	return ok(playbookDetail(saved, nv)), nil
}

func (s *server) deletePlaybook(c *gin.Context) (reply, error) {
	err := s.store.DeletePlaybook(c, c.Param("id"))
	if errors.Is(err, store.ErrBuiltin) {
		return reply{}, newError(http.StatusConflict, CodeBuiltinPlaybook, "built-in playbooks cannot be deleted; disable it instead")
	}
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	return noContent(), nil
}

func (s *server) listPlaybookVersions(c *gin.Context) (reply, error) {
	p, _, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	page, err := parsePagingOnly(c)
	if err != nil {
		return reply{}, err
	}
	rows, total, err := s.store.ListPlaybookVersions(c, p.ID, page)
	if err != nil {
		return reply{}, err
	}
	out := make([]gin.H, 0, len(rows))
	for _, v := range rows {
		out = append(out, gin.H{"version": v.Version, "created_by": v.CreatedBy, "created_at": v.CreatedAt.UTC(),
			"current": v.VersionNumber == p.VersionNumber})
	}
	return paged(out, page, total), nil
}

func (s *server) getPlaybookVersion(c *gin.Context) (reply, error) {
	p, _, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	v, err := s.store.PlaybookVersionByName(c, p.ID, c.Param("version"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook version")
	}
	view := playbookDetail(p, v)
	return ok(gin.H{"playbook": view, "content": v.Content}), nil
}

// restorePlaybookVersion saves an old version's content as the newest.
func (s *server) restorePlaybookVersion(c *gin.Context) (reply, error) {
	p, _, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	old, err := s.store.PlaybookVersionByName(c, p.ID, c.Param("version"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook version")
	}
	res := playbook.Parse([]byte(old.Content))
	if !res.Valid() {
		return reply{}, playbookInvalid(res)
	}
	saved, err := s.store.SavePlaybookVersion(c, p.ID, metaOf(res.Playbook), p.Enabled, old.Content, principal(c).User.Username)
	if err != nil {
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"restored": old.Version, "version": saved.Version})
	nv, err := s.store.PlaybookVersionByNumber(c, saved.ID, saved.VersionNumber)
	if err != nil {
		return reply{}, err
	}
	return ok(playbookDetail(saved, nv)), nil
}

// exportPlaybook answers the current version as YAML text.
func (s *server) exportPlaybook(c *gin.Context) (reply, error) {
	p, v, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	c.Header("Content-Disposition", `attachment; filename="`+slug(p.Name)+`.yaml"`)
	return reply{status: http.StatusOK, contentType: "application/yaml; charset=utf-8", data: []byte(v.Content)}, nil
}

func slug(name string) string {
	out := make([]rune, 0, len(name))
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			out = append(out, r)
		case r >= 'A' && r <= 'Z':
			out = append(out, r+'a'-'A')
		default:
			if len(out) > 0 && out[len(out)-1] != '-' {
				out = append(out, '-')
			}
		}
	}
	return string(out)
}
