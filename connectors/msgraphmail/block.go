package msgraphmail

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

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

// rules returns the mailbox's inbox rules named for any of senders.
func (c *Connector) rules(ctx context.Context, mailbox string, senders ...string) ([]rule, error) {
	var page struct {
		Value []rule `json:"value"`
	}
	if _, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: rulesPath(mailbox), Out: &page}); err != nil {
		return nil, fmt.Errorf("list inbox rules of %s: %w", mailbox, err)
	}
	var out []rule
	for _, r := range page.Value {
		for _, s := range senders {
			if r.Name == rulePrefix+s {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

func normalizeSender(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || strings.ContainsAny(s, " ,;<>\"") {
		return "", connectors.Permanentf("msgraphmail: %q is not a sender address or domain", s)
	}
	return s, nil
}

// BlockSender adds, in each mailbox, an inbox rule that deletes mail whose
// sender contains sender (an address or a domain) and stops other rules.
// A mailbox that already has the rule keeps it.
func (c *Connector) BlockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	s, err := normalizeSender(sender)
	if err != nil {
		return connectors.Result{}, err
	}
	added := 0
	for _, m := range c.mailboxes {
		existing, err := c.rules(ctx, m, s)
		if err != nil {
			return connectors.Result{}, err
		}
		if len(existing) > 0 {
			continue
		}
		body := map[string]any{
			"displayName": rulePrefix + s, "sequence": 1, "isEnabled": true,
			"conditions": map[string]any{"senderContains": []string{s}},
			"actions":    map[string]any{"delete": true, "stopProcessingRules": true},
		}
		if _, err := c.api.Do(ctx, vendorhttp.Request{Method: "POST", Path: rulesPath(m), Body: body}); err != nil {
			return connectors.Result{}, fmt.Errorf("add inbox rule to %s: %w", m, err)
		}
		added++
	}
	msg := fmt.Sprintf("sender %s blocked in %d mailboxes", s, added)
	if added == 0 {
		msg = "sender " + s + " already blocked"
	}
	return connectors.Result{Success: true, Message: msg, Output: map[string]any{
		"sender": s, "blocked": true, "mailboxes": len(c.mailboxes), "blocked_at": time.Now().UTC().Format(time.RFC3339),
	}}, nil
}

// UnblockSender removes the rules BlockSender added. A sender that is not
// blocked is not an error: the desired state already holds.
func (c *Connector) UnblockSender(ctx context.Context, key, sender, reason string) (connectors.Result, error) {
	s, err := normalizeSender(sender)
	if err != nil {
		return connectors.Result{}, err
	}
	removed := 0
	for _, m := range c.mailboxes {
		existing, err := c.rules(ctx, m, s)
		if err != nil {
			return connectors.Result{}, err
		}
		for _, r := range existing {
			_, err := c.api.Do(ctx, vendorhttp.Request{Method: "DELETE", Path: rulesPath(m) + "/" + url.PathEscape(r.ID)})
			if err != nil && !isNotFound(err) {
				return connectors.Result{}, fmt.Errorf("remove inbox rule from %s: %w", m, err)
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

// SenderBlocked reports whether any configured mailbox has a block rule
// for sender or, for an address, for its domain.
func (c *Connector) SenderBlocked(ctx context.Context, sender string) (bool, error) {
	s, err := normalizeSender(sender)
	if err != nil {
		return false, err
	}
	candidates := []string{s}
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		candidates = append(candidates, s[at+1:])
	}
	for _, m := range c.mailboxes {
		found, err := c.rules(ctx, m, candidates...)
		if err != nil {
			return false, err
		}
		if len(found) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// isNotFound reports a 404, which for a deletion means it already happened.
func isNotFound(err error) bool { return errors.Is(err, vendorhttp.ErrNotFound) }
