package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// CodeHuntNotExecutable refuses to run a draft hunt (409).
const CodeHuntNotExecutable = "hunt_not_executable"

// huntRequest is a hunt as the API takes it: its name and the definition
// content packages take too.
type huntRequest struct {
	Name *string `json:"name"`
	hunt.Definition
}

type huntView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	hunt.Definition
	ScheduleState *huntflow.ScheduleState `json:"schedule_state,omitempty"`
	CreatedAt     time.Time               `json:"created_at"`
	UpdatedAt     time.Time               `json:"updated_at"`
}

func viewHunt(h *store.Hunt) huntView {
	return huntView{ID: h.ID, Name: h.Name, Definition: hunt.DefinitionOf(h),
		CreatedAt: h.CreatedAt.UTC(), UpdatedAt: h.UpdatedAt.UTC()}
}

func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// huntFromRequest validates a request into h, naming each bad field.
func (s *server) huntFromRequest(ctx context.Context, req huntRequest, h *store.Hunt) error {
	bad := map[string]string{}
	h.Name = requiredText(bad, "name", req.Name, 200)
	h.Hypothesis, h.FailHuntOnError = req.Hypothesis, req.FailHuntOnError
	req.FillDefaults()
	for _, p := range req.Problems() {
		bad[p.Field] = p.Message
	}
	for _, name := range req.DataSources {
		if _, err := s.store.GetDataSource(ctx, name); err != nil {
			bad["data_sources"] = "data source " + name + " does not exist"
		}
	}
	h.HuntType, h.Status = req.HuntType, req.Status
	h.Queries, h.Schedule, h.TriggerSpec = store.NewJSON(req.Queries), store.NewJSON(req.Schedule), store.NewJSON(req.Trigger)
	h.MitreTechniques, h.DataSources, h.Tags = store.NewJSON(req.MitreTechniques), store.NewJSON(req.DataSources), store.NewJSON(req.Tags)
	h.Enabled = *req.Enabled
	if len(bad) == 0 {
		_, err := hunt.PlanWith(h, hunt.StoredKinds(ctx, s.store), content.QueryLookup(ctx, s.store))
		var fe *hunt.FieldError
		if errors.As(err, &fe) {
			bad[fe.Field] = fe.Message
		}
	}
	if len(bad) > 0 {
		return validationError(bad)
	}
	return nil
}

// syncSchedule keeps a scheduled or continuous hunt's Temporal Schedule in
// step with it: paused whenever the hunt is not active and enabled.
func (s *server) syncSchedule(ctx context.Context, h *store.Hunt) error {
	if s.temporal == nil || (h.HuntType != "scheduled" && h.HuntType != "continuous") {
		return nil
	}
	return huntflow.SyncSchedule(ctx, s.temporal, huntflow.ScheduleSpec{HuntID: h.ID, HuntName: h.Name, HuntType: h.HuntType,
		Cron: h.Schedule.V.CronExpression, Timezone: h.Schedule.V.Timezone,
		Interval: time.Duration(h.Schedule.V.IntervalMinutes) * time.Minute,
		Active:   h.Status == "active" && h.Enabled, TaskQueue: workflows.TaskQueue})
}

func (s *server) createHunt(c *gin.Context) (reply, error) {
	h := &store.Hunt{CreatedBy: principal(c).User.Username}
	if err := s.saveHunt(c, h, s.store.CreateHunt); err != nil {
		return reply{}, err
	}
	return created(viewHunt(h)), nil
}

func (s *server) updateHunt(c *gin.Context) (reply, error) {
	h, err := s.store.GetHunt(c, c.Param("hunt_id"))
	if err != nil {
		return reply{}, err
	}
	if err := s.saveHunt(c, h, s.store.UpdateHunt); err != nil {
		return reply{}, err
	}
	return ok(viewHunt(h)), nil
}

// saveHunt applies the request body to h, writes it with save and brings
// its Temporal Schedule in line with it.
func (s *server) saveHunt(c *gin.Context, h *store.Hunt, save func(context.Context, *store.Hunt) error) error {
	var req huntRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return err
	}
	if err := s.huntFromRequest(c, req, h); err != nil {
		return err
	}
	if err := save(c, h); err != nil {
		return err
	}
	setAuditTarget(c, h.ID)
	return s.syncSchedule(c, h)
}

func (s *server) getHunt(c *gin.Context) (reply, error) {
	h, err := s.store.GetHunt(c, c.Param("hunt_id"))
	if err != nil {
		return reply{}, err
	}
	v := viewHunt(h)
	if s.temporal != nil && (h.HuntType == "scheduled" || h.HuntType == "continuous") {
		if v.ScheduleState, err = huntflow.DescribeSchedule(c, s.temporal, h.ID); err != nil {
			s.log.Warn("describe hunt schedule", "hunt_id", h.ID, "err", err)
		}
	}
	return ok(v), nil
}

