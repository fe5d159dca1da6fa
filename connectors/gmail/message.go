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

// copyOf is one user's copy of a message.
type copyOf struct {
	user    string
	ID      string   `json:"id"`
	LabelID []string `json:"labelIds"`
}

func (cp copyOf) trashed() bool { return slices.Contains(cp.LabelID, "TRASH") }

// find returns every copy of the message whose Message-ID header is
// messageID, trashed ones included, with its labels.
func (c *Connector) find(ctx context.Context, messageID string) ([]copyOf, error) {
	id := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(messageID), "<"), ">")
	if id == "" || strings.ContainsAny(id, " \"") {
		return nil, connectors.Permanentf("gmail: %q is not a Message-ID", messageID)
	}
	var found []copyOf
	for _, user := range c.mailboxes {
		api := c.as(user)
		var page struct {
			Messages []copyOf `json:"messages"`
		}
		_, err := api.Do(ctx, vendorhttp.Request{Method: "GET", Path: "/messages",
			Query: url.Values{"q": {"rfc822msgid:" + id}, "includeSpamTrash": {"true"}}, Out: &page})
		if err != nil {
			return nil, fmt.Errorf("search mailbox %s: %w", user, err)
		}
		for _, m := range page.Messages {
			cp := copyOf{user: user}
			_, err := api.Do(ctx, vendorhttp.Request{Method: "GET", Path: "/messages/" + url.PathEscape(m.ID),
				Query: url.Values{"format": {"minimal"}}, Out: &cp})
			if err != nil {
				return nil, fmt.Errorf("read message in %s: %w", user, err)
			}
			found = append(found, cp)
		}
	}
	return found, nil
}

// located is find that refuses a message no configured mailbox holds.
func (c *Connector) located(ctx context.Context, messageID string) ([]copyOf, error) {
	copies, err := c.find(ctx, messageID)
	if err == nil && len(copies) == 0 {
		err = connectors.Permanentf("message %s is in none of the configured mailboxes", messageID)
	}
	return copies, err
}

// setTrashed trashes or untrashes the copies not yet in the wanted state
// and reports how many it changed.
func (c *Connector) setTrashed(ctx context.Context, copies []copyOf, trash bool) (int, error) {
	op := map[bool]string{true: "trash", false: "untrash"}[trash]
	changed := 0
	for _, cp := range copies {
		if cp.trashed() == trash {
			continue
		}
		_, err := c.as(cp.user).Do(ctx, vendorhttp.Request{Method: "POST", Path: "/messages/" + url.PathEscape(cp.ID) + "/" + op})
		if err != nil {
			return changed, fmt.Errorf("%s message in %s: %w", op, cp.user, err)
		}
		changed++
	}
	return changed, nil
}

// Quarantine moves every copy of the message to its user's trash (from
// which Gmail deletes it for good after 30 days). Copies already there
// are left alone, so a repeated call changes nothing.
func (c *Connector) Quarantine(ctx context.Context, key, messageID, reason string) (connectors.Result, error) {
	copies, err := c.located(ctx, messageID)
	if err != nil {
		return connectors.Result{}, err
	}
	moved, err := c.setTrashed(ctx, copies, true)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := fmt.Sprintf("message %s moved to the trash (%d of %d copies)", messageID, moved, len(copies))
	if moved == 0 {
		msg = "message " + messageID + " already quarantined"
	}
	return connectors.MessageResult(msg, messageID, connectors.MessageQuarantined, "quarantined_at", len(copies)), nil
}

// Release restores trashed copies. A message with no copy in the trash is
// refused: releasing would deliver mail nobody reviewed.
func (c *Connector) Release(ctx context.Context, key, messageID, reason string) (connectors.Result, error) {
	copies, err := c.located(ctx, messageID)
	if err != nil {
		return connectors.Result{}, err
	}
	restored, err := c.setTrashed(ctx, copies, false)
	if err != nil {
		return connectors.Result{}, err
	}
	if restored == 0 {
		return connectors.Result{}, connectors.Permanentf("message %s is not quarantined", messageID)
	}
	return connectors.MessageResult(fmt.Sprintf("message %s restored from the trash (%d copies)", messageID, restored),
		messageID, connectors.MessageReleased, "released_at", restored), nil
}

// MessageStatus is quarantined while any copy is in the trash, else
// delivered (Gmail keeps no record of an earlier release).
func (c *Connector) MessageStatus(ctx context.Context, messageID string) (string, error) {
	copies, err := c.find(ctx, messageID)
	if err != nil {
		return "", err
	}
	for _, cp := range copies {
		if cp.trashed() {
			return connectors.MessageQuarantined, nil
		}
	}
	return connectors.MessageDelivered, nil
}
