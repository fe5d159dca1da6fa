package runview

import (
	"fmt"
	"time"
)

// AwaitingApproval is an action's current details while it waits for an
// approver: the level, since when, until when, and the rule that asked.
func AwaitingApproval(level string, since, expires time.Time, rule, reason string) string {
	s := fmt.Sprintf("awaiting %s approval since %s UTC, expires %s", level, since.UTC().Format("15:04"), UTC(expires))
	return s + decidedBy(rule, reason)
}

func decidedBy(rule, reason string) string {
	s := ""
	if rule != "" {
		s += "  \npolicy rule: " + oneLine(rule, maxValue)
	}
	if reason != "" {
		s += "  \nreason: " + oneLine(reason, maxTitle)
	}
	return s
}

// Parked is a run's current details while the kill switch holds it.
func Parked(reason string) string {
	reason = oneLine(reason, maxTitle)
	if reason == "" {
		return "parked by the kill switch"
	}
	return "parked by the kill switch (reason: " + reason + ")"
}

// Executing is an action's current details while its connector runs.
func Executing(call string) string { return "executing: " + call }

// Ended is a run's current details once it has ended.
func Ended(status, why string) string {
	if why = oneLine(why, maxTitle); why != "" {
		return status + ": " + why
	}
	return status
}

// Step is a playbook run's current details: which step of how many, the
// action it runs and, when known, what that action waits for.
func Step(n, total int, name, state string) string {
	s := fmt.Sprintf("step %d of %d: %s", n, total, oneLine(name, maxValue))
	if state != "" {
		s += ", " + state
	}
	return s
}

// KillSwitchState is the kill switch run's current details.
func KillSwitchState(active bool, reason, by string, parked int) string {
	if !active {
		return "inactive: automation runs"
	}
	return fmt.Sprintf("ACTIVE since set by %s (reason: %s); %d runs parked", oneLine(by, maxValue), oneLine(reason, maxTitle), parked)
}
