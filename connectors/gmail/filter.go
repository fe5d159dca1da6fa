package gmail

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// filter is a Gmail filter as users.settings.filters returns it.
type filter struct {
	ID       string `json:"id,omitempty"`
	Criteria struct {
		From string `json:"from,omitempty"`
	} `json:"criteria"`
	Action struct {
		AddLabelIDs    []string `json:"addLabelIds,omitempty"`
		RemoveLabelIDs []string `json:"removeLabelIds,omitempty"`
	} `json:"action"`
}

// blocks reports whether f is a block filter for sender: mail from it goes
// to the trash.
func (f filter) blocks(sender string) bool {
	return strings.EqualFold(f.Criteria.From, sender) && slices.Contains(f.Action.AddLabelIDs, "TRASH")
}

// blockFilters returns user's filters that block any of senders.
func (c *Connector) blockFilters(ctx context.Context, user string, senders ...string) ([]filter, error) {
	var page struct {
		Filter []filter `json:"filter"`
	}
	if _, err := c.as(user).Do(ctx, vendorhttp.Request{Method: "GET", Path: "/settings/filters", Out: &page}); err != nil {
		return nil, fmt.Errorf("list filters of %s: %w", user, err)
	}
	var out []filter
	for _, f := range page.Filter {
		for _, s := range senders {
			if f.blocks(s) {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

func normalizeSender(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || strings.ContainsAny(s, " ,;<>\"(){}") {
		return "", connectors.Permanentf("gmail: %q is not a sender address or domain", s)
	}
	return s, nil
}

// BlockSender creates, for each user, a filter sending mail from sender
// (an address or a domain) to the trash. Users who already have such a
// filter keep it.
func (c *Connector) BlockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	s, err := normalizeSender(sender)
	if err != nil {
		return connectors.Result{}, err
	}
	added := 0
	for _, user := range c.mailboxes {
		existing, err := c.blockFilters(ctx, user, s)
		if err != nil {
			return connectors.Result{}, err
		}
		if len(existing) > 0 {
			continue
		}
		var f filter
		f.Criteria.From = s
		f.Action.AddLabelIDs, f.Action.RemoveLabelIDs = []string{"TRASH"}, []string{"INBOX"}
		if _, err := c.as(user).Do(ctx, vendorhttp.Request{Method: "POST", Path: "/settings/filters", Body: f}); err != nil {
			return connectors.Result{}, fmt.Errorf("create filter for %s: %w", user, err)
		}
		added++
	}
	msg := fmt.Sprintf("sender %s blocked for %d users", s, added)
	if added == 0 {
		msg = "sender " + s + " already blocked"
	}
	return connectors.Result{Success: true, Message: msg, Output: map[string]any{
		"sender": s, "blocked": true, "mailboxes": len(c.mailboxes), "blocked_at": time.Now().UTC().Format(time.RFC3339),
	}}, nil
}

// UnblockSender deletes the block filters for sender. A sender that is not
// blocked is not an error.
func (c *Connector) UnblockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	s, err := normalizeSender(sender)
	if err != nil {
		return connectors.Result{}, err
	}
	removed := 0
	for _, user := range c.mailboxes {
		existing, err := c.blockFilters(ctx, user, s)
		if err != nil {
			return connectors.Result{}, err
		}
		for _, f := range existing {
			_, err := c.as(user).Do(ctx, vendorhttp.Request{Method: "DELETE", Path: "/settings/filters/" + url.PathEscape(f.ID)})
			if err != nil && !isNotFound(err) {
				return connectors.Result{}, fmt.Errorf("delete filter of %s: %w", user, err)
			}
			removed++
		}
	}
	msg := "sender " + s + " unblocked"
	if removed == 0 {
		msg = "sender " + s + " was not blocked"
	}
	return connectors.Result{Success: true, Message: msg, Output: map[string]any{
		"sender": s, "blocked": false, "unblocked_at": time.Now().UTC().Format(time.RFC3339),
	}}, nil
}

// SenderBlocked reports whether any user has a block filter for sender
// or, for an address, for its domain.
func (c *Connector) SenderBlocked(ctx context.Context, sender string) (bool, error) {
	s, err := normalizeSender(sender)
	if err != nil {
		return false, err
	}
	candidates := []string{s}
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		candidates = append(candidates, s[at+1:])
	}
	for _, user := range c.mailboxes {
		found, err := c.blockFilters(ctx, user, candidates...)
		if err != nil {
			return false, err
		}
		if len(found) > 0 {
			return true, nil
		}
	}
	return false, nil
}
