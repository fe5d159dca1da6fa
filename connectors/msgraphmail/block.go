package msgraphmail

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// rulePrefix starts the display name of every inbox rule this connector
// owns; the sender follows, so the rule is found again by name.
const rulePrefix = "Vigil block: "

type rule struct {
	ID   string `json:"id"`
	Name string `json:"displayName"`
}

func rulesPath(mailbox string) string { return userPath(mailbox) + "/mailFolders/inbox/messageRules" }

// inboxRules is the mailbox's block rules as connectors.MailboxRules.
type inboxRules struct{ c *Connector }

// FindBlocks returns the ids of the mailbox's inbox rules named for any of senders.
func (r inboxRules) FindBlocks(ctx context.Context, mailbox string, senders ...string) ([]string, error) {
	var page struct {
		Value []rule `json:"value"`
	}
	if _, err := r.c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: rulesPath(mailbox), Out: &page}); err != nil {
		return nil, fmt.Errorf("list inbox rules of %s: %w", mailbox, err)
	}
	var ids []string
	for _, rl := range page.Value {
		for _, s := range senders {
			if rl.Name == rulePrefix+s {
				ids = append(ids, rl.ID)
			}
		}
	}
	return ids, nil
}

// AddBlock adds an inbox rule that deletes mail whose sender contains
// sender and stops other rules.
func (r inboxRules) AddBlock(ctx context.Context, mailbox, sender string) error {
	body := map[string]any{
		"displayName": rulePrefix + sender, "sequence": 1, "isEnabled": true,
		"conditions": map[string]any{"senderContains": []string{sender}},
		"actions":    map[string]any{"delete": true, "stopProcessingRules": true},
	}
	if _, err := r.c.api.Do(ctx, vendorhttp.Request{Method: "POST", Path: rulesPath(mailbox), Body: body}); err != nil {
		return fmt.Errorf("add inbox rule to %s: %w", mailbox, err)
	}
	return nil
}

func (r inboxRules) RemoveBlock(ctx context.Context, mailbox, id string) error {
	_, err := r.c.api.Do(ctx, vendorhttp.Request{Method: "DELETE", Path: rulesPath(mailbox) + "/" + url.PathEscape(id)})
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("remove inbox rule from %s: %w", mailbox, err)
	}
	return nil
}

func (c *Connector) blocker() connectors.MailboxBlocker {
	return connectors.MailboxBlocker{Vendor: "msgraphmail", Rules: inboxRules{c}, Mailboxes: c.mailboxes}
}

// BlockSender adds, in each mailbox, an inbox rule that deletes mail whose
// sender contains sender (an address or a domain) and stops other rules.
// A mailbox that already has the rule keeps it.
func (c *Connector) BlockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	return c.blocker().Block(ctx, sender)
}

// UnblockSender removes the rules BlockSender added. A sender that is not
// blocked is not an error: the desired state already holds.
func (c *Connector) UnblockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	return c.blocker().Unblock(ctx, sender)
}

// SenderBlocked reports whether any configured mailbox has a block rule
// for sender or, for an address, for its domain.
func (c *Connector) SenderBlocked(ctx context.Context, sender string) (bool, error) {
	return c.blocker().Blocked(ctx, sender)
}

// isNotFound reports a 404, which for a deletion means it already happened.
func isNotFound(err error) bool { return errors.Is(err, vendorhttp.ErrNotFound) }
