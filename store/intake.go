package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Intake queue kinds and statuses.
const (
	IntakeAlert    = "alert"    // a raw alert still to become an incident
	IntakeTriage   = "triage"   // an incident whose automated triage is still to start
	IntakePlaybook = "playbook" // an incident a named playbook (Payload) is still to run on
	IntakeAutoRun  = "auto_run" // a new incident whose auto-run playbooks are still to start

	IntakeQueued = "queued"
	IntakeDone   = "done"
	IntakeFailed = "failed"
)

// IntakeItem is one entry of the durable intake queue.
type IntakeItem struct {
	Seq         int64 `gorm:"primaryKey;autoIncrement"`
	ID          string
	Kind        string
	Source      string
	Payload     string
	IncidentID  string
	Status      string
	Attempts    int
	LastError   string
	AvailableAt time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TableName names the queue table.
func (IntakeItem) TableName() string { return "intake_queue" }

func newIntakeItem(kind, source, payload, incidentID string) *IntakeItem {
	now := Now()
	return &IntakeItem{ID: uuid.NewString(), Kind: kind, Source: source, Payload: payload,
		IncidentID: incidentID, Status: IntakeQueued, AvailableAt: now, CreatedAt: now, UpdatedAt: now}
}

// ErrReplay means a webhook signature was already accepted once.
var ErrReplay = errors.New("signature already accepted")

// Replay identifies an accepted webhook signature; it is recorded in the
// same transaction as the alert it admitted, so a failed write never
// blocks the sender's retry and a replay can never slip past a commit.
type Replay struct {
	Key       string // hash of the source and the MAC bytes the signature carries
	ExpiresAt time.Time
}

func rememberReplay(tx *gorm.DB, source string, r *Replay) error {
	if r == nil {
		return nil
	}
	res := tx.Clauses(clause.OnConflict{DoNothing: true}).
		Create(&webhookReplay{SignatureHash: r.Key, Source: source, ExpiresAt: r.ExpiresAt})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrReplay
	}
	return nil
}

// EnqueueAlert stores a raw alert durably for the dispatcher.
func (s *Store) EnqueueAlert(ctx context.Context, source string, payload []byte, replay *Replay) (*IntakeItem, error) {
	it := newIntakeItem(IntakeAlert, source, string(payload), "")
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := rememberReplay(tx, source, replay); err != nil {
			return err
		}
		return tx.Create(it).Error
	})
	if err != nil {
		return nil, fmt.Errorf("enqueue alert: %w", err)
	}
	return it, nil
}

// AlertIncident describes the incident an alert becomes.
type AlertIncident struct {
	NewIncident
	ExternalSource string
	ExternalID     string
	// DedupWindow joins an alert to an incident of the same source and
	// external id created within it; zero disables deduplication.
	DedupWindow time.Duration
	// JoinUnresolved also joins an alert to the newest incident of its
	// external id that is not resolved, however old: senders that notify
	// the end of an alert (Alertmanager, Grafana) repeat a firing one for
	// as long as it fires.
	JoinUnresolved bool
	// IntakeID marks an incident made from a queued alert.
	IntakeID string
	// QueueTriage enqueues automated triage in the same transaction.
	QueueTriage bool
	// QueuePlaybook enqueues a run of the named playbook instead of triage.
	QueuePlaybook string
	// Replay, when set, records the admitting signature in the same
	// transaction; a second use fails with ErrReplay.
	Replay *Replay
}

// CreateIncidentFromAlert creates the incident for an alert, or joins the
// alert to the incident its upstream id already has within the dedup
// window (deduplicated true). Triage, when asked for, is queued in the same
// transaction, so an accepted alert never loses its automation.
func (s *Store) CreateIncidentFromAlert(ctx context.Context, a AlertIncident) (inc *Incident, deduplicated bool, err error) {
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		inc, deduplicated, err = s.incidentFromAlertTx(tx, a)
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("create incident from alert: %w", translate(err))
	}
	return inc, deduplicated, nil
}

// AlertOutcome is what became of one alert of a batch.
type AlertOutcome struct {
	Incident     *Incident
	Deduplicated bool
	Err          error
}

// CreateIncidentsFromAlerts is CreateIncidentFromAlert for a batch of
// alerts in one transaction, so they share one commit (group commit):
// nothing is reported created before the commit returns. An alert whose
// signature was already accepted gets ErrReplay and the others go on,
// since the replay check changes nothing when it refuses. Any other error
// rolls the batch back, and each alert is then retried in a transaction
// of its own, so one bad alert never fails the others.
func (s *Store) CreateIncidentsFromAlerts(ctx context.Context, batch []AlertIncident) []AlertOutcome {
	out := make([]AlertOutcome, len(batch))
	if len(batch) == 1 {
		out[0].Incident, out[0].Deduplicated, out[0].Err = s.CreateIncidentFromAlert(ctx, batch[0])
		return out
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, a := range batch {
			if a.IntakeID != "" {
				return errBatchOrder
			}
		}
		res, err := s.createAlertBatchTx(tx, batch)
		if err != nil {
			return err
		}
		for i := range res {
			if res[i].Err != nil {
				res[i].Err = fmt.Errorf("create incident from alert: %w", res[i].Err)
			}
		}
		copy(out, res)
		return nil
	})
	if err == nil {
		return out
	}
	for i, a := range batch {
		out[i] = AlertOutcome{}
		out[i].Incident, out[i].Deduplicated, out[i].Err = s.CreateIncidentFromAlert(ctx, a)
	}
	return out
}

