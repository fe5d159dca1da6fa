package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// sessionInfo is GET /api/session: who is signed in and the session's
// CSRF token for the forms of the page.
type sessionInfo struct {
	User      sessionUser `json:"user"`
	CSRFToken string      `json:"csrf_token"`
}

type sessionUser struct {
	ID          string `json:"id"`
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
	Role        string `json:"role"`
}

// roleRank orders roles as the API does; it only decides which buttons
// a page shows, never whether a write is allowed.
var roleRank = map[string]int{"viewer": 0, "analyst": 1, "senior": 2, "manager": 3, "admin": 4}

// AtLeast reports whether the user's role reaches role.
func (u sessionUser) AtLeast(role string) bool {
	mine, ok := roleRank[u.Role]
	return ok && mine >= roleRank[role]
}

// Name is how the dashboard addresses the user.
func (u sessionUser) Name() string {
	if u.DisplayName != "" {
		return u.DisplayName
	}
	return u.Username
}

// killSwitchState is GET /api/kill-switch.
type killSwitchState struct {
	Active        bool       `json:"active"`
	Reason        string     `json:"reason"`
	ChangedBy     string     `json:"changed_by"`
	ChangedAt     *time.Time `json:"changed_at"`
	ParkedActions int        `json:"parked_actions"`
}

// doneMessages are the only success messages a redirect may ask for, so
// a crafted link cannot put its own words on a page.
var doneMessages = map[string]string{
	"package_imported":    "Package imported.",
	"package_deleted":     "Package removed; items changed here were kept.",
	"knowledge_saved":     "Article saved.",
	"triaged":             "Triage finished.",
	"triage_run":          "Triage started; the verdict appears when it finishes.",
	"updated":             "Incident updated.",
	"requested":           "Action requested.",
	"approved":            "Action approved.",
	"rejected":            "Action rejected.",
	"ks_on":               "Kill switch activated: automation is halted.",
	"ks_off":              "Kill switch deactivated: automation resumes.",
	"saved":               "Saved.",
	"deleted":             "Deleted.",
	"rolled_back":         "Rollback requested.",
	"rb_completed":        "Rolled back: the rollback action completed.",
	"rb_pending_approval": "Rollback requested: it waits for approval.",
	"rb_failed":           "The rollback action failed; see its error below.",
	"run_started":         "Playbook run started.",
	"hunt_run":            "Hunt run started; its findings are listed below once it has finished.",
	"promoted":            "Finding promoted to this incident.",
	"restored":            "Version restored: it is now the newest version.",
	"key_revoked":         "Key revoked.",
	"user_created":        "User created.",
	"user_updated":        "User updated.",
	"test_sent":           "Test message sent; its outcome is below.",
}

// navEntry is one item of the navigation.
type navEntry struct{ Key, Label, Path string }

// navigation is the one menu every page shows; later pages add an entry
// here and a route in Mount.
var navigation = []navEntry{
	{"incidents", "Incidents", "/incidents"},
	{"approvals", "Approvals", "/approvals"},
	{"actions", "Actions", "/actions"},
	{"playbooks", "Playbooks", "/playbooks"},
	{"hunts", "Hunts", "/hunts"},
	{"knowledge", "Knowledge", "/knowledge"},
	{"packages", "Packages", "/packages"},
	{"kill-switch", "Kill switch", "/kill-switch"},
	{"notifications", "Notifications", "/notifications"},
	{"admin", "Admin", "/admin"},
	{"system", "Health", "/system"},
}

// navRoles hides entries from roles their pages would only refuse; the
// API still decides every read and write behind them.
var navRoles = map[string]string{"admin": "manager"}

// navFor is the navigation as the user's role shows it.
func navFor(u sessionUser) []navEntry {
	out := make([]navEntry, 0, len(navigation))
	for _, e := range navigation {
		if r, ok := navRoles[e.Key]; !ok || u.AtLeast(r) {
			out = append(out, e)
		}
	}
	return out
}

// placeholders are navigation entries whose pages are not built yet.
var placeholders = []navEntry{}

func (d *Dashboard) placeholder(p navEntry) pageFunc {
	return func(_ *gin.Context, v *view) (string, error) {
		v.Title, v.Nav = p.Label, p.Key
		return "placeholder", nil
	}
}

var funcs = template.FuncMap{
	"nav":   navFor,
	"ago":   ago,
	"until": until,
	"list":  func(s ...string) []string { return s },
	"when": func(v any) string {
		if t := asTime(v); t != nil {
			return t.UTC().Format("2006-01-02 15:04:05 UTC")
		}
		return ""
	},
	"iso": func(v any) string {
		if t := asTime(v); t != nil {
			return t.UTC().Format(time.RFC3339)
		}
		return ""
	},
	"json": func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Sprint(v)
		}
		return string(b)
	},
	"pct": func(f float64) string { return fmt.Sprintf("%.0f%%", f*100) },
	// isText keeps structured details (positions) out of a list of
	// messages; the page that understands them shows them its own way.
	"isText": func(v any) bool { _, ok := v.(string); return ok },
	"title":  func(s string) string { return strings.ReplaceAll(s, "_", " ") },
	"deref": func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	},
}

// asTime accepts the time values templates hold; nil and zero are absent.
func asTime(v any) *time.Time {
	switch t := v.(type) {
	case time.Time:
		if !t.IsZero() {
			return &t
		}
	case *time.Time:
		if t != nil && !t.IsZero() {
			return t
		}
	case string: // a timestamp as the JSON API writes it, in pages that keep its maps
		if p, err := time.Parse(time.RFC3339Nano, t); err == nil {
			return &p
		}
	}
	return nil
}

func ago(v any) string {
	t := asTime(v)
	if t == nil {
		return ""
	}
	return humanDuration(time.Since(*t)) + " ago"
}

func until(v any) string {
	t := asTime(v)
	if t == nil {
		return "no expiry"
	}
	d := time.Until(*t)
	if d <= 0 {
		return "expired"
	}
	return "in " + humanDuration(d)
}

func humanDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh %dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
