package store_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func newIncident(sev string) store.NewIncident {
	return store.NewIncident{IncidentType: "phishing", Source: "email-gateway", Severity: sev,
		RawData: map[string]any{"subject": "hello"}}
}

func TestIncidentNumbersAreSequentialPerYear(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	year := time.Now().UTC().Year()
	for i := 1; i <= 3; i++ {
		inc, err := st.CreateIncident(ctx, newIncident("high"))
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("INC-%d-%04d", year, i)
		if inc.IncidentNumber != want {
			t.Fatalf("incident %d numbered %s, want %s", i, inc.IncidentNumber, want)
		}
		if inc.Status != store.StatusOpen {
			t.Fatalf("new incident status %q, want open", inc.Status)
		}
	}
}

func TestFormatIncidentNumberKeepsAtLeastFourDigits(t *testing.T) {
	cases := map[int64]string{1: "INC-2026-0001", 42: "INC-2026-0042", 12345: "INC-2026-12345"}
	for seq, want := range cases {
		if got := store.FormatIncidentNumber(2026, seq); got != want {
			t.Errorf("FormatIncidentNumber(2026, %d) = %s, want %s", seq, got, want)
		}
	}
}

// TestConcurrentCreatesAreGapFree is the numbering guarantee: 100 parallel
// creates give 100 distinct, consecutive numbers.
func TestConcurrentCreatesAreGapFree(t *testing.T) {
	st := testenv.OpenStore(t)
	const n = 100
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		seqs []int64
		errs []error
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inc, err := st.CreateIncident(context.Background(), newIncident("low"))
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			seqs = append(seqs, inc.NumberSeq)
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d creates failed, first: %v", len(errs), errs[0])
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	for i, s := range seqs {
		if s != int64(i+1) {
			t.Fatalf("sequence %d is %d; numbers are not consecutive: %v", i, s, seqs)
		}
	}
}

func TestFailedCreateLeavesNoGap(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	if _, err := st.CreateIncident(ctx, newIncident("low")); err != nil {
		t.Fatal(err)
	}
	// A payload that cannot be encoded fails inside the transaction,
	// after the counter moved; the rollback must move it back.
	bad := newIncident("low")
	bad.RawData = map[string]any{"bad": make(chan int)}
	if _, err := st.CreateIncident(ctx, bad); err == nil {
		t.Fatal("create with an unencodable payload succeeded")
	}
	inc, err := st.CreateIncident(ctx, newIncident("low"))
	if err != nil {
		t.Fatal(err)
	}
	if inc.NumberSeq != 2 {
		t.Fatalf("after a failed create the next number is %d, want 2", inc.NumberSeq)
	}
}

