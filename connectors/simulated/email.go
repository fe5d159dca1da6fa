package simulated

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
)

// messageRow is a message the simulated gateway has acted on; messages
// without a row count as delivered.
type messageRow struct {
	MessageID string `gorm:"primaryKey"`
	Status    string
	Reason    string
	UpdatedAt time.Time
}

func (messageRow) TableName() string { return "sim_messages" }

// blockedSender is one blocked address or domain, stored lowercased.
type blockedSender struct {
	Sender    string `gorm:"primaryKey"`
	Reason    string
	BlockedAt time.Time
}

func (blockedSender) TableName() string { return "sim_blocked_senders" }

// emailGateway is the simulated connectors.EmailGateway.
type emailGateway struct{ *backend }

func (g *emailGateway) call(key, op string, req map[string]any) call {
	return call{key: key, connector: actions.ConnectorEmailGateway, operation: op, request: req}
}

// Quarantine moves a message into quarantine, creating it if the gateway
// has never seen it (the simulation has no mail flow of its own).
func (g *emailGateway) Quarantine(ctx context.Context, key, messageID, reason string) (connectors.Result, error) {
	if err := required("message_id", messageID); err != nil {
		return connectors.Result{}, err
	}
	req := map[string]any{"message_id": messageID, "reason": reason}
	return g.perform(ctx, g.call(key, "quarantine", req), func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		if _, err := insertIfAbsent(tx, &messageRow{MessageID: messageID, Status: connectors.MessageDelivered, UpdatedAt: now}); err != nil {
			return connectors.Result{}, fmt.Errorf("record message %s: %w", messageID, err)
		}
		var m messageRow
		if err := forUpdate(tx).Take(&m, "message_id = ?", messageID).Error; err != nil {
			return connectors.Result{}, fmt.Errorf("read message %s: %w", messageID, err)
		}
		msg := "message " + messageID + " quarantined"
		if m.Status == connectors.MessageQuarantined {
			msg = "message " + messageID + " already quarantined"
		} else if err := g.setStatus(tx, &m, connectors.MessageQuarantined, reason, now); err != nil {
			return connectors.Result{}, err
		}
		return connectors.Result{Success: true, Message: msg, Output: map[string]any{
			"message_id": messageID, "status": m.Status, "quarantined_at": timestamp(m.UpdatedAt),
		}}, nil
	})
}

// Release returns a quarantined message to its recipient. Releasing a
// message that is not in quarantine is refused: it would deliver mail
// nobody reviewed.
func (g *emailGateway) Release(ctx context.Context, key, messageID, reason string) (connectors.Result, error) {
	if err := required("message_id", messageID); err != nil {
		return connectors.Result{}, err
	}
	req := map[string]any{"message_id": messageID, "reason": reason}
	return g.perform(ctx, g.call(key, "release", req), func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		var m messageRow
		err := forUpdate(tx).Take(&m, "message_id = ?", messageID).Error
		if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
			return connectors.Result{}, fmt.Errorf("read message %s: %w", messageID, err)
		}
		if err != nil || m.Status != connectors.MessageQuarantined {
			return connectors.Result{}, connectors.Permanentf("message %s is not quarantined", messageID)
		}
		if err := g.setStatus(tx, &m, connectors.MessageReleased, reason, now); err != nil {
			return connectors.Result{}, err
		}
		return connectors.Result{Success: true, Message: "message " + messageID + " released", Output: map[string]any{
			"message_id": messageID, "status": m.Status, "released_at": timestamp(m.UpdatedAt),
		}}, nil
	})
}

func (g *emailGateway) setStatus(tx *gorm.DB, m *messageRow, status, reason string, now time.Time) error {
	m.Status, m.Reason, m.UpdatedAt = status, reason, now
	err := tx.Model(&messageRow{}).Where("message_id = ?", m.MessageID).
		Updates(map[string]any{"status": status, "reason": reason, "updated_at": now}).Error
	if err != nil {
		return fmt.Errorf("update message %s: %w", m.MessageID, err)
	}
	return nil
}

// MessageStatus reports a message's state; unknown messages were delivered.
func (g *emailGateway) MessageStatus(ctx context.Context, messageID string) (string, error) {
	var m messageRow
	err := g.db(ctx).Take(&m, "message_id = ?", messageID).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return connectors.MessageDelivered, nil
	case err != nil:
		return "", fmt.Errorf("read message %s: %w", messageID, err)
	}
	return m.Status, nil
}

// normalizeSender makes blocks case-insensitive, as mail addressing is in
// practice.
func normalizeSender(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// BlockSender blocks an address or a domain. Blocking a blocked sender
// succeeds and keeps the original block.
func (g *emailGateway) BlockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	if err := required("sender", sender); err != nil {
		return connectors.Result{}, err
	}
	s := normalizeSender(sender)
	req := map[string]any{"sender": s, "reason": reason}
	return g.perform(ctx, g.call(key, "block_sender", req), func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		created, err := insertIfAbsent(tx, &blockedSender{Sender: s, Reason: reason, BlockedAt: now})
		if err != nil {
			return connectors.Result{}, fmt.Errorf("block sender %s: %w", s, err)
		}
		var row blockedSender
		if err := tx.Take(&row, "sender = ?", s).Error; err != nil {
			return connectors.Result{}, fmt.Errorf("read blocked sender %s: %w", s, err)
		}
		msg := "sender " + s + " blocked"
		if !created {
			msg = "sender " + s + " already blocked"
		}
		return connectors.Result{Success: true, Message: msg, Output: map[string]any{
			"sender": s, "blocked": true, "blocked_at": timestamp(row.BlockedAt),
		}}, nil
	})
}

// UnblockSender lifts a block. Unblocking a sender that is not blocked
// succeeds: the desired state already holds, and a rollback must not fail
// because someone lifted the block by hand.
func (g *emailGateway) UnblockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	if err := required("sender", sender); err != nil {
		return connectors.Result{}, err
	}
	s := normalizeSender(sender)
	req := map[string]any{"sender": s, "reason": reason}
	return g.perform(ctx, g.call(key, "unblock_sender", req), func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		res := tx.Where("sender = ?", s).Delete(&blockedSender{})
		if res.Error != nil {
			return connectors.Result{}, fmt.Errorf("unblock sender %s: %w", s, res.Error)
		}
		msg := "sender " + s + " unblocked"
		if res.RowsAffected == 0 {
			msg = "sender " + s + " was not blocked"
		}
		return connectors.Result{Success: true, Message: msg, Output: map[string]any{
			"sender": s, "blocked": false, "unblocked_at": timestamp(now),
		}}, nil
	})
}

// SenderBlocked reports whether mail from sender is blocked, either by its
// own entry or, for an address, by a block on its domain.
func (g *emailGateway) SenderBlocked(ctx context.Context, sender string) (bool, error) {
	s := normalizeSender(sender)
	candidates := []string{s}
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		candidates = append(candidates, s[at+1:])
	}
	var n int64
	if err := g.db(ctx).Model(&blockedSender{}).Where("sender IN ?", candidates).Count(&n).Error; err != nil {
		return false, fmt.Errorf("check sender %s: %w", s, err)
	}
	return n > 0, nil
}

// CheckHealth implements connectors.HealthChecker.
func (g *emailGateway) CheckHealth(ctx context.Context) connectors.Health {
	return g.healthOf(ctx, "simulated-email-gateway", actions.ConnectorEmailGateway)
}
