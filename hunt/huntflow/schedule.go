package huntflow

import (
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// Schedule settings.
const (
	// DefaultInterval is how often a continuous hunt runs when it sets none.
	DefaultInterval = 15 * time.Minute
	// CatchupWindow is how late a missed scheduled run may still start
	// (after an outage of the server or the workers).
	CatchupWindow = 10 * time.Minute
)

// ScheduleID is the Temporal Schedule of a scheduled or continuous hunt.
func ScheduleID(huntID string) string { return "hunt-schedule/" + huntID }

// ScheduleSpec is what a hunt asks of its schedule.
type ScheduleSpec struct {
	HuntID    string
	HuntName  string
	HuntType  string // scheduled or continuous
	Cron      string
	Timezone  string
	Interval  time.Duration
	Active    bool // the schedule is paused when false
	TaskQueue string
}

func (s ScheduleSpec) spec() client.ScheduleSpec {
	if s.HuntType == "continuous" {
		every := s.Interval
		if every <= 0 {
			every = DefaultInterval
		}
		return client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: every}}}
	}
	return client.ScheduleSpec{CronExpressions: []string{s.Cron}, TimeZoneName: s.Timezone}
}

func (s ScheduleSpec) action() *client.ScheduleWorkflowAction {
	trigger := "scheduled"
	if s.HuntType == "continuous" {
		trigger = "continuous"
	}
	return &client.ScheduleWorkflowAction{ID: "hunt/" + s.HuntID + "/scheduled", Workflow: Run, TaskQueue: s.TaskQueue,
		Args: []any{Input{HuntID: s.HuntID, Trigger: trigger}}, StaticSummary: "hunt " + s.HuntName}
}

// SyncSchedule makes the hunt's schedule match spec: created when absent,
// its spec and action updated, paused when the hunt is not active.
func SyncSchedule(ctx context.Context, c client.Client, s ScheduleSpec) error {
	sc := c.ScheduleClient()
	h := sc.GetHandle(ctx, ScheduleID(s.HuntID))
	_, err := h.Describe(ctx)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		_, err = sc.Create(ctx, client.ScheduleOptions{ID: ScheduleID(s.HuntID), Spec: s.spec(), Action: s.action(),
			Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP, CatchupWindow: CatchupWindow, Paused: !s.Active,
			Note: pauseNote(s.Active)})
		return err
	}
	if err != nil {
		return err
	}
	return h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		sch := in.Description.Schedule
		spec := s.spec()
		sch.Spec, sch.Action = &spec, s.action()
		sch.Policy.Overlap, sch.Policy.CatchupWindow = enumspb.SCHEDULE_OVERLAP_POLICY_SKIP, CatchupWindow
		sch.State.Paused, sch.State.Note = !s.Active, pauseNote(s.Active)
		return &client.ScheduleUpdate{Schedule: &sch}, nil
	}})
}

func pauseNote(active bool) string {
	if active {
		return ""
	}
	return "paused: the hunt is not active"
}

// DeleteSchedule removes a hunt's schedule; one already gone is fine.
func DeleteSchedule(ctx context.Context, c client.Client, huntID string) error {
	err := c.ScheduleClient().GetHandle(ctx, ScheduleID(huntID)).Delete(ctx)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return nil
	}
	return err
}

// ScheduleState is a schedule as its own description shows it.
type ScheduleState struct {
	ID       string      `json:"schedule_id"`
	Paused   bool        `json:"paused"`
	NextRuns []time.Time `json:"next_runs"`
}

// DescribeSchedule reads the schedule's next five run times; nil when the
// hunt has no schedule.
func DescribeSchedule(ctx context.Context, c client.Client, huntID string) (*ScheduleState, error) {
	d, err := c.ScheduleClient().GetHandle(ctx, ScheduleID(huntID)).Describe(ctx)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st := &ScheduleState{ID: ScheduleID(huntID), Paused: d.Schedule.State.Paused, NextRuns: []time.Time{}}
	for i, t := range d.Info.NextActionTimes {
		if i == 5 {
			break
		}
		st.NextRuns = append(st.NextRuns, t.UTC())
	}
	return st, nil
}
