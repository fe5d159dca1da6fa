package api

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

// Field limits for incident input.
const (
	maxTypeLen       = 64
	maxSourceLen     = 255
	maxAssigneeLen   = 255
	maxTextLen       = 10000
	maxSearchLen     = 100
	incidentNotFound = "incident"
)

type createIncidentRequest struct {
	IncidentType *string        `json:"incident_type"`
	Source       *string        `json:"source"`
	Severity     *string        `json:"severity"`
	RawData      map[string]any `json:"raw_data"`
	Description  *string        `json:"description"`
	Assignee     *string        `json:"assignee"`
}

func (s *server) createIncident(c *gin.Context) (reply, error) {
	var req createIncidentRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	typ := requiredText(bad, "incident_type", req.IncidentType, maxTypeLen)
	source := requiredText(bad, "source", req.Source, maxSourceLen)
	severity := requiredText(bad, "severity", req.Severity, 0)
	if severity != "" && !slices.Contains(store.Severities, severity) {
		bad["severity"] = "must be one of " + strings.Join(store.Severities, ", ")
	}
	desc := optionalText(bad, "description", req.Description, maxTextLen)
	assignee := optionalText(bad, "assignee", req.Assignee, maxAssigneeLen)
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	inc, err := s.store.CreateIncident(c, store.NewIncident{
		IncidentType: typ, Source: source, Severity: severity,
		Description: desc, Assignee: assignee, RawData: req.RawData,
		CreatedBy: principal(c).User.Username,
	})
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, inc.ID)
	setAuditDetails(c, map[string]any{"incident_number": inc.IncidentNumber, "severity": inc.Severity})
	return created(detailOf(inc)), nil
}

// requiredText trims a required string field and checks its length
// (maxLen 0: no limit), recording a message in bad when it fails.
func requiredText(bad map[string]string, field string, v *string, maxLen int) string {
	if v == nil || strings.TrimSpace(*v) == "" {
		bad[field] = "is required"
		return ""
	}
	return optionalText(bad, field, v, maxLen)
}

func optionalText(bad map[string]string, field string, v *string, maxLen int) string {
	if v == nil {
		return ""
	}
	t := strings.TrimSpace(*v)
	if maxLen > 0 && utf8.RuneCountInString(t) > maxLen {
		bad[field] = fmt.Sprintf("must be at most %d characters", maxLen)
	}
	return t
}

func (s *server) getIncident(c *gin.Context) (reply, error) {
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	return ok(detailOf(inc)), nil
}

func (s *server) listIncidents(c *gin.Context) (reply, error) {
	f, err := parseIncidentFilter(c)
	if err != nil {
		return reply{}, err
	}
	rows, total, err := s.store.ListIncidents(c, f)
	if err != nil {
		return reply{}, err
	}
	data := make([]incidentSummary, 0, len(rows))
	for i := range rows {
		data = append(data, summaryOf(&rows[i]))
	}
	return paged(data, store.Page{Page: f.Page, PerPage: f.PerPage}, total), nil
}

