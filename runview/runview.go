// Package runview writes what the Temporal Web UI and CLI show about
// Vigil's runs: the one-line summary and Markdown details every workflow
// is started with, the current details a waiting run sets, and the
// summaries of its activities and timers.
//
// Everything here is built from facts an operator may see in Vigil's own
// views (incident number, title, severity, action target, requester) and
// never from an incident's description or raw alert data, nor from free
// text parameters, which may carry either. Summaries and details travel
// through the data converter like any payload.
package runview

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/store"
)

// Meta is a run's static summary and details, set when it starts.
type Meta struct {
	Summary string
	Details string
}

// Limits that keep a summary on one line of the UI's list.
const (
	maxValue = 60
	maxTitle = 120
)

// Links points at Vigil's own pages. PublicURL is the address operators
// reach the dashboard at (VIGIL_PUBLIC_URL); without it details name the
// API path instead of linking.
type Links struct{ PublicURL string }

// incident renders the line that leads from a run to its incident.
func (l Links) incident(inc *store.Incident) string {
	if inc == nil {
		return ""
	}
	if base := strings.TrimRight(l.PublicURL, "/"); base != "" {
		return fmt.Sprintf("[Open %s in Vigil](%s/incidents/%s)", inc.IncidentNumber, base, inc.ID)
	}
	return "Incident API: `/api/incidents/" + inc.ID + "`"
}

// Triage describes a triage run of an incident.
func Triage(l Links, inc *store.Incident, requestedBy string, automated bool) Meta {
	summary := fmt.Sprintf("triage %s (%s, %s)", inc.IncidentNumber, oneLine(inc.IncidentType, maxValue), inc.Severity)
	mode := "on request"
	if automated {
		mode = "automated (recommended actions are requested through policy)"
	}
	d := details{}
	d.heading(incidentHeading(inc))
	d.field("Type", inc.IncidentType)
	d.field("Severity", inc.Severity)
	d.field("Source", inc.Source)
	d.field("Requested by", requestedBy)
	d.field("Mode", mode)
	d.line(l.incident(inc))
	return Meta{Summary: summary, Details: d.String()}
}

// Action describes an action run. inc may be nil (an action outside any
// incident); via names the playbook step that requested it, if any.
func Action(l Links, act *store.Action, inc *store.Incident, via string) Meta {
	parts := []string{strings.TrimSpace(act.ActionType + " " + Target(act.ActionType, act.Parameters.V))}
	if inc != nil {
		parts = append(parts, fmt.Sprintf("%s (%s)", inc.IncidentNumber, inc.Severity))
	}
	parts = append(parts, "requested by "+oneLine(act.RequestedBy, maxValue))
	d := details{}
	if inc != nil {
		d.heading(incidentHeading(inc))
	} else {
		d.heading("Action outside any incident")
	}
	d.field("Action", act.ActionType)
	d.field("Requested by", act.RequestedBy)
	if via != "" {
		d.field("Requested via", via)
	}
	d.line("Parameters:")
	for _, p := range visibleParameters(act.ActionType, act.Parameters.V) {
		d.line("- " + p)
	}
	d.line("Policy decides when the run starts; the current details say what it waits for.")
	d.line(l.incident(inc))
	return Meta{Summary: strings.Join(parts, " · "), Details: d.String()}
}

// Playbook describes a playbook run.
func Playbook(l Links, e *store.PlaybookExecution, inc *store.Incident, variableNames []string) Meta {
	summary := fmt.Sprintf("playbook %q v%s · %s", oneLine(e.PlaybookName, maxValue), e.Version, inc.IncidentNumber)
	d := details{}
	d.heading(incidentHeading(inc))
	d.field("Playbook", fmt.Sprintf("%s, version %s, %d steps", e.PlaybookName, e.Version, e.StepsTotal))
	d.field("Triggered by", e.TriggeredBy)
	if len(variableNames) > 0 {
		d.field("Variables set", strings.Join(variableNames, ", "))
	}
	d.line(l.incident(inc))
	return Meta{Summary: summary, Details: d.String()}
}

