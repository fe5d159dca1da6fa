package msgraphmail_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/msgraphmail"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

const (
	alice = "alice@contoso.com"
	bob   = "bob@contoso.com"
	imid  = "<CAOs7=phish'42@mail.example>"
)

func connect(t *testing.T, p *peer, client, secret string) *msgraphmail.Connector {
	t.Helper()
	return vendortest.Build[*msgraphmail.Connector](t, connectors.Config{ID: "m365", Type: msgraphmail.Type,
		Settings: map[string]string{"tenant_id": tenant, "client_id": client, "mailboxes": alice + ", " + bob,
			"graph_url": p.URL + "/v1.0", "authority_url": p.URL},
		Secrets: map[string]string{"client_secret": secret}})
}

func TestQuarantineMovesEveryCopyAndReleaseRestoresThem(t *testing.T) {
	p := newPeer(t, alice, bob)
	p.deliver(alice, imid)
	p.deliver(bob, imid)
	p.deliver(bob, "<other@mail.example>")
	c := connect(t, p, goodClient, goodSecret)
	ctx := context.Background()

	res, err := c.Quarantine(ctx, "act-1", imid, "phishing")
	if err != nil {
		t.Fatal(err)
	}
	if res.Output["copies"] != 2 || p.folderOf(alice, imid) != "Vigil Quarantine" || p.folderOf(bob, imid) != "Vigil Quarantine" ||
		p.folderOf(bob, "<other@mail.example>") != "Inbox" {
		t.Fatalf("result %+v; folders %q %q", res, p.folderOf(alice, imid), p.folderOf(bob, imid))
	}
	if st, err := c.MessageStatus(ctx, imid); err != nil || st != connectors.MessageQuarantined {
		t.Fatalf("status %q %v", st, err)
	}

	again, err := c.Quarantine(ctx, "act-1", imid, "phishing")
	if err != nil || !strings.Contains(again.Message, "already quarantined") {
		t.Fatalf("repeat: %+v %v", again, err)
	}
	if n := p.count("POST /messages/{id}/move"); n != 2 {
		t.Fatalf("%d moves after the repeat, want 2", n)
	}
	if n := p.count("POST /mailFolders"); n != 2 {
		t.Fatalf("quarantine folder created %d times, want once per mailbox", n)
	}

	if _, err := c.Release(ctx, "act-2", imid, "false positive"); err != nil {
		t.Fatal(err)
	}
	if p.folderOf(alice, imid) != "Inbox" || p.folderOf(bob, imid) != "Inbox" {
		t.Fatal("release did not restore the copies to the inbox")
	}
	if _, err := c.Release(ctx, "act-2", imid, "again"); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("releasing a message not in quarantine: %v", err)
	}
	if st, _ := c.MessageStatus(ctx, imid); st != connectors.MessageDelivered {
		t.Fatalf("status after release %q", st)
	}
}

func TestQuarantineFolderIsLookedUpOncePerMailbox(t *testing.T) {
	p := newPeer(t, alice, bob)
	for range 3 {
		p.deliver(alice, imid)
	}
	c := connect(t, p, goodClient, goodSecret)
	ctx := context.Background()

	lookups := func(op string, call func() error) {
		t.Helper()
		before := p.count("GET /mailFolders")
		if err := call(); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if n := p.count("GET /mailFolders") - before; n != 1 {
			t.Errorf("%s looked up the quarantine folder %d times for three copies in one mailbox, want 1", op, n)
		}
	}
	lookups("quarantine", func() error { _, err := c.Quarantine(ctx, "act-1", imid, "phishing"); return err })
	lookups("status", func() error { _, err := c.MessageStatus(ctx, imid); return err })
	lookups("release", func() error { _, err := c.Release(ctx, "act-2", imid, "false positive"); return err })
	if p.folderOf(alice, imid) != "Inbox" {
		t.Fatal("release did not restore the copies to the inbox")
	}
}

func TestUnknownMessageIsPermanent(t *testing.T) {
	p := newPeer(t, alice, bob)
	_, err := connect(t, p, goodClient, goodSecret).Quarantine(context.Background(), "k", "<nowhere@x>", "")
	if !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "none of the configured mailboxes") {
		t.Fatalf("err = %v", err)
	}
}

func TestBlockSenderAddsOneRulePerMailbox(t *testing.T) {
	p := newPeer(t, alice, bob)
	c := connect(t, p, goodClient, goodSecret)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, err := c.BlockSender(ctx, "act-3", "Evil@Phish.example", "phishing"); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.count("POST /mailFolders/inbox/messageRules"); n != 2 {
		t.Fatalf("%d rules created, want one per mailbox", n)
	}
	for _, rule := range p.boxes[alice].rules {
		cond := rule["conditions"].(map[string]any)["senderContains"].([]any)
		act := rule["actions"].(map[string]any)
		if cond[0] != "evil@phish.example" || act["delete"] != true || act["stopProcessingRules"] != true {
			t.Fatalf("rule = %v", rule)
		}
	}
	if ok, err := c.SenderBlocked(ctx, "evil@phish.example"); err != nil || !ok {
		t.Fatalf("blocked = %v %v", ok, err)
	}
	if _, err := c.BlockSender(ctx, "act-4", "phish.example", ""); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.SenderBlocked(ctx, "someone@phish.example"); !ok {
		t.Fatal("a domain block does not cover its addresses")
	}
	res, err := c.UnblockSender(ctx, "act-5", "evil@phish.example", "")
	if err != nil || res.Output["blocked"] != false {
		t.Fatalf("unblock: %+v %v", res, err)
	}
	if ok, _ := c.SenderBlocked(ctx, "evil@other.example"); ok {
		t.Fatal("still blocked")
	}
	if res, err := c.UnblockSender(ctx, "act-6", "evil@phish.example", ""); err != nil || !strings.Contains(res.Message, "was not blocked") {
		t.Fatalf("second unblock: %+v %v", res, err)
	}
}

func TestWrongSecretIsAuthAndNotRetried(t *testing.T) {
	p := newPeer(t, alice, bob)
	err := connect(t, p, goodClient, "wrong-secret").Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || strings.Contains(err.Error(), "wrong-secret") {
		t.Fatalf("err = %v", err)
	}
	if n := p.count("GET /mailFolders/inbox"); n != 0 {
		t.Fatalf("Graph called %d times without a token", n)
	}
}

func TestMissingMailPermissionIsPermission(t *testing.T) {
	p := newPeer(t, alice, bob)
	p.deliver(alice, imid)
	c := connect(t, p, readOnlyApp, goodSecret)
	if err := c.Test(context.Background()); err != nil {
		t.Fatalf("read access: %v", err)
	}
	_, err := c.Quarantine(context.Background(), "act-7", imid, "")
	if !errors.Is(err, vendorhttp.ErrPermission) || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "Access is denied") {
		t.Fatalf("err = %v", err)
	}
}

func TestThrottlingIsWaitedOut(t *testing.T) {
	p := newPeer(t, alice, bob)
	p.throttled = 1
	start := time.Now()
	if err := connect(t, p, goodClient, goodSecret).Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 900*time.Millisecond {
		t.Fatal("Retry-After was not honoured")
	}
}

func TestTestNamesAMissingMailbox(t *testing.T) {
	p := newPeer(t, alice)
	err := connect(t, p, goodClient, goodSecret).Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrNotFound) || !strings.Contains(err.Error(), bob) {
		t.Fatalf("err = %v", err)
	}
}
