package main

import (
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func event(typ enumspb.EventType, at time.Time) *history.HistoryEvent {
	return &history.HistoryEvent{EventType: typ, EventTime: timestamppb.New(at)}
}

func TestPhasesOfSplitsTheWaitByHistory(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	child := event(enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED, at(420))
	child.Attributes = &history.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes{
		StartChildWorkflowExecutionInitiatedEventAttributes: &history.StartChildWorkflowExecutionInitiatedEventAttributes{WorkflowId: "action/a1"}}
	events := []*history.HistoryEvent{
		event(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, at(100)),
		event(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, at(100)),
		event(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, at(130)),
		event(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, at(420)),
		child,
		event(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, at(500)),
		event(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, at(900)),
		event(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, at(950)),
		event(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, at(950)),
	}
	run := verdictRun{WorkflowID: "triage/i1/t1", Created: at(0), Verdict: at(400)}

	got, err := phasesOf(run, events)
	if err != nil {
		t.Fatal(err)
	}
	want := verdictPhases{Queued: 100 * time.Millisecond, TaskWait: 30 * time.Millisecond,
		FirstTask: 270 * time.Millisecond, TaskDone: 20 * time.Millisecond, AfterRun: 550 * time.Millisecond,
		Tasks: 2, Children: []string{"action/a1"}}
	if got.Queued != want.Queued || got.TaskWait != want.TaskWait || got.FirstTask != want.FirstTask ||
		got.TaskDone != want.TaskDone || got.AfterRun != want.AfterRun || got.Tasks != want.Tasks ||
		len(got.Children) != 1 || got.Children[0] != "action/a1" {
		t.Errorf("phasesOf = %+v, want %+v", got, want)
	}

	open, err := phasesOf(run, events[:len(events)-1])
	if err != nil {
		t.Fatal(err)
	}
	if open.AfterRun != -1 {
		t.Errorf("a run not yet closed: AfterRun = %v, want -1", open.AfterRun)
	}
	if _, err := phasesOf(run, events[:3]); err == nil {
		t.Error("a run whose first workflow task has not completed: want an error")
	}
}

func TestEventCountsPerRun(t *testing.T) {
	var c eventCounts
	now := time.Now()
	c.addRun([]*history.HistoryEvent{event(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, now),
		event(enumspb.EVENT_TYPE_MARKER_RECORDED, now), event(enumspb.EVENT_TYPE_MARKER_RECORDED, now)})
	c.addRun([]*history.HistoryEvent{event(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, now)})
	if c.runs != 2 || c.events[enumspb.EVENT_TYPE_MARKER_RECORDED] != 2 || c.events[enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED] != 2 {
		t.Errorf("counts = %d runs, %v", c.runs, c.events)
	}
	if c.bytes[enumspb.EVENT_TYPE_MARKER_RECORDED] == 0 {
		t.Error("event sizes not counted")
	}
}
