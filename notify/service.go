package notify

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/vigil-soc/vigil/outbound"
	"time"

	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// Service reads channels, renders messages and sends them. It is shared
// by the delivery activities, the relay and the API.
type Service struct {
	Store *store.Store
	// Secrets seals channel secrets; nil refuses to store them.
	Secrets *secrets.Box
	Links   Links
	// Policy answers the outbound policy in force; nil means the default
	// (https only, no internal addresses).
	Policy  func(context.Context) outbound.Policy
	Metrics *Metrics
}

// sealContext binds a channel's sealed secrets to its id.
func sealContext(id string) string { return store.NotificationSecretContext + id }

// ErrNoSecretKey means a channel has secrets but VIGIL_SECRET_KEY is unset.
var ErrNoSecretKey = errors.New("VIGIL_SECRET_KEY is not set: channel secrets cannot be stored")

// SealSecrets seals a channel's secret values for storage.
func (s *Service) SealSecrets(id string, vals map[string]string) (string, error) {
	if len(vals) == 0 {
		return "", nil
	}
	if s.Secrets == nil {
		return "", ErrNoSecretKey
	}
	b, _ := json.Marshal(vals)
	return s.Secrets.Seal(string(b), sealContext(id))
}

// OpenSecrets opens a stored channel's secret values.
func (s *Service) OpenSecrets(ch *store.NotificationChannel) (map[string]string, error) {
	out := map[string]string{}
	if ch.SecretsEncrypted == "" {
		return out, nil
	}
	if s.Secrets == nil {
		return nil, ErrNoSecretKey
	}
	plain, err := s.Secrets.Open(ch.SecretsEncrypted, sealContext(ch.ID))
	if err != nil {
		return nil, fmt.Errorf("open channel secrets: %w", err)
	}
	if err := json.Unmarshal([]byte(plain), &out); err != nil {
		return nil, fmt.Errorf("decode channel secrets: %w", err)
	}
	return out, nil
}

// Channel reads a channel with its secrets opened.
func (s *Service) Channel(ctx context.Context, id string) (*Channel, error) {
	row, err := s.Store.GetChannel(ctx, id)
	if err != nil {
		return nil, err
	}
	sec, err := s.OpenSecrets(row)
	if err != nil {
		return nil, err
	}
	return &Channel{NotificationChannel: row, Secrets: sec}, nil
}

func (s *Service) policy(ctx context.Context) outbound.Policy {
	if s.Policy == nil {
		return outbound.Policy{}
	}
	return s.Policy(ctx)
}

// targetURL is the address a channel sends to, for the outbound check.
func targetURL(ch *Channel) string {
	switch ch.ChannelType {
	case TypeChatA, TypeChatB:
		return ch.Str("webhook_url")
	case TypeOncall:
		if u := ch.Str("url"); u != "" {
			return u
		}
		return PagerDutyEventsURL
	case TypeWebhook:
		return ch.Str("url")
	}
	return ""
}

// Send renders nothing and decides nothing: it sends m over ch once.
func (s *Service) Send(ctx context.Context, ch *Channel, m *Message) Result {
	o := s.policy(ctx)
	if u := targetURL(ch); ch.ChannelType != TypeEmail {
		if err := o.CheckURL(u); err != nil {
			return permanent(0, "outbound policy: %v", err)
		}
	}
	client := o.Client(30 * time.Second)
	switch ch.ChannelType {
	case TypeChatA:
		return sendSlack(ctx, client, ch, m)
	case TypeChatB:
		return sendTeams(ctx, client, ch, m)
	case TypeOncall:
		return sendPagerDuty(ctx, client, ch, m)
	case TypeEmail:
		return sendEmail(ctx, o, ch, m)
	case TypeWebhook:
		return sendWebhook(ctx, client, ch, m, time.Now())
	}
	return permanent(0, "unknown channel type %q", ch.ChannelType)
}

// Outcome is what one delivery attempt left behind, for the channel's
// workflow to pace and retry.
type Outcome struct {
	// Done means the delivery has ended (sent, failed or ended before).
	Done bool
	// Attempted means a message went out to the vendor (or tried to).
	Attempted      bool
	Status         string
	ProviderStatus int
	Error          string
	RetryAfter     time.Duration
	// Interval is the least time before the channel's next message.
	Interval time.Duration
	// GiveUpAt is when retrying stops.
	GiveUpAt time.Time
}

