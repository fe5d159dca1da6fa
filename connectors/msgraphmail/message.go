package msgraphmail

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// copyOf is one copy of a message in one mailbox.
type copyOf struct {
	mailbox string
	ID      string `json:"id"`
	Folder  string `json:"parentFolderId"`
}

// find returns every copy of the message with Internet message id
// messageID in the configured mailboxes.
func (c *Connector) find(ctx context.Context, messageID string) ([]copyOf, error) {
	var found []copyOf
	for _, m := range c.mailboxes {
		var page struct {
			Value []copyOf `json:"value"`
		}
		_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: userPath(m) + "/messages", Query: url.Values{
			"$filter": {"internetMessageId eq " + odataString(messageID)}, "$select": {"id,parentFolderId"}}, Out: &page})
		if err != nil {
			return nil, fmt.Errorf("search mailbox %s: %w", m, err)
		}
		for _, cp := range page.Value {
			cp.mailbox = m
			found = append(found, cp)
		}
	}
	return found, nil
}

// quarantineFolder returns the id of the mailbox's quarantine folder,
// creating it when create is set (else "" when missing).
func (c *Connector) quarantineFolder(ctx context.Context, mailbox string, create bool) (string, error) {
	var page struct {
		Value []struct {
			ID string `json:"id"`
		} `json:"value"`
	}
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: userPath(mailbox) + "/mailFolders", Query: url.Values{
		"$filter": {"displayName eq " + odataString(c.folder)}, "$select": {"id,displayName"}}, Out: &page})
	if err != nil {
		return "", fmt.Errorf("find quarantine folder in %s: %w", mailbox, err)
	}
	switch {
	case len(page.Value) > 0:
		return page.Value[0].ID, nil
	case !create:
		return "", nil
	}
	var made struct {
		ID string `json:"id"`
	}
	_, err = c.api.Do(ctx, vendorhttp.Request{Method: "POST", Path: userPath(mailbox) + "/mailFolders",
		Body: map[string]any{"displayName": c.folder, "isHidden": false}, Out: &made})
	if err != nil {
		return "", fmt.Errorf("create quarantine folder in %s: %w", mailbox, err)
	}
	return made.ID, nil
}

// quarantineFolders returns a lookup of quarantineFolder that asks Graph
// once per mailbox, however many copies of a message the mailbox holds.
func (c *Connector) quarantineFolders(create bool) func(ctx context.Context, mailbox string) (string, error) {
	ids := map[string]string{}
	return func(ctx context.Context, mailbox string) (string, error) {
		if id, ok := ids[mailbox]; ok {
			return id, nil
		}
		id, err := c.quarantineFolder(ctx, mailbox, create)
		if err == nil {
			ids[mailbox] = id
		}
		return id, err
	}
}

// move moves one copy to the folder destination (an id or a well-known name).
func (c *Connector) move(ctx context.Context, cp copyOf, destination string) error {
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "POST",
		Path: userPath(cp.mailbox) + "/messages/" + url.PathEscape(cp.ID) + "/move",
		Body: map[string]string{"destinationId": destination}})
	if err != nil {
		return fmt.Errorf("move message in %s: %w", cp.mailbox, err)
	}
	return nil
}

// Quarantine moves every copy of the message into the quarantine folder of
// its mailbox. Copies already there are left alone, so a repeated call
// succeeds without moving anything.
func (c *Connector) Quarantine(ctx context.Context, key, messageID, reason string) (connectors.Result, error) {
	copies, err := c.located(ctx, messageID)
	if err != nil {
		return connectors.Result{}, err
	}
	moved, folderOf := 0, c.quarantineFolders(true)
	for _, cp := range copies {
		folder, err := folderOf(ctx, cp.mailbox)
		if err != nil {
			return connectors.Result{}, err
		}
		if cp.Folder == folder {
			continue
		}
		if err := c.move(ctx, cp, folder); err != nil {
			return connectors.Result{}, err
		}
		moved++
	}
	msg := fmt.Sprintf("message %s quarantined (%d of %d copies moved)", messageID, moved, len(copies))
	if moved == 0 {
		msg = "message " + messageID + " already quarantined"
	}
	return connectors.MessageResult(msg, messageID, connectors.MessageQuarantined, "quarantined_at", len(copies)), nil
}

// Release moves quarantined copies back to each mailbox's inbox. A message
// with no copy in quarantine is refused: releasing would deliver mail
// nobody reviewed.
func (c *Connector) Release(ctx context.Context, key, messageID, reason string) (connectors.Result, error) {
	copies, err := c.located(ctx, messageID)
	if err != nil {
		return connectors.Result{}, err
	}
	released, folderOf := 0, c.quarantineFolders(false)
	for _, cp := range copies {
		folder, err := folderOf(ctx, cp.mailbox)
		if err != nil {
			return connectors.Result{}, err
		}
		if folder == "" || cp.Folder != folder {
			continue
		}
		if err := c.move(ctx, cp, "inbox"); err != nil {
			return connectors.Result{}, err
		}
		released++
	}
	if released == 0 {
		return connectors.Result{}, connectors.Permanentf("message %s is not quarantined", messageID)
	}
	return connectors.MessageResult(fmt.Sprintf("message %s released (%d copies)", messageID, released),
		messageID, connectors.MessageReleased, "released_at", released), nil
}

// MessageStatus is quarantined while any copy is in quarantine, else
// delivered (Graph keeps no record of an earlier release).
func (c *Connector) MessageStatus(ctx context.Context, messageID string) (string, error) {
	copies, err := c.find(ctx, messageID)
	if err != nil {
		return "", err
	}
	folderOf := c.quarantineFolders(false)
	for _, cp := range copies {
		folder, err := folderOf(ctx, cp.mailbox)
		if err != nil {
			return "", err
		}
		if folder != "" && cp.Folder == folder {
			return connectors.MessageQuarantined, nil
		}
	}
	return connectors.MessageDelivered, nil
}

// located finds the copies of a message, refusing an empty id or one no
// configured mailbox holds.
func (c *Connector) located(ctx context.Context, messageID string) ([]copyOf, error) {
	if strings.TrimSpace(messageID) == "" {
		return nil, connectors.Permanentf("msgraphmail: message_id is required")
	}
	copies, err := c.find(ctx, messageID)
	if err != nil {
		return nil, err
	}
	if len(copies) == 0 {
		return nil, connectors.Permanentf("message %s is in none of the configured mailboxes", messageID)
	}
	return copies, nil
}
