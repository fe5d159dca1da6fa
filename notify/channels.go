package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/vigil-soc/vigil/store"
)

// ChannelInput is a channel as callers write it; nil means not given (on
// update: unchanged). Secret config values are write-only: Mask or absent
// keeps the stored value, an empty string removes it.
type ChannelInput struct {
	Name        *string        `json:"name"`
	ChannelType *string        `json:"channel_type"`
	Config      map[string]any `json:"config"`
	Events      *[]string      `json:"events"`
	Enabled     *bool          `json:"enabled"`
	Severities  *[]string      `json:"severities"`
	Sources     *[]string      `json:"sources"`
	Hours       *string        `json:"hours"`
	Timezone    *string        `json:"timezone"`
	Days        *[]string      `json:"days"`
	DedupWindow *string        `json:"dedup_window"`
}

// ChannelView is a channel as callers read it, secrets masked.
type ChannelView struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	ChannelType string         `json:"channel_type"`
	Config      map[string]any `json:"config"`
	Events      []string       `json:"events"`
	Enabled     bool           `json:"enabled"`
	Severities  []string       `json:"severities"`
	Sources     []string       `json:"sources"`
	Hours       string         `json:"hours"`
	Timezone    string         `json:"timezone"`
	Days        []string       `json:"days"`
	DedupWindow string         `json:"dedup_window"`
	CreatedAt   time.Time      `json:"created_at"`
	UpdatedAt   time.Time      `json:"updated_at"`
}

// ValidationError names each offending field of a channel.
type ValidationError map[string]string

func (e ValidationError) Error() string {
	keys := slices.Sorted(maps.Keys(e))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+": "+e[k])
	}
	return "invalid channel: " + strings.Join(parts, "; ")
}

// View renders a stored channel with its secrets masked.
func (s *Service) View(ch *store.NotificationChannel) ChannelView {
	cfg := maps.Clone(ch.Config.V)
	if cfg == nil {
		cfg = map[string]any{}
	}
	if sec, err := s.OpenSecrets(ch); err == nil {
		for k := range sec {
			cfg[k] = Mask
		}
	} else if ch.SecretsEncrypted != "" {
		cfg["secrets"] = Mask
	}
	nonNil := func(v []string) []string {
		if v == nil {
			return []string{}
		}
		return v
	}
	dedup := ""
	if ch.DedupWindowSecs > 0 {
		dedup = (time.Duration(ch.DedupWindowSecs) * time.Second).String()
	}
	return ChannelView{ID: ch.ID, Name: ch.Name, ChannelType: ch.ChannelType, Config: cfg, Events: nonNil(ch.Events.V),
		Enabled: ch.Enabled, Severities: nonNil(ch.Severities.V), Sources: nonNil(ch.Sources.V), Hours: ch.Hours,
		Timezone: ch.Timezone, Days: nonNil(ch.Days.V), DedupWindow: dedup, CreatedAt: ch.CreatedAt, UpdatedAt: ch.UpdatedAt}
}

// CreateChannel validates and stores a new channel.
func (s *Service) CreateChannel(ctx context.Context, in ChannelInput, by string) (*store.NotificationChannel, error) {
	ch := &store.NotificationChannel{ID: uuid.NewString(), Enabled: true, CreatedBy: by,
		Config: store.NewJSON(map[string]any{}), Events: store.NewJSON([]string{})}
	bad := ValidationError{}
	if in.Name == nil {
		bad["name"] = "is required"
	}
	if in.ChannelType == nil {
		bad["channel_type"] = "is required"
	}
	if err := s.apply(ctx, ch, in, bad); err != nil {
		return nil, err
	}
	if err := s.Store.CreateChannel(ctx, ch); err != nil {
		return nil, err
	}
	return ch, nil
}

