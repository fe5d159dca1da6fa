package gmail_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/gmail"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

const (
	alice = "alice@example.com"
	bob   = "bob@example.com"
	msgID = "<CAF=phish.42@mail.example>"
)

func connect(t *testing.T, p *peer, keyFile string) *gmail.Connector {
	t.Helper()
	return vendortest.Build[*gmail.Connector](t, connectors.Config{ID: "gws", Type: gmail.Type,
		Settings: map[string]string{"mailboxes": alice + "," + bob, "api_url": p.URL + "/gmail/v1"},
		Secrets:  map[string]string{"service_account_key": keyFile}})
}

func TestQuarantineTrashesEveryCopyAndReleaseRestores(t *testing.T) {
	p, key := newPeer(t, alice, bob)
	p.deliver(alice, msgID)
	p.deliver(bob, msgID)
	p.deliver(bob, "<other@mail.example>")
	c := connect(t, p, key)
	ctx := context.Background()

	res, err := c.Quarantine(ctx, "act-1", msgID, "phishing")
	if err != nil {
		t.Fatal(err)
	}
	if res.Output["copies"] != 2 || !slices.Contains(p.labels(alice, msgID), "TRASH") || !slices.Contains(p.labels(bob, msgID), "TRASH") ||
		slices.Contains(p.labels(bob, "<other@mail.example>"), "TRASH") {
		t.Fatalf("result %+v", res)
	}
	again, err := c.Quarantine(ctx, "act-1", msgID, "phishing")
	if err != nil || !strings.Contains(again.Message, "already quarantined") || p.count("POST messages/{id}/trash") != 2 {
		t.Fatalf("repeat: %+v %v, %d trash calls", again, err, p.count("POST messages/{id}/trash"))
	}
	if st, err := c.MessageStatus(ctx, msgID); err != nil || st != connectors.MessageQuarantined {
		t.Fatalf("status %q %v", st, err)
	}
	if _, err := c.Release(ctx, "act-2", msgID, "false positive"); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.labels(alice, msgID), "INBOX") || slices.Contains(p.labels(alice, msgID), "TRASH") {
		t.Fatalf("labels after release %v", p.labels(alice, msgID))
	}
	if _, err := c.Release(ctx, "act-2", msgID, ""); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("second release: %v", err)
	}
	if len(p.tokens) != 2 {
		t.Fatalf("tokens issued %d, want one per user", len(p.tokens))
	}
}

func TestBlockSenderCreatesATrashFilterPerUser(t *testing.T) {
	p, key := newPeer(t, alice, bob)
	c := connect(t, p, key)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, err := c.BlockSender(ctx, "act-3", "Evil@Phish.example", "phishing"); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.count("POST settings/filters"); n != 2 {
		t.Fatalf("%d filters created, want one per user", n)
	}
	for _, f := range p.users[alice].filters {
		if f["criteria"].(map[string]any)["from"] != "evil@phish.example" ||
			f["action"].(map[string]any)["addLabelIds"].([]any)[0] != "TRASH" {
			t.Fatalf("filter %v", f)
		}
	}
	if _, err := c.BlockSender(ctx, "act-4", "phish.example", ""); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.SenderBlocked(ctx, "anyone@phish.example"); err != nil || !ok {
		t.Fatalf("domain block: %v %v", ok, err)
	}
	if _, err := c.UnblockSender(ctx, "act-5", "phish.example", ""); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.SenderBlocked(ctx, "anyone@phish.example"); ok {
		t.Fatal("still blocked after unblock")
	}
	if res, err := c.UnblockSender(ctx, "act-6", "phish.example", ""); err != nil || !strings.Contains(res.Message, "was not blocked") {
		t.Fatalf("repeat unblock %+v %v", res, err)
	}
}

func TestWrongKeyIsAuthAndNotRetried(t *testing.T) {
	p, _ := newPeer(t, alice, bob)
	_, otherKey := newKey(t, p.URL+"/token")
	err := connect(t, p, otherKey).Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "Invalid JWT Signature") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "PRIVATE KEY") {
		t.Fatal("error leaks the key")
	}
	if p.tokenRequests != 1 {
		t.Fatalf("%d token requests, want 1", p.tokenRequests)
	}
}

func TestDelegationWithoutScopeIsPermission(t *testing.T) {
	p, key := newPeer(t, alice, bob)
	p.granted = p.granted[:1] // gmail.settings.basic not granted
	err := connect(t, p, key).Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrPermission) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestRateLimitIsWaitedOut(t *testing.T) {
	p, key := newPeer(t, alice, bob)
	p.throttled = 1
	start := time.Now()
	if err := connect(t, p, key).Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 900*time.Millisecond {
		t.Fatal("Retry-After was not honoured")
	}
}

func TestBadKeyFileAndMessageIDAreRefused(t *testing.T) {
	if _, err := gmail.New(connectors.Config{Settings: map[string]string{"mailboxes": alice},
		Secrets: map[string]string{"service_account_key": `{"type":"authorized_user"}`}}); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("bad key file: %v", err)
	}
	p, key := newPeer(t, alice, bob)
	if _, err := connect(t, p, key).Quarantine(context.Background(), "k", "<>", ""); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("empty Message-ID: %v", err)
	}
	if _, err := connect(t, p, key).Quarantine(context.Background(), "k", "<missing@x>", ""); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("unknown message: %v", err)
	}
}