// incidentFromAlertTx is one alert's work inside tx. The replay check
// comes first and writes nothing when it refuses.
func (s *Store) incidentFromAlertTx(tx *gorm.DB, a AlertIncident) (*Incident, bool, error) {
	if err := rememberReplay(tx, a.ExternalSource, a.Replay); err != nil {
		return nil, false, err
	}
	if a.IntakeID != "" {
		var done Incident
		if err := tx.Take(&done, "intake_id = ?", a.IntakeID).Error; err == nil {
			return &done, false, nil
		}
	}
	if a.ExternalID != "" && a.DedupWindow > 0 {
		existing, err := s.joinDuplicate(tx, a)
		if err != nil || existing != nil {
			return existing, existing != nil, err
		}
	}
	created, err := s.createIncidentTx(tx, a.NewIncident, func(i *Incident) {
		i.ExternalSource, i.ExternalID, i.IntakeID = a.ExternalSource, a.ExternalID, a.IntakeID
		now := i.CreatedAt
		i.LastSeenAt = &now
	})
	if err != nil {
		return nil, false, err
	}
	switch {
	case a.QueuePlaybook != "":
		err = tx.Create(newIntakeItem(IntakePlaybook, a.ExternalSource, a.QueuePlaybook, created.ID)).Error
	case a.QueueTriage:
		err = queueTriages(tx, []*IntakeItem{newIntakeItem(IntakeTriage, a.ExternalSource, "", created.ID)})
	}
	return created, false, err
}

// joinDuplicate counts the alert as another occurrence of the incident
// its upstream id already has within the dedup window, if there is one.
func (s *Store) joinDuplicate(tx *gorm.DB, a AlertIncident) (*Incident, error) {
	if s.dialect == DialectPostgres {
		// Serialise concurrent arrivals of one upstream alert.
		if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", a.ExternalSource+"\n"+a.ExternalID).Error; err != nil {
			return nil, err
		}
	}
	var existing Incident
	err := tx.Where("external_source = ? AND external_id = ?", a.ExternalSource, a.ExternalID).
		Where(recentOrOpen(Now().Add(-a.DedupWindow), a.JoinUnresolved)).
		Order("created_at DESC").Take(&existing).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	now := Now()
	if err := tx.Model(&Incident{}).Where("id = ?", existing.ID).Updates(map[string]any{
		"occurrences": gorm.Expr("occurrences + 1"), "last_seen_at": now, "updated_at": now,
	}).Error; err != nil {
		return nil, err
	}
	existing.Occurrences++
	existing.LastSeenAt = &now
	return &existing, nil
}

// recentOrOpen selects incidents created after since, or, with open, also
// those not resolved.
func recentOrOpen(since time.Time, open bool) clause.Expr {
	if open {
		return gorm.Expr("(created_at > ? OR status <> ?)", since, StatusResolved)
	}
	return gorm.Expr("created_at > ?", since)
}

// NextIntakes returns up to limit queued items that are due, oldest first.
func (s *Store) NextIntakes(ctx context.Context, limit int, kinds ...string) ([]IntakeItem, error) {
	var items []IntakeItem
	err := s.db.WithContext(ctx).
		Where("status = ? AND kind IN ? AND available_at <= ?", IntakeQueued, kinds, Now()).
		Order("seq").Limit(limit).Find(&items).Error
	return items, err
}

// IntakeCompletion is a processed queue entry and the incident it made or
// acted on.
type IntakeCompletion struct {
	Seq        int64
	IncidentID string
}

// CompleteIntakes marks items done in one statement, so entries processed
// side by side share a commit.
func (s *Store) CompleteIntakes(ctx context.Context, done []IntakeCompletion) error {
	if len(done) == 0 {
		return nil
	}
	var sql strings.Builder
	args := make([]any, 0, 3*len(done)+2)
	sql.WriteString("UPDATE intake_queue SET status = ?, updated_at = ?, incident_id = CASE seq")
	args = append(args, IntakeDone, Now())
	seqs := make([]int64, len(done))
	for i, d := range done {
		sql.WriteString(" WHEN ? THEN ?")
		args = append(args, d.Seq, d.IncidentID)
		seqs[i] = d.Seq
	}
	sql.WriteString(" ELSE incident_id END WHERE seq IN ?")
	args = append(args, seqs)
	if err := s.db.WithContext(ctx).Exec(sql.String(), args...).Error; err != nil {
		return fmt.Errorf("complete intake entries: %w", err)
	}
	return nil
}

// RetryIntake records a failed attempt and makes the item due again after
// delay; after maxAttempts it is marked failed and kept for inspection.
func (s *Store) RetryIntake(ctx context.Context, seq int64, cause string, delay time.Duration, maxAttempts int) error {
	var it IntakeItem
	if err := s.db.WithContext(ctx).Take(&it, "seq = ?", seq).Error; err != nil {
		return translate(err)
	}
	status := IntakeQueued
	if it.Attempts+1 >= maxAttempts {
		status = IntakeFailed
	}
	return s.db.WithContext(ctx).Model(&IntakeItem{}).Where("seq = ?", seq).Updates(map[string]any{
		"attempts": it.Attempts + 1, "last_error": cause, "status": status,
		"available_at": Now().Add(delay), "updated_at": Now(),
	}).Error
}

// IntakeBacklog counts queued items of the given kinds.
func (s *Store) IntakeBacklog(ctx context.Context, kinds ...string) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&IntakeItem{}).Where("status = ? AND kind IN ?", IntakeQueued, kinds).Count(&n).Error
	return n, err
}