// Deliver makes one attempt at a pending delivery and records it. A
// delivery that has ended, or whose channel is gone, is not sent again.
func (s *Service) Deliver(ctx context.Context, deliveryID string) (Outcome, error) {
	d, err := s.Store.GetDelivery(ctx, deliveryID)
	if err != nil {
		return Outcome{}, fmt.Errorf("read delivery %s: %w", deliveryID, err)
	}
	if d.Status != store.DeliveryPending {
		return Outcome{Done: true, Status: d.Status}, nil
	}
	ch, err := s.Channel(ctx, d.ChannelID)
	if errors.Is(err, store.ErrNotFound) {
		return Outcome{Done: true, Status: store.DeliveryFailed},
			s.Store.GiveUpDelivery(ctx, d.ID, "the channel was deleted")
	}
	if err != nil {
		return Outcome{}, err
	}
	ev, err := s.Store.GetEvent(ctx, d.EventID)
	if err != nil {
		return Outcome{}, fmt.Errorf("read event %s: %w", d.EventID, err)
	}
	res := s.Send(ctx, ch, NewMessage(ev, d, s.Links))
	out := Outcome{Interval: ch.Interval(), GiveUpAt: d.CreatedAt.Add(ch.GiveUp()), ProviderStatus: res.ProviderStatus,
		RetryAfter: res.RetryAfter, Status: store.DeliverySent, Attempted: true}
	switch {
	case res.Err == nil:
		out.Done = true
	case res.Retryable:
		out.Status, out.Error = store.DeliveryPending, res.Err.Error()
	default:
		out.Done, out.Status, out.Error = true, store.DeliveryFailed, res.Err.Error()
	}
	if _, err := s.Store.RecordAttempt(ctx, d.ID, store.DeliveryAttempt{Status: out.Status,
		ProviderStatus: res.ProviderStatus, Error: out.Error}); err != nil {
		return Outcome{}, err
	}
	s.Metrics.observe(ch.ChannelType, out.Status, time.Since(d.CreatedAt))
	return out, nil
}

// GiveUp fails a delivery whose retries ran out.
func (s *Service) GiveUp(ctx context.Context, deliveryID, lastError string) error {
	d, err := s.Store.GetDelivery(ctx, deliveryID)
	if err != nil {
		return err
	}
	if err := s.Store.GiveUpDelivery(ctx, deliveryID, "gave up: "+lastError); err != nil {
		return err
	}
	if ch, err := s.Store.GetChannel(ctx, d.ChannelID); err == nil {
		s.Metrics.observe(ch.ChannelType, store.DeliveryFailed, 0)
	}
	return nil
}

// rootCAs trusts config ca_pem besides the system roots (a private mail relay).
func rootCAs(ch *Channel) *x509.CertPool {
	pemText := ch.Str("ca_pem")
	if pemText == "" {
		return nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	pool.AppendCertsFromPEM([]byte(pemText))
	return pool
}

// TestResult is the outcome of a test message.
type TestResult struct {
	DeliveryID     string `json:"delivery_id"`
	Status         string `json:"status"`
	ProviderStatus int    `json:"provider_status"`
	Error          string `json:"error,omitempty"`
}

// SendTest sends message over a channel now, once, and records it in the
// delivery log like any other delivery.
func (s *Service) SendTest(ctx context.Context, channelID, message, by string) (TestResult, error) {
	if _, err := s.Store.GetChannel(ctx, channelID); err != nil {
		return TestResult{}, err
	}
	ev, err := s.Store.RecordEvent(ctx, store.EventTest, map[string]any{"message": message, "requested_by": by})
	if err != nil {
		return TestResult{}, err
	}
	d, err := s.Store.AddDelivery(ctx, ev, channelID, 0)
	if err != nil {
		return TestResult{}, err
	}
	out, err := s.Deliver(ctx, d.ID)
	if err != nil {
		return TestResult{}, err
	}
	if !out.Done {
		out.Status = store.DeliveryFailed
		if err := s.Store.GiveUpDelivery(ctx, d.ID, out.Error); err != nil {
			return TestResult{}, err
		}
	}
	return TestResult{DeliveryID: d.ID, Status: out.Status, ProviderStatus: out.ProviderStatus, Error: out.Error}, nil
}
