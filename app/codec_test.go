package app_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/payloadcodec"
	"github.com/vigil-soc/vigil/workflows"
)

// payloadsIn collects the payloads of a history event, leaving out search
// attributes, which the server indexes and so are never encoded.
func payloadsIn(m protoreflect.Message, out *[]*commonpb.Payload) {
	if p, ok := m.Interface().(*commonpb.Payload); ok {
		*out = append(*out, p)
		return
	}
	if _, ok := m.Interface().(*commonpb.SearchAttributes); ok {
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				payloadsIn(v.List().Get(i).Message(), out)
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				payloadsIn(mv.Message(), out)
				return true
			})
		case fd.Message() != nil && !fd.IsList() && !fd.IsMap():
			payloadsIn(v.Message(), out)
		}
		return true
	})
}

func history(t *testing.T, c client.Client, workflowID string) []*historypb.HistoryEvent {
	t.Helper()
	var events []*historypb.HistoryEvent
	it := c.GetWorkflowHistory(context.Background(), workflowID, "", false, 0)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	return events
}

// TestPayloadsEncryptedInHistory triages an incident with VIGIL_PAYLOAD_KEYS
// set, reads the triage's history with a client that has no key, and
// finds every payload encrypted under the key id and the alert's e-mail
// address nowhere; the codec route then gives the plaintext back to the
// Temporal UI's origin with an analyst's session, as the UI sends it.
func TestPayloadsEncryptedInHistory(t *testing.T) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Stop()
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg.TemporalAddress = tmp.Server.FrontendHostPort()
	cfg.TemporalUIURL = "http://127.0.0.1:8233"
	cfg.PayloadKeys = "2026-11:" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	srv := startServe(t, cfg)

	const secret = "jane.doe.payroll@corp.example"
	inc := srv.post(t, "/api/incidents", `{"incident_type":"phishing","source":"email-gateway","severity":"high",
		"raw_data":{"sender":"security@micros0ft-support.com","subject":"verify your account",
		"recipients":["`+secret+`"],"urls":["https://micros0ft-support.com/login"]}}`)
	tri := srv.post(t, "/api/incidents/"+inc["id"].(string)+"/triage", `{}`)
	if tri["status"] != "completed" {
		t.Fatalf("triage: %v", tri)
	}
	var encrypted []*commonpb.Payload
	for _, id := range []string{workflows.TriageWorkflowID(inc["id"].(string), tri["triage_id"].(string))} {
		for _, ev := range history(t, tmp.Client, id) {
			raw, _ := proto.Marshal(ev)
			if bytes.Contains(raw, []byte(secret)) || bytes.Contains(raw, []byte("micros0ft")) {
				t.Fatalf("alert data in clear in %s event %d (%s)", id, ev.GetEventId(), ev.GetEventType())
			}
			var ps []*commonpb.Payload
			payloadsIn(ev.ProtoReflect(), &ps)
			for _, p := range ps {
				if enc := string(p.GetMetadata()["encoding"]); enc != payloadcodec.Encoding {
					t.Fatalf("payload with encoding %q in %s event %d (%s)", enc, id, ev.GetEventId(), ev.GetEventType())
				}
				if id := string(p.GetMetadata()[payloadcodec.MetadataKeyID]); id != "2026-11" {
					t.Fatalf("key id %q", id)
				}
				encrypted = append(encrypted, p)
			}
		}
	}
	if len(encrypted) < 3 {
		t.Fatalf("only %d payloads in the histories; the check proves nothing", len(encrypted))
	}

	body, _ := protojson.Marshal(&commonpb.Payloads{Payloads: encrypted})
	session := analystSession(t, srv)
	ui := map[string]string{"Authorization": "", "Cookie": session, "Origin": "http://127.0.0.1:8233",
		"X-Namespace": "default", "Content-Type": "application/json"}
	// The UI is given <vigil>/codec as its endpoint.
	status, hdr, data := srv.do(t, http.MethodPost, "/codec/decode", string(body), ui)
	if status != http.StatusOK {
		t.Fatalf("decode from the UI: %d %s", status, data)
	}
	if hdr.Get("Access-Control-Allow-Origin") != "http://127.0.0.1:8233" || hdr.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("CORS headers missing: %v", hdr)
	}
	var decoded commonpb.Payloads
	if err := protojson.Unmarshal(data, &decoded); err != nil {
		t.Fatal(err)
	}
	var plain strings.Builder
	for _, p := range decoded.GetPayloads() {
		if string(p.GetMetadata()["encoding"]) == payloadcodec.Encoding {
			t.Fatal("decode left a payload encrypted")
		}
		plain.Write(p.GetData())
	}
	// The triage run reads the alert inside its own step, so its history
	// carries the run's ids and verdict rather than the alert itself.
	if !strings.Contains(plain.String(), tri["triage_id"].(string)) || !strings.Contains(plain.String(), "malicious") {
		t.Fatalf("decoded payloads lack the run's triage id and verdict: %.300s", plain.String())
	}

	// The UI's preflight, other origins and anonymous callers.
	status, hdr, _ = srv.do(t, http.MethodOptions, "/codec/decode", "", map[string]string{"Authorization": "",
		"Origin": "http://127.0.0.1:8233", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "content-type,x-namespace"})
	if status != http.StatusNoContent || !strings.Contains(hdr.Get("Access-Control-Allow-Headers"), "X-Namespace") {
		t.Fatalf("preflight: %d %v", status, hdr)
	}
	evil := map[string]string{"Authorization": "", "Cookie": session, "Origin": "https://evil.example"}
	if status, hdr, _ = srv.do(t, http.MethodPost, "/codec/decode", string(body), evil); status != http.StatusForbidden || hdr.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("decode from another origin with the session: %d %v", status, hdr)
	}
	if status, _, _ = srv.do(t, http.MethodPost, "/codec/decode", string(body), map[string]string{"Authorization": ""}); status != http.StatusUnauthorized {
		t.Fatalf("anonymous decode: %d", status)
	}
	// An API key decodes too (the CLI's --codec-endpoint with --codec-auth),
	// and the routes answer under /api as well.
	if status, _, data = srv.do(t, http.MethodPost, "/api/codec/decode", string(body), nil); status != http.StatusOK {
		t.Fatalf("decode with a key: %d %s", status, data)
	}
	// Encode, then decode, gives the input back.
	in := `{"payloads":[{"metadata":{"encoding":"anNvbi9wbGFpbg=="},"data":"InNlY3JldCI="}]}`
	_, _, enc := srv.do(t, http.MethodPost, "/api/v1/codec/encode", in, nil)
	if strings.Contains(string(enc), "InNlY3JldCI=") {
		t.Fatalf("encode returned the plaintext: %s", enc)
	}
	_, _, dec := srv.do(t, http.MethodPost, "/codec/decode", string(enc), nil)
	var back struct {
		Payloads []struct{ Data string } `json:"payloads"`
	}
	if err := json.Unmarshal(dec, &back); err != nil || len(back.Payloads) != 1 || back.Payloads[0].Data != "InNlY3JldCI=" {
		t.Fatalf("encode then decode: %s", dec)
	}
}

// analystSession creates an analyst and signs in, returning the session
// cookie as a Cookie header value.
func analystSession(t *testing.T, srv *served) string {
	t.Helper()
	srv.post(t, "/api/users", `{"username":"codec-analyst","email":"codec-analyst@corp.example","role":"analyst","password":"a long analyst password 1"}`)
	req, _ := http.NewRequest(http.MethodPost, srv.base+"/login", strings.NewReader(`{"login":"codec-analyst","password":"a long analyst password 1"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == "vigil_session" {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatalf("login gave no session cookie: %d", res.StatusCode)
	return ""
}