// UpdateChannel validates and stores changes to a channel.
func (s *Service) UpdateChannel(ctx context.Context, id string, in ChannelInput) (*store.NotificationChannel, error) {
	ch, err := s.Store.GetChannel(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.apply(ctx, ch, in, ValidationError{}); err != nil {
		return nil, err
	}
	if err := s.Store.SaveChannel(ctx, ch); err != nil {
		return nil, err
	}
	return ch, nil
}

// apply merges in into ch and checks the result as a whole.
func (s *Service) apply(ctx context.Context, ch *store.NotificationChannel, in ChannelInput, bad ValidationError) error {
	if in.Name != nil {
		ch.Name = strings.TrimSpace(*in.Name)
		if ch.Name == "" || len(ch.Name) > 100 {
			bad["name"] = "must be 1 to 100 characters"
		}
	}
	if in.ChannelType != nil {
		ch.ChannelType = *in.ChannelType
		if !slices.Contains(ChannelTypes, ch.ChannelType) {
			bad["channel_type"] = "must be one of " + strings.Join(ChannelTypes, ", ")
		}
	}
	if in.Enabled != nil {
		ch.Enabled = *in.Enabled
	}
	listField(bad, "events", in.Events, &ch.Events, func(v string) bool { return store.ValidEventType(v) })
	listField(bad, "severities", in.Severities, &ch.Severities, func(v string) bool { return slices.Contains(store.Severities, v) })
	listField(bad, "sources", in.Sources, &ch.Sources, func(v string) bool { return v != "" })
	listField(bad, "days", in.Days, &ch.Days, ValidDay)
	if in.Hours != nil {
		ch.Hours = strings.TrimSpace(*in.Hours)
		if _, _, err := ParseHours(ch.Hours); ch.Hours != "" && err != nil {
			bad["hours"] = err.Error()
		}
	}
	if in.Timezone != nil {
		ch.Timezone = *in.Timezone
		if _, err := time.LoadLocation(ch.Timezone); err != nil {
			bad["timezone"] = "must be an IANA time zone such as Europe/Berlin"
		}
	}
	if in.DedupWindow != nil {
		d, err := time.ParseDuration(*in.DedupWindow)
		switch {
		case *in.DedupWindow == "":
			ch.DedupWindowSecs = 0
		case err != nil || d < 0 || d > 7*24*time.Hour:
			bad["dedup_window"] = "must be a duration such as 5m, at most 168h"
		default:
			ch.DedupWindowSecs = int64(d / time.Second)
		}
	}
	if err := s.applyConfig(ch, in.Config, bad); err != nil {
		return err
	}
	if len(bad) == 0 {
		s.checkConfig(ctx, ch, bad)
	}
	if len(bad) > 0 {
		return bad
	}
	return nil
}

func listField(bad ValidationError, name string, in *[]string, dst *store.JSON[[]string], valid func(string) bool) {
	if in == nil {
		return
	}
	out := []string{}
	for _, v := range *in {
		v = strings.TrimSpace(v)
		if !valid(v) {
			bad[name] = fmt.Sprintf("%q is not allowed", v)
			return
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	*dst = store.NewJSON(out)
}

// applyConfig splits config into plain values and sealed secrets.
func (s *Service) applyConfig(ch *store.NotificationChannel, cfg map[string]any, bad ValidationError) error {
	if cfg == nil {
		return nil
	}
	secretVals, err := s.OpenSecrets(ch)
	if err != nil {
		return err
	}
	plainVals := map[string]any{}
	for k, v := range cfg {
		if !slices.Contains(SecretKeys, k) {
			plainVals[k] = v
			continue
		}
		str, isStr := v.(string)
		switch {
		case v == nil || isStr && str == "":
			delete(secretVals, k)
		case !isStr:
			bad["config."+k] = "must be a string"
		case str != Mask:
			secretVals[k] = str
		}
	}
	// A round trip through JSON gives every value the type it has when
	// read back from the store (numbers as float64).
	if b, err := json.Marshal(plainVals); err == nil {
		plainVals = map[string]any{}
		_ = json.Unmarshal(b, &plainVals)
	}
	sealed, err := s.SealSecrets(ch.ID, secretVals)
	if err != nil {
		bad["config"] = err.Error()
		return nil
	}
	ch.Config, ch.SecretsEncrypted = store.NewJSON(plainVals), sealed
	return nil
}

// required lists the config keys each channel type cannot work without.
var required = map[string][]string{
	TypeChatA: {"webhook_url"}, TypeChatB: {"webhook_url"}, TypeOncall: {"routing_key|integration_key"},
	TypeEmail: {"smtp_host", "from", "to"}, TypeWebhook: {"url"},
}

// checkConfig checks the merged configuration of a channel.
func (s *Service) checkConfig(ctx context.Context, ch *store.NotificationChannel, bad ValidationError) {
	full, err := s.Channel(ctx, ch.ID)
	if err != nil {
		full = &Channel{NotificationChannel: ch, Secrets: map[string]string{}}
	}
	full.NotificationChannel = ch
	if sec, err := s.OpenSecrets(ch); err == nil {
		full.Secrets = sec
	}
	for _, keys := range required[ch.ChannelType] {
		found := false
		for _, k := range strings.Split(keys, "|") {
			found = found || full.Str(k) != "" || len(full.List(k)) > 0
		}
		if !found {
			bad["config."+strings.Split(keys, "|")[0]] = "is required for " + ch.ChannelType
		}
	}
	if u := targetURL(full); u != "" {
		if err := s.policy(ctx).CheckURL(u); err != nil {
			bad["config.url"] = err.Error()
		}
	}
	if m := ch.Config.V["method"]; m != nil {
		if str, _ := m.(string); !slices.Contains([]string{"POST", "PUT", "PATCH"}, strings.ToUpper(str)) {
			bad["config.method"] = "must be POST, PUT or PATCH"
		}
	}
	if g, ok := ch.Config.V["give_up"].(string); ok {
		if d, err := time.ParseDuration(g); err != nil || d <= 0 {
			bad["config.give_up"] = "must be a positive duration such as 1h"
		}
	}
	if r, ok := ch.Config.V["rate_per_minute"]; ok {
		if f, isNum := r.(float64); !isNum || f <= 0 {
			bad["config.rate_per_minute"] = "must be a positive number"
		}
	}
	sort.Strings(ch.Events.V)
}
