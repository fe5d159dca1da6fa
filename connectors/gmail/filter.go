package gmail

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

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

// filterRules is the user's block filters as connectors.MailboxRules.
type filterRules struct{ c *Connector }

// FindBlocks returns the ids of user's filters that block any of senders.
func (r filterRules) FindBlocks(ctx context.Context, user string, senders ...string) ([]string, error) {
	var page struct {
		Filter []filter `json:"filter"`
	}
	if _, err := r.c.as(user).Do(ctx, vendorhttp.Request{Method: "GET", Path: "/settings/filters", Out: &page}); err != nil {
		return nil, fmt.Errorf("list filters of %s: %w", user, err)
	}
	var ids []string
	for _, f := range page.Filter {
		for _, s := range senders {
			if f.blocks(s) {
				ids = append(ids, f.ID)
			}
		}
	}
	return ids, nil
}

// AddBlock creates a filter sending mail from sender to the trash.
func (r filterRules) AddBlock(ctx context.Context, user, sender string) error {
	var f filter
	f.Criteria.From = sender
	f.Action.AddLabelIDs, f.Action.RemoveLabelIDs = []string{"TRASH"}, []string{"INBOX"}
	if _, err := r.c.as(user).Do(ctx, vendorhttp.Request{Method: "POST", Path: "/settings/filters", Body: f}); err != nil {
		return fmt.Errorf("create filter for %s: %w", user, err)
	}
	return nil
}

func (r filterRules) RemoveBlock(ctx context.Context, user, id string) error {
	_, err := r.c.as(user).Do(ctx, vendorhttp.Request{Method: "DELETE", Path: "/settings/filters/" + url.PathEscape(id)})
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("delete filter of %s: %w", user, err)
	}
	return nil
}

func (c *Connector) blocker() connectors.MailboxBlocker {
	return connectors.MailboxBlocker{Vendor: "gmail", Rules: filterRules{c}, Mailboxes: c.mailboxes}
}

// BlockSender creates, for each user, a filter sending mail from sender
// (an address or a domain) to the trash. Users who already have such a
// filter keep it.
func (c *Connector) BlockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	return c.blocker().Block(ctx, sender)
}

// UnblockSender deletes the block filters for sender. A sender that is not
// blocked is not an error.
func (c *Connector) UnblockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	return c.blocker().Unblock(ctx, sender)
}

// SenderBlocked reports whether any user has a block filter for sender
// or, for an address, for its domain.
func (c *Connector) SenderBlocked(ctx context.Context, sender string) (bool, error) {
	return c.blocker().Blocked(ctx, sender)
}
