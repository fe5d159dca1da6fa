package connectors

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// MailboxRules is a mail service whose sender blocks are per-mailbox rules
// (Gmail filters, Exchange inbox rules) rather than one tenant-wide list.
type MailboxRules interface {
	// FindBlocks returns the ids of the mailbox's block rules for any of senders.
	FindBlocks(ctx context.Context, mailbox string, senders ...string) ([]string, error)
	// AddBlock adds a rule to the mailbox that blocks sender.
	AddBlock(ctx context.Context, mailbox, sender string) error
	// RemoveBlock deletes the rule with the given id; one already gone is not an error.
	RemoveBlock(ctx context.Context, mailbox, id string) error
}

// MailboxBlocker blocks a sender in every configured mailbox through
// per-mailbox rules: blocking adds the rule where it is missing, unblocking
// removes every such rule, and both are idempotent, since a repeated call
// finds the desired state already in place.
type MailboxBlocker struct {
	// Vendor names the connector type in error messages.
	Vendor    string
	Rules     MailboxRules
	Mailboxes []string
}

// NormalizeSender lowercases and trims sender (an address or a domain) and
// refuses a value that could not name one.
func (b MailboxBlocker) NormalizeSender(sender string) (string, error) {
	s := strings.ToLower(strings.TrimSpace(sender))
	if s == "" || strings.ContainsAny(s, " ,;<>\"(){}") {
		return "", Permanentf("%s: %q is not a sender address or domain", b.Vendor, s)
	}
	return s, nil
}

// Block adds a block rule for sender to each mailbox that lacks one.
func (b MailboxBlocker) Block(ctx context.Context, sender string) (Result, error) {
	s, err := b.NormalizeSender(sender)
	if err != nil {
		return Result{}, err
	}
	added := 0
	for _, m := range b.Mailboxes {
		existing, err := b.Rules.FindBlocks(ctx, m, s)
		if err != nil {
			return Result{}, err
		}
		if len(existing) > 0 {
			continue
		}
		if err := b.Rules.AddBlock(ctx, m, s); err != nil {
			return Result{}, err
		}
		added++
	}
	msg := fmt.Sprintf("sender %s blocked in %d mailboxes", s, added)
	if added == 0 {
		msg = "sender " + s + " already blocked"
	}
	return Result{Success: true, Message: msg, Output: map[string]any{
		"sender": s, "blocked": true, "mailboxes": len(b.Mailboxes), "blocked_at": time.Now().UTC().Format(time.RFC3339),
	}}, nil
}

// Unblock removes every block rule for sender; a sender that is not
// blocked is not an error, since the desired state already holds.
func (b MailboxBlocker) Unblock(ctx context.Context, sender string) (Result, error) {
	s, err := b.NormalizeSender(sender)
	if err != nil {
		return Result{}, err
	}
	removed := 0
	for _, m := range b.Mailboxes {
		existing, err := b.Rules.FindBlocks(ctx, m, s)
		if err != nil {
			return Result{}, err
		}
		for _, id := range existing {
			if err := b.Rules.RemoveBlock(ctx, m, id); err != nil {
				return Result{}, err
			}
			removed++
		}
	}
	msg := "sender " + s + " unblocked"
	if removed == 0 {
		msg = "sender " + s + " was not blocked"
	}
	return Result{Success: true, Message: msg, Output: map[string]any{
		"sender": s, "blocked": false, "unblocked_at": time.Now().UTC().Format(time.RFC3339),
	}}, nil
}

// Blocked reports whether any mailbox has a block rule for sender or, for
// an address, for its domain.
func (b MailboxBlocker) Blocked(ctx context.Context, sender string) (bool, error) {
	s, err := b.NormalizeSender(sender)
	if err != nil {
		return false, err
	}
	candidates := []string{s}
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		candidates = append(candidates, s[at+1:])
	}
	for _, m := range b.Mailboxes {
		found, err := b.Rules.FindBlocks(ctx, m, candidates...)
		if err != nil {
			return false, err
		}
		if len(found) > 0 {
			return true, nil
		}
	}
	return false, nil
}
