package notify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// SlackMaxSkew is how old a Slack request timestamp may be.
const SlackMaxSkew = 5 * time.Minute

// SlackSignature is Slack's v0 request signature over "v0:<ts>:<body>".
func SlackSignature(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v0:" + timestamp + ":"))
	mac.Write(body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

// Errors of VerifySlack.
var (
	ErrSlackStale     = fmt.Errorf("the request timestamp is missing or more than %s old", SlackMaxSkew)
	ErrSlackSignature = fmt.Errorf("the request signature matches no chat_a channel's signing secret")
)

// VerifySlack finds the enabled chat_a channel whose signing secret signed
// the request, after checking the timestamp is fresh.
func (s *Service) VerifySlack(ctx context.Context, timestamp, signature string, body []byte, now time.Time) (*Channel, error) {
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || now.Sub(time.Unix(ts, 0)).Abs() > SlackMaxSkew {
		return nil, ErrSlackStale
	}
	rows, err := s.Store.ListChannels(ctx, true)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if rows[i].ChannelType != TypeChatA || rows[i].SecretsEncrypted == "" {
			continue
		}
		sec, err := s.OpenSecrets(&rows[i])
		if err != nil || sec["signing_secret"] == "" {
			continue
		}
		if hmac.Equal([]byte(SlackSignature(sec["signing_secret"], timestamp, body)), []byte(signature)) {
			return &Channel{NotificationChannel: &rows[i], Secrets: sec}, nil
		}
	}
	return nil, ErrSlackSignature
}

// SlackAction is the part of a block_actions payload Vigil acts on.
type SlackAction struct {
	UserID      string
	Decision    string // approve or reject
	ActionID    string
	ResponseURL string
}

// ParseSlackInteraction reads the form-encoded interaction payload.
func ParseSlackInteraction(body []byte) (SlackAction, error) {
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return SlackAction{}, fmt.Errorf("body is not form-encoded: %w", err)
	}
	var p struct {
		Type string `json:"type"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
		ResponseURL string `json:"response_url"`
		Actions     []struct {
			ActionID string `json:"action_id"`
			Value    string `json:"value"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(form.Get("payload")), &p); err != nil {
		return SlackAction{}, fmt.Errorf("payload is not JSON: %w", err)
	}
	if p.Type != "block_actions" || len(p.Actions) != 1 || p.User.ID == "" ||
		(p.Actions[0].ActionID != "approve" && p.Actions[0].ActionID != "reject") || p.Actions[0].Value == "" {
		return SlackAction{}, fmt.Errorf("not an approve or reject button press")
	}
	return SlackAction{UserID: p.User.ID, Decision: p.Actions[0].ActionID, ActionID: p.Actions[0].Value,
		ResponseURL: p.ResponseURL}, nil
}

// SlackUserEmail looks the Slack user's address up with users.info and the
// channel's bot token (scope users:read.email); config api_url overrides
// https://slack.com/api.
func (s *Service) SlackUserEmail(ctx context.Context, ch *Channel, userID string) (string, error) {
	base := ch.Str("api_url")
	if base == "" {
		base = "https://slack.com/api"
	}
	u := base + "/users.info?user=" + url.QueryEscape(userID)
	o := s.policy(ctx)
	if err := o.CheckURL(u); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+ch.Str("bot_token"))
	resp, err := o.Client(10 * time.Second).Do(req)
	if err != nil {
		return "", fmt.Errorf("users.info: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
		User  struct {
			Profile struct {
				Email string `json:"email"`
			} `json:"profile"`
		} `json:"user"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", fmt.Errorf("users.info answered %d: %w", resp.StatusCode, err)
	}
	if !out.OK || out.User.Profile.Email == "" {
		return "", fmt.Errorf("users.info: %s", out.Error)
	}
	return out.User.Profile.Email, nil
}

// UpdateSlackMessage replaces the interactive message with the outcome.
func (s *Service) UpdateSlackMessage(ctx context.Context, responseURL, text string) error {
	o := s.policy(ctx)
	if err := o.CheckURL(responseURL); err != nil {
		return err
	}
	res := postJSON(ctx, o.Client(10*time.Second), http.MethodPost, responseURL,
		mustJSON(map[string]any{"replace_original": true, "text": text}), nil)
	return res.Err
}