func (s *server) listHunts(c *gin.Context) (reply, error) {
	bad := map[string]string{}
	p := parsePaging(c, bad)
	f := store.HuntFilter{Status: c.Query("status"), HuntType: c.Query("hunt_type"), Tag: c.Query("tag"), Page: p}
	if f.Status != "" && hunt.CheckEnum(f.Status, hunt.HuntStatuses) != nil {
		bad["status"] = hunt.CheckEnum(f.Status, hunt.HuntStatuses).Error()
	}
	if f.HuntType != "" && hunt.CheckEnum(f.HuntType, hunt.HuntTypes) != nil {
		bad["hunt_type"] = hunt.CheckEnum(f.HuntType, hunt.HuntTypes).Error()
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	hs, total, err := s.store.ListHunts(c, f)
	if err != nil {
		return reply{}, err
	}
	out := make([]huntView, len(hs))
	for i := range hs {
		out[i] = viewHunt(&hs[i])
	}
	return paged(out, p, total), nil
}

func (s *server) deleteHunt(c *gin.Context) (reply, error) {
	id := c.Param("hunt_id")
	if _, err := s.store.GetHunt(c, id); err != nil {
		return reply{}, err
	}
	if s.temporal != nil {
		if err := huntflow.DeleteSchedule(c, s.temporal, id); err != nil {
			return reply{}, err
		}
	}
	setAuditTarget(c, id)
	if err := s.store.DeleteHunt(c, id); err != nil {
		return reply{}, err
	}
	return noContent(), nil
}

// huntLibrary answers the built-in library followed by the queries
// content packages installed, each marked with its package.
func (s *server) huntLibrary(c *gin.Context) (reply, error) {
	extra, err := content.PackageLibrary(c, s.store)
	if err != nil {
		return reply{}, err
	}
	return ok(append(content.BuiltinLibrary(), extra...)), nil
}

// executeHunt starts a one-off run of any executable hunt (its own
// workflow, trigger manual, whatever the hunt's type) and waits a bounded
// time: 200 with the findings when it finished, 202 with the run id while
// it runs on. POST .../schedule/trigger runs a scheduled hunt's schedule.
func (s *server) executeHunt(c *gin.Context) (reply, error) {
	h, err := s.store.GetHunt(c, c.Param("hunt_id"))
	if err != nil {
		return reply{}, err
	}
	if h.Status == "draft" || h.Status == "archived" {
		return reply{}, notExecutable(h, "a "+h.Status+" hunt cannot run; make it active first")
	}
	// Checked here to answer at once; the run's own start checks again
	// under a lock, for two executes at the same moment.
	if busy, err := s.runInProgress(c, h.ID); err != nil || busy != nil {
		if err != nil {
			return reply{}, err
		}
		return reply{}, runInProgressError(h.ID, busy)
	}
	runID := uuid.NewString()
	setAuditTarget(c, h.ID)
	wid := huntflow.WorkflowID(h.ID, runID)
	// Started eagerly (Start's options): in vigil serve the run's first
	// workflow task comes back with the start.
	opts := workflows.Start{ID: wid, Summary: "hunt " + h.Name}.Options()
	run, err := s.temporal.ExecuteWorkflow(c, opts, huntflow.Run, huntflow.Input{HuntID: h.ID, RunID: runID, Trigger: "manual"})
	if err != nil {
		return reply{}, err
	}
	return s.awaitRun(c, h.ID, runID, run)
}

func notExecutable(h *store.Hunt, msg string) *Error {
	return &Error{Status: http.StatusConflict, Code: CodeHuntNotExecutable, Message: msg,
		Details: map[string]any{"status": h.Status, "hunt_type": h.HuntType}}
}

// awaitRun waits a bounded time for a started run: 200 with its record and
// findings when it ended, 202 with its run id while it runs on.
func (s *server) awaitRun(c *gin.Context, huntID, runID string, run client.WorkflowRun) (reply, error) {
	waitCtx, cancel := context.WithTimeout(c, s.opts.TriageWait)
	defer cancel()
	res, err := huntflow.Await(waitCtx, run, s.store, runID)
	if err != nil {
		running := accepted(gin.H{"run_id": runID, "hunt_id": huntID, "status": store.HuntRunRunning, "workflow_id": run.GetID()})
		if waitCtx.Err() != nil {
			return running, nil
		}
		// A run that failed has recorded why; answer with that record
		// rather than a bare server error. The wait itself can also end
		// early (a long poll cut off at the deadline): a run still
		// recorded as running is answered like one that outlasted the wait.
		s.log.WarnContext(c, "hunt run wait ended with an error", "workflow_id", run.GetID(), "err", err)
		r, rerr := s.store.GetHuntRun(c, huntID, runID)
		if rerr != nil {
			return reply{}, err
		}
		if r.Status == store.HuntRunRunning {
			return running, nil
		}
		return s.runReply(c, huntID, runID)
	}
	if res == nil { // the run's record showed its outcome first
		return s.runReply(c, huntID, runID)
	}
	if res.RunInProgress != "" {
		r, err := s.store.GetHuntRun(c, huntID, res.RunInProgress)
		if err != nil {
			return reply{}, err
		}
		return reply{}, runInProgressError(huntID, r)
	}
	if res.Skipped != "" {
		return reply{}, &Error{Status: http.StatusConflict, Code: CodeHuntNotExecutable,
			Message: "the run was skipped: " + res.Skipped, Details: map[string]any{"workflow_id": run.GetID()}}
	}
	return s.runReply(c, huntID, runID)
}

func (s *server) runReply(c *gin.Context, huntID, runID string) (reply, error) {
	r, err := s.store.GetHuntRun(c, huntID, runID)
	if err != nil {
		return reply{}, err
	}
	fs, err := s.store.ListRunFindings(c, runID)
	if err != nil {
		return reply{}, err
	}
	return ok(runView(r, fs)), nil
}

func (s *server) getHuntRun(c *gin.Context) (reply, error) {
	return s.runReply(c, c.Param("hunt_id"), c.Param("run_id"))
}

// huntResults answers the latest run with its findings, and the recent runs.
func (s *server) huntResults(c *gin.Context) (reply, error) {
	h, err := s.store.GetHunt(c, c.Param("hunt_id"))
	if err != nil {
		return reply{}, err
	}
	runs, err := s.store.ListHuntRuns(c, h.ID, 20)
	if err != nil {
		return reply{}, err
	}
	out := gin.H{"hunt_id": h.ID, "hunt_name": h.Name, "runs": []gin.H{}, "latest": nil}
	list := make([]gin.H, len(runs))
	for i := range runs {
		list[i] = runView(&runs[i], nil)
	}
	out["runs"] = list
	if len(runs) > 0 {
		fs, err := s.store.ListRunFindings(c, runs[0].ID)
		if err != nil {
			return reply{}, err
		}
		out["latest"] = runView(&runs[0], fs)
	}
	return ok(out), nil
}

func runView(r *store.HuntRun, fs []store.HuntFinding) gin.H {
	v := gin.H{"run_id": r.ID, "hunt_id": r.HuntID, "workflow_id": r.WorkflowID, "trigger": r.RunTrigger,
		"status": r.Status, "error": r.Error, "window_from": r.WindowFrom.UTC(), "window_to": r.WindowTo.UTC(),
		"total_findings": r.TotalFindings, "critical_findings": r.CriticalFindings, "new_findings": r.NewFindings,
		"duration_ms": r.DurationMs, "queries": r.QueryResults.V, "started_at": r.StartedAt.UTC(), "completed_at": r.CompletedAt}
	if fs != nil {
		out := make([]gin.H, len(fs))
		for i, f := range fs {
			out[i] = gin.H{"id": f.ID, "severity": f.Severity, "evidence": f.Evidence.V, "query": f.Query,
				"query_name": f.QueryName, "fingerprint": f.Fingerprint, "new": f.New(r.ID), "seen_count": f.SeenCount,
				"incident_id": f.IncidentID, "first_seen_at": f.CreatedAt.UTC(), "last_seen_at": f.LastSeenAt.UTC()}
		}
		v["findings"] = out
	}
	return v
}

// promoteFinding turns a finding into an incident, once.
func (s *server) promoteFinding(c *gin.Context) (reply, error) {
	h, err := s.store.GetHunt(c, c.Param("hunt_id"))
	if err != nil {
		return reply{}, err
	}
	f, err := s.store.GetHuntFinding(c, h.ID, c.Param("finding_id"))
	if err != nil {
		return reply{}, err
	}
	mitre := h.MitreTechniques.V
	if lq, ok := library.Get(f.QueryName); ok {
		mitre = append(append([]string{}, mitre...), lq.MitreTechniques...)
	}
	inc, made, err := s.store.PromoteFinding(c, h.ID, f.ID, store.NewIncident{
		Title: "Hunt " + h.Name + ": " + f.QueryName, IncidentType: "threat_hunt", Source: "hunt:" + h.Name,
		Severity: f.Severity, Description: h.Hypothesis, CreatedBy: principal(c).User.Username,
		RawData: map[string]any{"hunt_id": h.ID, "hunt_name": h.Name, "run_id": f.RunID, "finding_id": f.ID,
			"query": f.Query, "query_name": f.QueryName, "mitre_techniques": orEmpty(mitre), "evidence": f.Evidence.V},
	})
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, inc.ID)
	body := gin.H{"incident_id": inc.ID, "incident_number": inc.IncidentNumber, "finding_id": f.ID, "created": made}
	if made {
		return created(body), nil
	}
	return ok(body), nil
}
