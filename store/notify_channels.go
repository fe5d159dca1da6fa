package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// EventTest marks a test message sent through POST /api/notifications/test;
// no channel subscribes to it.
const EventTest EventType = "test"

// NotificationChannel is one destination for notifications with its
// routing rules. Secret configuration values live sealed in
// SecretsEncrypted, never in Config.
type NotificationChannel struct {
	ID               string `gorm:"primaryKey"`
	Name             string
	ChannelType      string
	Config           JSON[map[string]any]
	SecretsEncrypted string
	Events           JSON[[]string]
	Enabled          bool
	Severities       JSON[[]string]
	Sources          JSON[[]string]
	Hours            string
	Timezone         string
	Days             JSON[[]string]
	DedupWindowSecs  int64
	CreatedBy        string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// CreateChannel inserts a channel (with a new id unless one is set); a
// taken name is ErrConflict.
func (s *Store) CreateChannel(ctx context.Context, ch *NotificationChannel) error {
	if ch.ID == "" {
		ch.ID = uuid.NewString()
	}
	ch.CreatedAt, ch.UpdatedAt = Now(), Now()
	if err := s.db.WithContext(ctx).Create(ch).Error; err != nil {
		return fmt.Errorf("create channel: %w", translate(err))
	}
	return nil
}

// SaveChannel replaces a channel's fields.
func (s *Store) SaveChannel(ctx context.Context, ch *NotificationChannel) error {
	ch.UpdatedAt = Now()
	res := s.db.WithContext(ctx).Model(&NotificationChannel{}).Where("id = ?", ch.ID).
		Select("*").Omit("id", "created_at", "created_by").Updates(ch)
	if res.Error != nil {
		return fmt.Errorf("update channel: %w", translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// GetChannel reads one channel.
func (s *Store) GetChannel(ctx context.Context, id string) (*NotificationChannel, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var ch NotificationChannel
	if err := s.db.WithContext(ctx).Take(&ch, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &ch, nil
}

// ListChannels returns every channel by name; enabledOnly narrows it.
func (s *Store) ListChannels(ctx context.Context, enabledOnly bool) ([]NotificationChannel, error) {
	q := s.db.WithContext(ctx).Order("name")
	if enabledOnly {
		q = q.Where("enabled = ?", true)
	}
	var out []NotificationChannel
	if err := q.Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list channels: %w", err)
	}
	return out, nil
}

// DeleteChannel removes a channel; its delivery log stays.
func (s *Store) DeleteChannel(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&NotificationChannel{})
	if res.Error != nil {
		return fmt.Errorf("delete channel: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// Delivery statuses.
const (
	DeliveryPending    = "pending"
	DeliverySent       = "sent"
	DeliveryFailed     = "failed"
	DeliverySuppressed = "suppressed" // a duplicate within the channel's dedup window
)

// NotificationDelivery is the log entry of one event sent to one channel;
// its ID is the delivery id vendors receive.
type NotificationDelivery struct {
	ID             string `gorm:"primaryKey"`
	EventID        string
	ChannelID      string
	EventType      string
	IncidentID     string
	Status         string
	Attempts       int
	ProviderStatus int
	LastError      string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	SentAt         *time.Time
}

// AddDelivery creates the delivery of an event to a channel, or returns
// the one that exists: there is exactly one per (event, channel). When
// dedupWindow is set and the channel got the same event for the same
// incident within it, the new delivery is recorded as suppressed.
func (s *Store) AddDelivery(ctx context.Context, ev *NotificationEvent, channelID string, dedupWindow time.Duration) (*NotificationDelivery, error) {
	var out NotificationDelivery
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Take(&out, "event_id = ? AND channel_id = ?", ev.ID, channelID).Error
		if err == nil {
			return nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		now := Now()
		out = NotificationDelivery{ID: uuid.NewString(), EventID: ev.ID, ChannelID: channelID, EventType: ev.EventType,
			IncidentID: ev.IncidentID, Status: DeliveryPending, CreatedAt: now, UpdatedAt: now}
		if dedupWindow > 0 && ev.IncidentID != "" {
			var dup int64
			err := tx.Model(&NotificationDelivery{}).
				Where("channel_id = ? AND event_type = ? AND incident_id = ? AND created_at > ? AND status <> ?",
					channelID, ev.EventType, ev.IncidentID, now.Add(-dedupWindow), DeliverySuppressed).
				Limit(1).Count(&dup).Error
			if err != nil {
				return err
			}
			if dup > 0 {
				out.Status, out.LastError = DeliverySuppressed, "same event for this incident within the dedup window"
			}
		}
		return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&out).Error
	})
	if err != nil {
		return nil, fmt.Errorf("add delivery: %w", translate(err))
	}
	return &out, nil
}

// GetDelivery reads one delivery.
func (s *Store) GetDelivery(ctx context.Context, id string) (*NotificationDelivery, error) {
	var d NotificationDelivery
	if err := s.db.WithContext(ctx).Take(&d, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &d, nil
}

// DeliveryAttempt is the outcome of one try to send a delivery.
type DeliveryAttempt struct {
	Status         string // DeliveryPending (will retry), DeliverySent or DeliveryFailed
	ProviderStatus int
	Error          string
}

// RecordAttempt counts an attempt on a pending delivery and stores its
// outcome; a delivery that has ended stays as it is (false).
func (s *Store) RecordAttempt(ctx context.Context, id string, a DeliveryAttempt) (bool, error) {
	now := Now()
	changes := map[string]any{"attempts": gorm.Expr("attempts + 1"), "status": a.Status,
		"provider_status": a.ProviderStatus, "last_error": a.Error, "updated_at": now}
	if a.Status == DeliverySent {
		changes["sent_at"] = now
	}
	res := s.db.WithContext(ctx).Model(&NotificationDelivery{}).
		Where("id = ? AND status = ?", id, DeliveryPending).Updates(changes)
	if res.Error != nil {
		return false, fmt.Errorf("record delivery attempt: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// GiveUpDelivery marks a pending delivery failed without another attempt.
func (s *Store) GiveUpDelivery(ctx context.Context, id, reason string) error {
	return s.db.WithContext(ctx).Model(&NotificationDelivery{}).
		Where("id = ? AND status = ?", id, DeliveryPending).
		Updates(map[string]any{"status": DeliveryFailed, "last_error": reason, "updated_at": Now()}).Error
}

// DeliveryFilter selects log entries; zero values mean no filter.
type DeliveryFilter struct {
	ChannelID string
	EventType string
	Status    string
}

// ListDeliveries returns one page of the delivery log, newest first.
func (s *Store) ListDeliveries(ctx context.Context, f DeliveryFilter, p Page) ([]NotificationDelivery, int64, error) {
	q := s.db.WithContext(ctx).Model(&NotificationDelivery{}).Session(&gormSession)
	if f.ChannelID != "" {
		q = q.Where("channel_id = ?", f.ChannelID)
	}
	if f.EventType != "" {
		q = q.Where("event_type = ?", f.EventType)
	}
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count deliveries: %w", err)
	}
	var out []NotificationDelivery
	if err := p.apply(q.Order("created_at DESC, id DESC")).Find(&out).Error; err != nil {
		return nil, 0, fmt.Errorf("list deliveries: %w", err)
	}
	return out, total, nil
}

// PendingDeliveries counts pending deliveries per channel id.
func (s *Store) PendingDeliveries(ctx context.Context) (map[string]int64, error) {
	var rows []struct {
		ChannelID string
		N         int64
	}
	err := s.db.WithContext(ctx).Model(&NotificationDelivery{}).Select("channel_id, COUNT(*) AS n").
		Where("status = ?", DeliveryPending).Group("channel_id").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("count pending deliveries: %w", err)
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.ChannelID] = r.N
	}
	return out, nil
}

// UserByEmail reads the enabled user with the given address (case-insensitive).
func (s *Store) UserByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).Where("lower(email) = lower(?) AND enabled = ?", email, true).Take(&u).Error
	if err != nil {
		return nil, translate(err)
	}
	return &u, nil
}

// StalePending lists, per channel, the pending deliveries created before
// cutoff, oldest first: the relay hands them again when their channel's
// workflow no longer runs.
func (s *Store) StalePending(ctx context.Context, cutoff time.Time, limit int) (map[string][]string, error) {
	var rows []NotificationDelivery
	err := s.db.WithContext(ctx).Select("id, channel_id").Where("status = ? AND created_at < ?", DeliveryPending, cutoff).
		Order("created_at, id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("read stale deliveries: %w", err)
	}
	out := map[string][]string{}
	for _, d := range rows {
		out[d.ChannelID] = append(out[d.ChannelID], d.ID)
	}
	return out, nil
}
