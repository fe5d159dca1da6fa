package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/vigil-soc/vigil/intake"
)

// Intake measurement: signed alerts on a source without auto triage.
const (
	benchSource = "generic" // takes the simple {title, severity, ...} shape
	benchSecret = "bench-webhook-secret-0123456789"
	// intakeGoalRate and intakeGoalP99 are the intake's goal at -intake-c.
	intakeGoalRate = 2000.0
	intakeGoalP99  = 50 * time.Millisecond
)

// registerBenchSource registers the source the intake rows sign for.
func registerBenchSource(ctx context.Context, a *apiClient) error {
	return registerSource(ctx, a, benchSource, false)
}

// registerSource registers a webhook source signed with benchSecret that
// takes the simple alert shape, with or without auto triage.
func registerSource(ctx context.Context, a *apiClient, source string, autoTriage bool) error {
	body, _ := json.Marshal(map[string]any{"source": source, "secret": benchSecret, "auto_triage": autoTriage})
	status, out, err := a.do(ctx, http.MethodPost, "/api/webhooks", body)
	if err != nil {
		return err
	}
	if status != http.StatusCreated && status != http.StatusOK {
		return unexpected(http.MethodPost, "/api/webhooks", status, out)
	}
	return nil
}

// alertBody is the simple alert sent as operation i; its alert_id is
// unique, so every alert makes an incident (the dedup look-up still runs).
func alertBody(i int) []byte {
	r := opRand(i, 5)
	typ, sev := incidentTypes.pick(r), severities.pick(r)
	b, _ := json.Marshal(map[string]any{
		"title": typ + " alert " + strconv.Itoa(i), "severity": sev, "incident_type": typ,
		"description": typ + " reported by " + sources[typ], "alert_id": "bench-" + strconv.Itoa(i),
	})
	return b
}

// formattedAlertBody is operation i's alert in the signed generic format
// ({event_type, timestamp, source, data{alert_id, severity, details}}),
// which a source other than "generic" takes.
func formattedAlertBody(i int) []byte {
	r := opRand(i, 5)
	typ, sev := incidentTypes.pick(r), severities.pick(r)
	b, _ := json.Marshal(map[string]any{
		"event_type": typ, "timestamp": time.Now().Unix(), "source": sources[typ],
		"data": map[string]any{"alert_id": "bench-" + strconv.Itoa(i), "severity": sev, "details": map[string]any{
			"title": typ + " alert " + strconv.Itoa(i), "incident_type": typ,
			"description": typ + " reported by " + sources[typ],
		}},
	})
	return b
}

// sendAlert signs body now and posts it to the intake rows' source; it
// returns the status and answer.
func sendAlert(ctx context.Context, a *apiClient, body []byte) (int, map[string]any, error) {
	return sendAlertTo(ctx, a, benchSource, body)
}

// sendAlertTo signs body now and posts it to source.
func sendAlertTo(ctx context.Context, a *apiClient, source string, body []byte) (int, map[string]any, error) {
	path := "/api/webhooks/" + source
	ts := time.Now().Unix()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+path, bytesReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Webhook-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Webhook-Signature", intake.Sign(benchSecret, ts, body))
	return a.send(req)
}

// webhookOp is measurement 2w: one signed alert, which must answer 201
// "accepted" with a new incident.
func webhookOp(a *apiClient) opFunc {
	return func(ctx context.Context, i int) error {
		status, res, err := sendAlert(ctx, a, alertBody(i))
		if err != nil {
			return err
		}
		if status != http.StatusCreated || res["status"] != "accepted" {
			return fmt.Errorf("POST /api/webhooks/%s: status %d: %v", benchSource, status, res)
		}
		return nil
	}
}

// checkIntakeExactness sends a replayed delivery (must be refused with
// 409) and a repeated alert id under a fresh signature (must join the
// first incident), after the load, so batching is checked for both.
func checkIntakeExactness(ctx context.Context, a *apiClient) error {
	body := alertBody(1 << 30)
	ts := time.Now().Unix()
	sig := intake.Sign(benchSecret, ts, body)
	send := func() (int, map[string]any, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/api/webhooks/"+benchSource, bytesReader(body))
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("X-Webhook-Timestamp", strconv.FormatInt(ts, 10))
		req.Header.Set("X-Webhook-Signature", sig)
		return a.send(req)
	}
	first, res1, err := send()
	if err != nil || first != http.StatusCreated {
		return fmt.Errorf("first delivery: status %d, %v, %v", first, res1, err)
	}
	again, _, err := send()
	if err != nil || again != http.StatusConflict {
		return fmt.Errorf("replayed delivery: status %d (want 409), %v", again, err)
	}
	time.Sleep(time.Second) // a fresh timestamp, so a fresh signature
	dup, res2, err := sendAlert(ctx, a, body)
	if err != nil || dup != http.StatusOK || res2["deduplicated"] != true || res2["incident_id"] != res1["incident_id"] {
		return fmt.Errorf("repeated alert id: status %d, %v (want 200 deduplicated into %v), %v", dup, res2, res1["incident_id"], err)
	}
	return nil
}

// intakeMet says whether a measurement meets the intake goal.
func intakeMet(s stats) bool {
	return s.Failures == 0 && s.OpsPerSec() >= intakeGoalRate && s.P99 <= intakeGoalP99
}

// intakeGoal says in words whether a measurement meets the intake goal.
func intakeGoal(s stats) string {
	verdict := "not met"
	if intakeMet(s) {
		verdict = "met"
	}
	return fmt.Sprintf("goal ≥ %.0f alerts/s with p99 ≤ %s: %s (%s/s, p99 %s)",
		intakeGoalRate, intakeGoalP99, verdict, rate(s.OpsPerSec()), ms(s.P99))
}