// KillSwitch describes the kill switch singleton.
func KillSwitch() Meta {
	return Meta{
		Summary: "kill switch · wakes parked actions when automation resumes",
		Details: "The store holds the kill switch; this run follows it and wakes every parked action " +
			"and playbook run on deactivation. Change it through `POST /api/kill-switch/activate` or `/deactivate`.",
	}
}

// Target is the one parameter that says what an action acts on (the
// first required one of its type), shortened to fit a summary.
func Target(actionType string, params map[string]any) string {
	typ, ok := actions.Lookup(actionType)
	if !ok {
		return ""
	}
	for _, p := range typ.Parameters {
		if p.Required {
			if v, ok := params[p.Name]; ok {
				return oneLine(fmt.Sprint(v), maxValue)
			}
			return ""
		}
	}
	return ""
}

// connectorVerbs says what a connector does for each action type.
var connectorVerbs = map[string]string{
	actions.QuarantineEmail: "quarantine",
	actions.ReleaseEmail:    "release",
	actions.BlockSender:     "block",
	actions.UnblockSender:   "unblock",
	actions.IsolateHost:     "contain",
	actions.UnisolateHost:   "lift containment of",
	actions.ScanHost:        "scan",
	actions.CreateTicket:    "open ticket",
	actions.NotifyUser:      "notify",
}

// ConnectorCall summarises the connector call that performs an action,
// such as "connector edr: contain ws-0042".
func ConnectorCall(actionType string, params map[string]any) string {
	typ, ok := actions.Lookup(actionType)
	if !ok {
		return "connector: " + actionType
	}
	verb := connectorVerbs[actionType]
	if verb == "" {
		verb = actionType
	}
	return strings.TrimSpace(fmt.Sprintf("connector %s: %s %s", typ.Connector, verb, Target(actionType, params)))
}

// visibleParameters lists an action's parameters in catalog order: the
// target and enumerated choices by value, free text only by its length.
func visibleParameters(actionType string, params map[string]any) []string {
	typ, ok := actions.Lookup(actionType)
	if !ok {
		return nil
	}
	target := ""
	for _, p := range typ.Parameters {
		if p.Required {
			target = p.Name
			break
		}
	}
	var out []string
	for _, p := range typ.Parameters {
		v, set := params[p.Name]
		if !set {
			continue
		}
		if p.Name == target || len(p.Enum) > 0 || p.Type != actions.TypeString {
			out = append(out, fmt.Sprintf("%s: %s", p.Name, code(oneLine(fmt.Sprint(v), maxValue))))
			continue
		}
		out = append(out, fmt.Sprintf("%s: (%d characters, not shown)", p.Name, len([]rune(fmt.Sprint(v)))))
	}
	return out
}

func incidentHeading(inc *store.Incident) string {
	title := oneLine(inc.Title, maxTitle)
	if title == "" {
		title = "(untitled)"
	}
	return fmt.Sprintf("%s · %s", inc.IncidentNumber, title)
}

// UTC formats a moment as the UI's details show it.
func UTC(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }

// oneLine keeps a value on one line, without the Markdown characters that
// could turn it into a link, an image, HTML, code or a table cell, and
// cuts it to max runes.
func oneLine(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r) || unicode.IsSpace(r):
			return ' '
		case strings.ContainsRune("[]<>`|\\", r):
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

func code(s string) string { return "`" + s + "`" }

// details builds a Markdown block line by line.
type details struct{ b strings.Builder }

func (d *details) heading(s string) { d.b.WriteString("**" + s + "**\n\n") }

func (d *details) field(name, value string) {
	d.b.WriteString(name + ": " + oneLine(value, maxTitle) + "  \n")
}

func (d *details) line(s string) {
	if s != "" {
		d.b.WriteString(s + "  \n")
	}
}

func (d *details) String() string { return strings.TrimSpace(d.b.String()) }
