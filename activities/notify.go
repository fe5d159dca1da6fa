package activities

import (
	"context"

	"github.com/vigil-soc/vigil/notify"
)

// DeliverNotificationInput names one delivery to attempt.
type DeliverNotificationInput struct {
	DeliveryID string
}

// DeliverNotification makes one attempt at a pending delivery and records
// it in the delivery log; a delivery that has ended is left alone.
func (a *Activities) DeliverNotification(ctx context.Context, in DeliverNotificationInput) (notify.Outcome, error) {
	return a.Notify.Deliver(ctx, in.DeliveryID)
}

// GiveUpNotificationInput names a delivery whose retries ran out.
type GiveUpNotificationInput struct {
	DeliveryID string
	LastError  string
}

// GiveUpNotification marks a delivery failed after its last retry.
func (a *Activities) GiveUpNotification(ctx context.Context, in GiveUpNotificationInput) error {
	return a.Notify.GiveUp(ctx, in.DeliveryID, in.LastError)
}
