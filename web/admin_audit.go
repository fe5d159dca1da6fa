package web

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// auditEvent is one entry of GET /api/audit.
type auditEvent struct {
	ID         string         `json:"id"`
	OccurredAt time.Time      `json:"occurred_at"`
	Actor      string         `json:"actor"`
	AuthMethod string         `json:"auth_method"`
	Action     string         `json:"action"`
	TargetType string         `json:"target_type"`
	TargetID   string         `json:"target_id"`
	Outcome    string         `json:"outcome"`
	Status     int            `json:"status"`
	ClientIP   string         `json:"client_ip"`
	Details    map[string]any `json:"details"`
}

// auditFilters are the list parameters the audit page passes to the API.
var auditFilters = []string{"actor", "action", "outcome", "target_id", "since", "until", "page"}

type auditData struct {
	Filter map[string]string
	Rows   []auditEvent
	Pager  pager
	Err    *APIError
}

func (d *Dashboard) adminAudit(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Audit trail", "admin"
	f := formValues(c, auditFilters...)
	data := &auditData{Filter: map[string]string{}}
	for k := range f {
		data.Filter[k] = f.Get(k)
	}
	v.Data = data
	g := clone(f)
	g.Set("per_page", "50")
	var res struct {
		Data []auditEvent `json:"data"`
		Meta pageMeta     `json:"meta"`
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/audit"+query(g), &res); err != nil {
		if apiErr, ok := err.(*APIError); ok && apiErr.Status == http.StatusUnprocessableEntity {
			data.Err = apiErr
			return "adminaudit", nil
		}
		return "", err
	}
	data.Rows, data.Pager = res.Data, pagerOf("/admin/audit", f, res.Meta)
	return "adminaudit", nil
}
