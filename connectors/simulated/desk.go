package simulated

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
)

// ticketRow is one filed ticket.
type ticketRow struct {
	TicketID    string `gorm:"primaryKey"`
	Title       string
	Description string
	Priority    string
	CreatedAt   time.Time
}

func (ticketRow) TableName() string { return "sim_tickets" }

// notificationRow is one sent notification.
type notificationRow struct {
	ID        string `gorm:"primaryKey"`
	Recipient string
	Channel   string
	Message   string
	SentAt    time.Time
}

func (notificationRow) TableName() string { return "sim_notifications" }

// ticketing is the simulated connectors.Ticketing.
type ticketing struct{ *backend }

// CreateTicket files a ticket numbered SIM-000001, SIM-000002, ...
func (t *ticketing) CreateTicket(ctx context.Context, key string, tk connectors.Ticket) (connectors.Result, error) {
	if err := required("title", tk.Title); err != nil {
		return connectors.Result{}, err
	}
	if tk.Priority == "" {
		tk.Priority = "medium"
	}
	if err := oneOf(actions.CreateTicket, "priority", tk.Priority); err != nil {
		return connectors.Result{}, err
	}
	req := map[string]any{"title": tk.Title, "description": tk.Description, "priority": tk.Priority}
	c := call{key: key, connector: actions.ConnectorTicketing, operation: "create_ticket", request: req}
	return t.perform(ctx, c, func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		seq, err := nextValue(tx, "ticket")
		if err != nil {
			return connectors.Result{}, err
		}
		row := ticketRow{TicketID: fmt.Sprintf("SIM-%06d", seq), Title: tk.Title, Description: tk.Description,
			Priority: tk.Priority, CreatedAt: now}
		if err := tx.Create(&row).Error; err != nil {
			return connectors.Result{}, fmt.Errorf("file ticket: %w", err)
		}
		return connectors.Result{Success: true, Message: "ticket " + row.TicketID + " created", Output: map[string]any{
			"ticket_id": row.TicketID, "url": "sim://tickets/" + row.TicketID,
			"priority": row.Priority, "created_at": timestamp(now),
		}}, nil
	})
}

// nextValue advances a named counter. The upsert's row lock makes
// concurrent allocations queue, and a rolled-back call gives its number
// back.
func nextValue(tx *gorm.DB, name string) (int64, error) {
	var v int64
	err := tx.Raw(`INSERT INTO sim_counters (name, last_value) VALUES (?, 1)
		ON CONFLICT (name) DO UPDATE SET last_value = sim_counters.last_value + 1
		RETURNING last_value`, name).Scan(&v).Error
	if err != nil {
		return 0, fmt.Errorf("allocate %s number: %w", name, err)
	}
	return v, nil
}

// CheckHealth implements connectors.HealthChecker.
func (t *ticketing) CheckHealth(ctx context.Context) connectors.Health {
	return t.healthOf(ctx, "simulated-ticketing", actions.ConnectorTicketing)
}

// notifier is the simulated connectors.Notifier.
type notifier struct{ *backend }

// NotifyUser records a message to a user on a channel ("" means email).
func (n *notifier) NotifyUser(ctx context.Context, key, user, message, channel string) (connectors.Result, error) {
	if err := required("user", user); err != nil {
		return connectors.Result{}, err
	}
	if err := required("message", message); err != nil {
		return connectors.Result{}, err
	}
	if channel == "" {
		channel = "email"
	}
	if err := oneOf(actions.NotifyUser, "channel", channel); err != nil {
		return connectors.Result{}, err
	}
	req := map[string]any{"user": user, "message": message, "channel": channel}
	c := call{key: key, connector: actions.ConnectorNotifier, operation: "notify_user", request: req}
	return n.perform(ctx, c, func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		row := notificationRow{ID: uuid.NewString(), Recipient: user, Channel: channel, Message: message, SentAt: now}
		if err := tx.Create(&row).Error; err != nil {
			return connectors.Result{}, fmt.Errorf("send notification: %w", err)
		}
		return connectors.Result{Success: true, Message: "notified " + user + " by " + channel, Output: map[string]any{
			"notification_id": row.ID, "delivered": true, "user": user, "channel": channel, "sent_at": timestamp(now),
		}}, nil
	})
}

// CheckHealth implements connectors.HealthChecker.
func (n *notifier) CheckHealth(ctx context.Context) connectors.Health {
	return n.healthOf(ctx, "simulated-notifier", actions.ConnectorNotifier)
}
