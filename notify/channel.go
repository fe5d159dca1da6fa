// Package notify sends Vigil's events to notification channels: chat
// (Slack, Teams), on-call (PagerDuty), e-mail and signed webhooks. It holds
// the routing rules, each vendor's payload contract and the outbound URL
// policy; durable delivery runs in the per-channel workflow.
package notify

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// Channel types.
const (
	TypeChatA   = "chat_a"  // Slack incoming webhook
	TypeChatB   = "chat_b"  // Microsoft Teams Workflows webhook
	TypeOncall  = "oncall"  // PagerDuty Events API v2
	TypeEmail   = "email"   // SMTP
	TypeWebhook = "webhook" // any URL, signed when a secret is set
)

// ChannelTypes lists every channel type.
var ChannelTypes = []string{TypeChatA, TypeChatB, TypeOncall, TypeEmail, TypeWebhook}

// SecretKeys are the configuration values that are stored sealed and never
// shown again.
var SecretKeys = []string{"webhook_url", "routing_key", "integration_key", "password", "secret", "signing_secret", "bot_token"}

// Mask stands for a secret value that is set.
const Mask = "********"

// defaultRates are the vendors' documented rates, in messages per minute
// per channel; zero means unlimited.
var defaultRates = map[string]int{TypeChatA: 60, TypeChatB: 240, TypeOncall: 120}

// DefaultGiveUp is how long a delivery is retried before it is failed.
const DefaultGiveUp = time.Hour

// Channel is a stored channel with its secrets opened.
type Channel struct {
	*store.NotificationChannel
	Secrets map[string]string
}

// Str reads a configuration or secret value as a string.
func (c *Channel) Str(key string) string {
	if v, ok := c.Secrets[key]; ok {
		return v
	}
	if v, ok := c.Config.V[key].(string); ok {
		return v
	}
	return ""
}

// List reads a configuration value that holds a list of strings.
func (c *Channel) List(key string) []string {
	switch v := c.Config.V[key].(type) {
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		if v == "" {
			return nil
		}
		return strings.Split(v, ",")
	}
	return nil
}

// Interval is the least time between two messages on the channel: the
// vendor's rate, or config rate_per_minute when set.
func (c *Channel) Interval() time.Duration {
	rate := defaultRates[c.ChannelType]
	if v, ok := c.Config.V["rate_per_minute"].(float64); ok && v > 0 {
		rate = int(v)
	}
	if rate <= 0 {
		return 0
	}
	return time.Minute / time.Duration(rate)
}

// GiveUp is how long a delivery is retried: config give_up, or DefaultGiveUp.
func (c *Channel) GiveUp() time.Duration {
	if d, err := time.ParseDuration(c.Str("give_up")); err == nil && d > 0 {
		return d
	}
	return DefaultGiveUp
}

var dayNames = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// Matches reports whether the channel takes an event: it subscribes to
// its type, and the severity, source, hours and day (at the time the event
// happened, in the channel's time zone) pass its rules.
func Matches(ch *store.NotificationChannel, ev *store.NotificationEvent) bool {
	if !ch.Enabled || !slices.Contains(ch.Events.V, ev.EventType) {
		return false
	}
	if len(ch.Severities.V) > 0 && ev.Severity != "" && !slices.Contains(ch.Severities.V, ev.Severity) {
		return false
	}
	if len(ch.Sources.V) > 0 && ev.Source != "" && !slices.Contains(ch.Sources.V, ev.Source) {
		return false
	}
	loc, err := time.LoadLocation(ch.Timezone)
	if err != nil {
		loc = time.UTC
	}
	at := ev.CreatedAt.In(loc)
	if len(ch.Days.V) > 0 && !slices.Contains(ch.Days.V, dayNames[at.Weekday()]) {
		return false
	}
	if ch.Hours != "" {
		from, to, err := ParseHours(ch.Hours)
		if err == nil {
			m := at.Hour()*60 + at.Minute()
			if from <= to && (m < from || m >= to) || from > to && m < from && m >= to {
				return false
			}
		}
	}
	return true
}

// ParseHours reads HH:MM-HH:MM into minutes of the day; a range whose end
// is before its start wraps past midnight.
func ParseHours(s string) (from, to int, err error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, fmt.Errorf("hours must look like 09:00-17:00")
	}
	if from, err = parseClock(a); err != nil {
		return 0, 0, err
	}
	if to, err = parseClock(b); err != nil {
		return 0, 0, err
	}
	return from, to, nil
}

func parseClock(s string) (int, error) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a time of day HH:MM", s)
	}
	return t.Hour()*60 + t.Minute(), nil
}

// ValidDay reports whether d names a weekday (mon..sun).
func ValidDay(d string) bool { return slices.Contains(dayNames, d) }
