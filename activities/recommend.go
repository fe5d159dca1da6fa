package activities

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows/workflowid"
)

// TriageAgent is who automated triage requests actions as; no person
// stands behind them, and policy sees them as AutomationRole.
const TriageAgent = "triage-agent (automated)"

// actionNamespace derives stable action ids from a triage run, so a retried
// activity finds the actions it already created instead of adding more.
var actionNamespace = uuid.MustParse("6f0c3e8e-52d1-4b53-9b5e-3c1f0a9d7a11")

// RecommendedAction is an action a triage run requested, ready for its
// Action workflow.
type RecommendedAction struct {
	ActionID       string
	ActionType     string
	IncidentNumber string
	Severity       string
	IncidentType   string
	// Summary and Details describe the action's run in the Temporal UI.
	Summary string
	Details string
}

// PrepareRecommendedActions turns a triage run's recommended actions into
// pending action records with parameters taken from the incident. A
// recommendation whose parameters cannot be found in the incident is
// skipped and named in the log; nothing is guessed.
func (a *Activities) PrepareRecommendedActions(ctx context.Context, incidentID, triageID string) ([]RecommendedAction, error) {
	inc, err := a.Store.GetIncident(ctx, incidentID)
	if err != nil {
		return nil, permanentIfNotFound(err)
	}
	tr, err := a.Store.GetTriage(ctx, triageID)
	if err != nil {
		return nil, permanentIfNotFound(err)
	}
	acts := recommendedActions(ctx, inc, tr)
	for _, act := range acts {
		if err := a.Store.CreateAction(ctx, act); err != nil && !isConflict(err) {
			return nil, err
		}
	}
	return a.recommendedRuns(acts, inc), nil
}

// recommendedActions builds the pending actions a triage run's verdict
// recommends, with ids derived from the run; nothing is stored.
func recommendedActions(ctx context.Context, inc *store.Incident, tr *store.Triage) []*store.Action {
	var out []*store.Action
	for _, name := range tr.RecommendedActions.V {
		typ, ok := actions.Lookup(name)
		if !ok {
			continue
		}
		params, ok := recommendedParameters(name, inc, tr)
		if !ok {
			activity.GetLogger(ctx).Info("recommended action not requested: parameters not found in the incident",
				"incident", inc.IncidentNumber, "action_type", name)
			continue
		}
		params, bad := typ.Validate(params)
		if len(bad) > 0 {
			activity.GetLogger(ctx).Info("recommended action not requested: invalid parameters",
				"incident", inc.IncidentNumber, "action_type", name, "errors", bad)
			continue
		}
		id := uuid.NewSHA1(actionNamespace, []byte(tr.ID+"/"+name)).String()
		out = append(out, &store.Action{ID: id, IncidentID: &inc.ID, ActionType: name, Parameters: store.NewJSON(params),
			RequestedBy: TriageAgent, WorkflowID: workflowid.Action(id)})
	}
	return out
}

// recommendedRuns hands created actions to the workflow that starts their
// runs.
func (a *Activities) recommendedRuns(acts []*store.Action, inc *store.Incident) []RecommendedAction {
	out := make([]RecommendedAction, 0, len(acts))
	for _, act := range acts {
		out = append(out, a.recommended(act, inc, ""))
	}
	return out
}

// recommended hands a created action to the workflow that starts its run,
// with the summary and details the run is started with.
func (a *Activities) recommended(act *store.Action, inc *store.Incident, via string) RecommendedAction {
	m := runview.Action(a.Links, act, inc, via)
	return RecommendedAction{ActionID: act.ID, ActionType: act.ActionType, IncidentNumber: inc.IncidentNumber,
		Severity: inc.Severity, IncidentType: inc.IncidentType, Summary: m.Summary, Details: m.Details}
}

func isConflict(err error) bool { return errors.Is(err, store.ErrConflict) }

// recommendedParameters finds an action's parameters in the incident.
func recommendedParameters(name string, inc *store.Incident, tr *store.Triage) (map[string]any, bool) {
	raw := inc.RawData.V
	reason := "recommended by automated triage of " + inc.IncidentNumber
	switch name {
	case actions.QuarantineEmail:
		id := findString(raw, "message_id", "messageid", "internet_message_id", "internetmessageid")
		return map[string]any{"message_id": id, "reason": reason}, id != ""
	case actions.BlockSender:
		sender := findString(raw, "sender", "from", "sender_address", "senderaddress")
		if i := strings.LastIndex(sender, "<"); i >= 0 {
			sender = strings.Trim(sender[i:], "<> ")
		}
		return map[string]any{"sender": sender, "reason": reason}, sender != ""
	case actions.IsolateHost, actions.ScanHost:
		host := findString(raw, "host_id", "hostid", "hostnamefield", "hostname", "host", "device_id", "deviceid", "computer_name")
		p := map[string]any{"host_id": host}
		if name == actions.IsolateHost {
			p["reason"] = reason
		}
		return p, host != ""
	case actions.NotifyUser:
		user := findString(raw, "user", "username", "user_name", "recipient", "recipients", "email")
		msg := fmt.Sprintf("Security notice: Vigil opened %s (%s) involving you. Please do not act on related messages or prompts until the security team contacts you.",
			inc.IncidentNumber, inc.IncidentType)
		return map[string]any{"user": user, "message": msg}, user != ""
	case actions.CreateTicket:
		title := inc.Title
		if title == "" {
			title = inc.IncidentType + " incident from " + inc.Source
		}
		desc := ""
		if v := tr.Verdict.V; v != nil {
			desc = fmt.Sprintf("Verdict: %s (%.2f, %s). %s", v.Classification, v.Confidence, v.Category, v.Reasoning)
		}
		return map[string]any{"title": truncate("["+inc.IncidentNumber+"] "+title, 200), "description": truncate(desc, 10000),
			"priority": inc.Severity}, true
	}
	return nil, false
}

// findString looks for the first of keys (case-insensitive, any depth,
// breadth first) holding a non-empty string, or a list whose first element
// is one.
func findString(v any, keys ...string) string {
	level := []any{v}
	for depth := 0; depth < 8 && len(level) > 0; depth++ {
		var next []any
		for _, key := range keys {
			for _, node := range level {
				m, ok := node.(map[string]any)
				if !ok {
					continue
				}
				for k, val := range m {
					if !strings.EqualFold(strings.ReplaceAll(k, "-", "_"), key) {
						continue
					}
					switch x := val.(type) {
					case string:
						if s := strings.TrimSpace(x); s != "" {
							return s
						}
					case []any:
						if len(x) > 0 {
							if s, ok := x[0].(string); ok && strings.TrimSpace(s) != "" {
								return strings.TrimSpace(s)
							}
						}
					}
				}
			}
		}
		for _, node := range level {
			switch x := node.(type) {
			case map[string]any:
				keys := make([]string, 0, len(x))
				for k := range x {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					next = append(next, x[k])
				}
			case []any:
				next = append(next, x...)
			}
		}
		level = next
	}
	return ""
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