func TestListIncidentsFiltersSortsAndPages(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	sevs := []string{"low", "critical", "medium", "high", "critical", "low"}
	var created []*store.Incident
	for _, s := range sevs {
		inc, err := st.CreateIncident(ctx, newIncident(s))
		if err != nil {
			t.Fatal(err)
		}
		created = append(created, inc)
	}
	status := store.StatusResolved
	if _, err := st.UpdateIncident(ctx, created[0].ID, store.IncidentUpdate{Status: &status}); err != nil {
		t.Fatal(err)
	}

	rows, total, err := st.ListIncidents(ctx, store.IncidentFilter{Severity: "critical", Page: 1, PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	if total != 2 || len(rows) != 2 {
		t.Fatalf("critical filter: total %d rows %d, want 2 and 2", total, len(rows))
	}

	rows, total, err = st.ListIncidents(ctx, store.IncidentFilter{Status: "resolved", Page: 1, PerPage: 10})
	if err != nil || total != 1 || rows[0].ID != created[0].ID {
		t.Fatalf("status filter: total %d err %v", total, err)
	}

	rows, _, err = st.ListIncidents(ctx, store.IncidentFilter{Sort: "-severity", Page: 1, PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range rows {
		order = append(order, r.Severity)
	}
	want := []string{"critical", "critical", "high", "medium", "low", "low"}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Fatalf("sort -severity gave %v, want %v", order, want)
	}

	rows, _, err = st.ListIncidents(ctx, store.IncidentFilter{Sort: "incident_number", Page: 2, PerPage: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].ID != created[4].ID || rows[1].ID != created[5].ID {
		t.Fatalf("page 2 of 4 by number: got %d rows", len(rows))
	}

	rows, _, err = st.ListIncidents(ctx, store.IncidentFilter{Page: 1, PerPage: 1})
	if err != nil || rows[0].ID != created[5].ID {
		t.Fatalf("default sort is not newest first")
	}
	if rows[0].RawData.V != nil {
		t.Fatal("list rows must not load raw_data")
	}

	after := created[2].CreatedAt
	rows, total, err = st.ListIncidents(ctx, store.IncidentFilter{CreatedAfter: &after, Page: 1, PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	if total != 3 || len(rows) != 3 || rows[0].ID != created[5].ID {
		t.Fatalf("created_after the third incident: total %d rows %d, want the last 3", total, len(rows))
	}
	before := created[2].CreatedAt
	_, total, err = st.ListIncidents(ctx, store.IncidentFilter{CreatedBefore: &before, Page: 1, PerPage: 10})
	if err != nil || total != 2 {
		t.Fatalf("created_before the third incident: total %d, want 2 (err %v)", total, err)
	}
}

func TestIncidentUpdateGetDelete(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	inc, err := st.CreateIncident(ctx, newIncident("low"))
	if err != nil {
		t.Fatal(err)
	}
	sev, res := "critical", "contained"
	got, err := st.UpdateIncident(ctx, inc.ID, store.IncidentUpdate{Severity: &sev, Resolution: &res})
	if err != nil {
		t.Fatal(err)
	}
	if got.Severity != "critical" || got.SeverityRank != 4 || got.Resolution != "contained" || got.RawData.V["subject"] != "hello" {
		t.Fatalf("update not applied: %+v", got)
	}
	if !got.UpdatedAt.After(inc.UpdatedAt) && !got.UpdatedAt.Equal(inc.UpdatedAt) {
		t.Fatal("updated_at went backwards")
	}
	if err := st.DeleteIncident(ctx, inc.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetIncident(ctx, inc.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get after delete: %v, want ErrNotFound", err)
	}
	if err := st.DeleteIncident(ctx, inc.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
	if _, err := st.GetIncident(ctx, "not-a-uuid"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get with a malformed id: %v, want ErrNotFound", err)
	}
}

// TestListTotalsMatchCounts checks the trigger-kept totals against a real
// count after creates, updates, triage, deletes and a batch of alerts.
func TestListTotalsMatchCounts(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	var ids []string
	for i, sev := range []string{"low", "high", "high", "critical", "medium", "high"} {
		in := newIncident(sev)
		if i%2 == 1 {
			in.IncidentType = "malware"
		}
		inc, err := st.CreateIncident(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, inc.ID)
	}
	resolved, critical := store.StatusResolved, "critical"
	if _, err := st.UpdateIncident(ctx, ids[1], store.IncidentUpdate{Status: &resolved, Severity: &critical}); err != nil {
		t.Fatal(err)
	}
	tr, _, err := st.BeginTriage(ctx, ids[2], false, &store.Triage{ID: "77777777-7777-7777-7777-777777777777", WorkflowID: "wf"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CompleteTriage(ctx, tr.ID, store.TriageOutcome{Verdict: store.Verdict{Classification: "benign"}}); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteIncident(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	// A batch of alerts inserts rows of several kinds in one statement.
	var batch []store.AlertIncident
	for i, sev := range []string{"high", "low", "high", "critical", "high"} {
		typ := []string{"phishing", "malware"}[i%2]
		batch = append(batch, store.AlertIncident{ExternalSource: "edr",
			NewIncident: store.NewIncident{Title: "alert", IncidentType: typ, Source: "edr", Severity: sev}})
	}
	for _, o := range st.CreateIncidentsFromAlerts(ctx, batch) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
	}
	filters := []store.IncidentFilter{
		{}, {Status: "open"}, {Status: "resolved"}, {Status: "triaged"}, {Severity: "high"},
		{Severity: "critical", Type: "malware"}, {Status: "open", Severity: "high", Type: "phishing"}, {Type: "none"},
	}
	for _, f := range filters {
		f.Page, f.PerPage = 1, 100
		rows, total, err := st.ListIncidents(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(rows)) != total {
			t.Errorf("filter %+v: total %d, but %d rows match", f, total, len(rows))
		}
		// A deeper page and a page past the last row report the same total.
		for _, page := range []int{2, 100} {
			f.Page, f.PerPage = page, 2
			if _, deeper, err := st.ListIncidents(ctx, f); err != nil || deeper != total {
				t.Errorf("filter %+v: total %d (%v), want %d as on page 1", f, deeper, err, total)
			}
		}
	}
}