// parseIncidentFilter validates every list parameter and names each bad one.
func parseIncidentFilter(c *gin.Context) (store.IncidentFilter, error) {
	bad := map[string]string{}
	f := store.IncidentFilter{Page: 1, PerPage: defaultPerPage}
	if v, ok := c.GetQuery("status"); ok {
		if !slices.Contains(store.IncidentStatuses, v) {
			bad["status"] = "must be one of " + strings.Join(store.IncidentStatuses, ", ")
		}
		f.Status = v
	}
	if v, ok := c.GetQuery("severity"); ok {
		if !slices.Contains(store.Severities, v) {
			bad["severity"] = "must be one of " + strings.Join(store.Severities, ", ")
		}
		f.Severity = v
	}
	if v, ok := c.GetQuery("type"); ok {
		if strings.TrimSpace(v) == "" || len(v) > maxTypeLen {
			bad["type"] = fmt.Sprintf("must be a non-empty incident type of at most %d characters", maxTypeLen)
		}
		f.Type = v
	}
	if v, ok := c.GetQuery("q"); ok {
		if t := strings.TrimSpace(v); t == "" || utf8.RuneCountInString(t) > maxSearchLen {
			bad["q"] = fmt.Sprintf("must be 1 to %d characters", maxSearchLen)
		}
		f.Search = v
	}
	f.CreatedAfter = parseTimeParam(c, bad, "created_after")
	f.CreatedBefore = parseTimeParam(c, bad, "created_before")
	page := parsePaging(c, bad)
	f.Page, f.PerPage = page.Page, page.PerPage
	if v, ok := c.GetQuery("sort"); ok {
		if _, known := store.IncidentSortFields[strings.TrimPrefix(v, "-")]; !known {
			bad["sort"] = "must be one of " + strings.Join(sortNames(), ", ") + ", optionally prefixed with -"
		}
		f.Sort = v
	}
	if len(bad) > 0 {
		return f, validationError(bad)
	}
	return f, nil
}

func sortNames() []string {
	names := make([]string, 0, len(store.IncidentSortFields))
	for k := range store.IncidentSortFields {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func parseTimeParam(c *gin.Context, bad map[string]string, name string) *time.Time {
	v, ok := c.GetQuery(name)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		if d, derr := time.Parse(time.DateOnly, v); derr == nil {
			return &d
		}
		bad[name] = "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z, or a date"
		return nil
	}
	return &t
}

func parseIntParam(c *gin.Context, bad map[string]string, name string, def, lo, hi int) int {
	v, ok := c.GetQuery(name)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		bad[name] = fmt.Sprintf("must be an integer from %d to %d", lo, hi)
		return def
	}
	return n
}

type updateIncidentRequest struct {
	Severity   *string `json:"severity"`
	Status     *string `json:"status"`
	Resolution *string `json:"resolution"`
	Assignee   *string `json:"assignee"`
}

func (s *server) updateIncident(c *gin.Context) (reply, error) {
	var req updateIncidentRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	if req.Severity == nil && req.Status == nil && req.Resolution == nil && req.Assignee == nil {
		bad["body"] = "give at least one of severity, status, resolution, assignee"
	}
	if req.Severity != nil && !slices.Contains(store.Severities, *req.Severity) {
		bad["severity"] = "must be one of " + strings.Join(store.Severities, ", ")
	}
	if req.Status != nil && !slices.Contains(store.IncidentStatuses, *req.Status) {
		bad["status"] = "must be one of " + strings.Join(store.IncidentStatuses, ", ")
	}
	if req.Resolution != nil {
		r := optionalText(bad, "resolution", req.Resolution, maxTextLen)
		req.Resolution = &r
	}
	if req.Assignee != nil {
		a := optionalText(bad, "assignee", req.Assignee, maxAssigneeLen)
		req.Assignee = &a
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	inc, err := s.store.UpdateIncident(c, c.Param("id"), store.IncidentUpdate{
		Severity: req.Severity, Status: req.Status, Resolution: req.Resolution, Assignee: req.Assignee,
	})
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	setAuditDetails(c, incidentChanges(req))
	return ok(detailOf(inc)), nil
}

func (s *server) deleteIncident(c *gin.Context) (reply, error) {
	if err := s.store.DeleteIncident(c, c.Param("id")); err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	return noContent(), nil
}

// orNotFound names the missing resource in a store.ErrNotFound.
func orNotFound(err error, what string) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound(what)
	}
	return err
}

// incidentChanges is what an update set, for the audit trail and the
// incident's timeline; the resolution text is named, not copied.
func incidentChanges(r updateIncidentRequest) map[string]any {
	d := map[string]any{}
	for field, v := range map[string]*string{"severity": r.Severity, "status": r.Status, "assignee": r.Assignee} {
		if v != nil {
			d[field] = *v
		}
	}
	if r.Resolution != nil {
		d["resolution_changed"] = true
	}
	return d
}
