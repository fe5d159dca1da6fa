package store_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

const (
	keyA = "rotation test key A 0123456789"
	keyB = "rotation test key B 0123456789"
	keyC = "rotation test key C 0123456789"
)

func box(t *testing.T, key string) *secrets.Box {
	t.Helper()
	b, err := secrets.NewBox(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func seal(t *testing.T, b *secrets.Box, plain, context string) string {
	t.Helper()
	s, err := b.Seal(plain, context)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func rotation(t *testing.T, oldKey, newKey string) store.Resealer {
	t.Helper()
	r, err := secrets.NewRotation(box(t, oldKey), box(t, newKey))
	if err != nil {
		t.Fatal(err)
	}
	return r.Reseal
}

// sealedState is every stored sealed value, by record.
type sealedState map[string]string

func readSealed(t *testing.T, st *store.Store) sealedState {
	t.Helper()
	ctx := context.Background()
	out := sealedState{}
	sources, err := st.ListWebhookSources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range sources {
		out["webhook:"+w.Source] = w.SecretEncrypted
	}
	if s, err := st.GetSetting(ctx, "llm"); err == nil {
		v, _ := s.Value.V["api_key_encrypted"].(string)
		out["llm"] = v
	} else if !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	if ch, err := st.GetChannel(ctx, resealChannelID); err == nil {
		out["channel"] = ch.SecretsEncrypted
	}
	if c, err := st.GetConnectorConfig(ctx, resealConnectorID); err == nil {
		out["connector"] = c.SecretsEncrypted
	}
	return out
}

// resealChannelID is the notification channel whose secrets are seeded.
const resealChannelID = "00000000-0000-4000-8000-00000000c4a1"

// resealConnectorID is the configured connector whose secrets are seeded.
const resealConnectorID = "edr-prod"

// contextOf names the context each record of sealedState was sealed with.
func contextOf(record string) string {
	switch record {
	case "llm":
		return secrets.ContextLLMAPIKey
	case "channel":
		return store.NotificationSecretContext + resealChannelID
	case "connector":
		return store.ConnectorSecretContext + resealConnectorID
	}
	return secrets.ContextWebhookSecret
}

// seedSecrets stores two webhook secrets and the LLM key sealed under key,
// one webhook source without a secret, and returns the plaintexts by record.
func seedSecrets(t *testing.T, st *store.Store, key string) map[string]string {
	t.Helper()
	ctx := context.Background()
	b := box(t, key)
	plain := map[string]string{
		"webhook:crowdstrike": "crowdstrike-hmac-secret-0001",
		"webhook:splunk":      "splunk-hmac-secret-0002",
		"llm":                 "sk-llm-api-key-0003",
	}
	for _, src := range []string{"crowdstrike", "splunk"} {
		w := &store.WebhookSource{Source: src, SecretEncrypted: seal(t, b, plain["webhook:"+src], secrets.ContextWebhookSecret)}
		if err := st.PutWebhookSource(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.PutWebhookSource(ctx, &store.WebhookSource{Source: "unsigned"}); err != nil {
		t.Fatal(err)
	}
	ds := &store.DataSource{Name: "es", Kind: "search_index",
		CredentialsEncrypted: seal(t, b, `{"api_key":"k"}`, secrets.ContextDataSourceCredentials)}
	if err := st.PutDataSource(ctx, ds); err != nil {
		t.Fatal(err)
	}
	llm := map[string]any{"provider": "openai", "model": "gpt", "api_key_encrypted": seal(t, b, plain["llm"], secrets.ContextLLMAPIKey)}
	if _, err := st.PutSetting(ctx, "llm", llm, "admin"); err != nil {
		t.Fatal(err)
	}
	plain["channel"] = `{"webhook_url":"https://hooks.example.com/secret"}`
	ch := &store.NotificationChannel{ID: resealChannelID, Name: "reseal", ChannelType: "chat_a", Enabled: true,
		SecretsEncrypted: seal(t, b, plain["channel"], store.NotificationSecretContext+resealChannelID)}
	if err := st.CreateChannel(ctx, ch); err != nil {
		t.Fatal(err)
	}
	plain["connector"] = `{"client_secret":"edr-client-secret-0004"}`
	conn := &store.ConnectorConfig{ID: resealConnectorID, VendorType: "crowdstrike",
		SecretsEncrypted: seal(t, b, plain["connector"], store.ConnectorSecretContext+resealConnectorID)}
	if _, err := st.PutConnectorConfig(ctx, conn); err != nil {
		t.Fatal(err)
	}
	return plain
}

func TestResealSecretsMovesEverySecretToTheNewKey(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	plain := seedSecrets(t, st, keyA)
	before, err := st.GetSetting(ctx, "llm")
	if err != nil {
		t.Fatal(err)
	}

	counts, err := st.ResealSecrets(ctx, rotation(t, keyA, keyB), false)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.ResealCount{
		{Place: "webhook_sources.secret_encrypted", Resealed: 2},
		{Place: "data_sources.credentials_encrypted", Resealed: 1},
		{Place: "settings.llm.api_key_encrypted", Resealed: 1},
		{Place: "notification_channels.secrets_encrypted", Resealed: 1},
		{Place: "connector_configs.secrets_encrypted", Resealed: 1},
	}
	if !reflect.DeepEqual(counts, want) {
		t.Fatalf("counts %+v, want %+v", counts, want)
	}

	a, b := box(t, keyA), box(t, keyB)
	after := readSealed(t, st)
	for record, p := range plain {
		got, err := b.Open(after[record], contextOf(record))
		if err != nil || got != p {
			t.Errorf("%s under the new key: %q, %v; want %q", record, got, err, p)
		}
		if _, err := a.Open(after[record], contextOf(record)); !errors.Is(err, secrets.ErrDecrypt) {
			t.Errorf("%s still opens under the old key: %v", record, err)
		}
	}
	if after["webhook:unsigned"] != "" {
		t.Errorf("a source without a secret gained one: %q", after["webhook:unsigned"])
	}
	setting, err := st.GetSetting(ctx, "llm")
	if err != nil {
		t.Fatal(err)
	}
	if setting.Value.V["model"] != "gpt" || setting.Value.V["provider"] != "openai" ||
		!setting.UpdatedAt.Equal(before.UpdatedAt) || setting.UpdatedBy != "admin" {
		t.Errorf("re-sealing changed more than the key: %+v", setting)
	}
	events, _, err := st.ListAudit(ctx, store.AuditFilter{Action: "secrets.rotate", Page: 1, PerPage: 10})
	if err != nil || len(events) != 1 || events[0].Outcome != store.OutcomeSuccess {
		t.Fatalf("audit of the rotation: %+v %v", events, err)
	}

	// A second run with the same keys finds everything current and writes nothing.
	counts, err = st.ResealSecrets(ctx, rotation(t, keyA, keyB), false)
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
	want[0].Resealed, want[0].Current, want[1].Resealed, want[1].Current = 0, 2, 0, 1
	want[2].Resealed, want[2].Current = 0, 1
	want[3].Resealed, want[3].Current = 0, 1
	want[4].Resealed, want[4].Current = 0, 1
	if !reflect.DeepEqual(counts, want) {
		t.Fatalf("second run counts %+v, want %+v", counts, want)
	}
	if again := readSealed(t, st); !reflect.DeepEqual(again, after) {
		t.Fatalf("second run changed stored values:\n%v\n%v", after, again)
	}
}

func TestResealSecretsChangesNothingOnFailure(t *testing.T) {
	cases := []struct {
		name       string
		oldKey     string
		extra      string // a source sealed under keyC, added after the others
		wantRecord string
	}{
		{name: "wrong old key", oldKey: keyC, wantRecord: `source="crowdstrike"`},
		{name: "one secret under an unknown key", oldKey: keyA, extra: "zeek", wantRecord: `source="zeek"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := testenv.OpenStore(t)
			ctx := context.Background()
			seedSecrets(t, st, keyA)
			if tc.extra != "" {
				w := &store.WebhookSource{Source: tc.extra, SecretEncrypted: seal(t, box(t, keyC), "zeek-secret-0004", secrets.ContextWebhookSecret)}
				if err := st.PutWebhookSource(ctx, w); err != nil {
					t.Fatal(err)
				}
			}
			before := readSealed(t, st)

			_, err := st.ResealSecrets(ctx, rotation(t, tc.oldKey, keyB), false)
			var rerr *store.ResealError
			if !errors.As(err, &rerr) || !errors.Is(err, secrets.ErrDecrypt) || !strings.Contains(err.Error(), tc.wantRecord) {
				t.Fatalf("error %v; want a ResealError naming %s", err, tc.wantRecord)
			}
			if after := readSealed(t, st); !reflect.DeepEqual(after, before) {
				t.Fatalf("a failed rotation changed stored values:\n%v\n%v", before, after)
			}
			if events, _, _ := st.ListAudit(ctx, store.AuditFilter{Action: "secrets.rotate", Page: 1, PerPage: 10}); len(events) != 0 {
				t.Fatalf("a failed rotation was audited as done: %+v", events)
			}
		})
	}
}

func TestResealSecretsDryRunWritesNothing(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	seedSecrets(t, st, keyA)
	before := readSealed(t, st)
	counts, err := st.ResealSecrets(ctx, rotation(t, keyA, keyB), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != 5 || counts[0].Resealed != 2 || counts[1].Resealed != 1 || counts[2].Resealed != 1 ||
		counts[3].Resealed != 1 || counts[4].Resealed != 1 {
		t.Fatalf("dry run counts %+v", counts)
	}
	if after := readSealed(t, st); !reflect.DeepEqual(after, before) {
		t.Fatalf("a dry run changed stored values:\n%v\n%v", before, after)
	}
}
