package settings_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/settings"
)

func TestPutValidation(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), newBox(t, "a test passphrase of some length"))
	ctx := context.Background()
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }

	tests := []struct {
		name  string
		key   string
		body  string
		field string
	}{
		{"instance name empty", settings.KeyGeneral, `{"instance_name":""}`, "instance_name"},
		{"instance name blank", settings.KeyGeneral, `{"instance_name":"   "}`, "instance_name"},
		{"instance name too long", settings.KeyGeneral, `{"instance_name":` + long(101) + `}`, "instance_name"},
		{"approval expiry zero", settings.KeyGeneral, `{"approval_expiry_hours":0}`, "approval_expiry_hours"},
		{"approval expiry too long", settings.KeyGeneral, `{"approval_expiry_hours":2161}`, "approval_expiry_hours"},
		{"idle too short", settings.KeyGeneral, `{"session_idle_minutes":4}`, "session_idle_minutes"},
		{"idle too long", settings.KeyGeneral, `{"session_idle_minutes":1441}`, "session_idle_minutes"},
		{"absolute zero", settings.KeyGeneral, `{"session_absolute_hours":0}`, "session_absolute_hours"},
		{"absolute too long", settings.KeyGeneral, `{"session_absolute_hours":721}`, "session_absolute_hours"},
		{"dedup negative", settings.KeyGeneral, `{"dedup_window_minutes":-1}`, "dedup_window_minutes"},
		{"dedup too long", settings.KeyGeneral, `{"dedup_window_minutes":1441}`, "dedup_window_minutes"},
		{"read zero", settings.KeyRateLimits, `{"read_per_minute":0}`, "read_per_minute"},
		{"write too high", settings.KeyRateLimits, `{"write_per_minute":100001}`, "write_per_minute"},
		{"triage negative", settings.KeyRateLimits, `{"triage_per_minute":-5}`, "triage_per_minute"},
		{"provider empty", settings.KeyLLM, `{"provider":""}`, "provider"},
		{"provider too long", settings.KeyLLM, `{"provider":` + long(65) + `}`, "provider"},
		{"base url not http", settings.KeyLLM, `{"base_url":"ftp://models.example.com"}`, "base_url"},
		{"base url relative", settings.KeyLLM, `{"base_url":"/v1"}`, "base_url"},
		{"base url no host", settings.KeyLLM, `{"base_url":"https://"}`, "base_url"},
		{"base url garbage", settings.KeyLLM, `{"base_url":"not a url"}`, "base_url"},
		{"model too long", settings.KeyLLM, `{"model":` + long(201) + `}`, "model"},
		{"timeout zero", settings.KeyLLM, `{"timeout_seconds":0}`, "timeout_seconds"},
		{"timeout too long", settings.KeyLLM, `{"timeout_seconds":301}`, "timeout_seconds"},
		{"enabled without base url", settings.KeyLLM, `{"enabled":true,"model":"m"}`, "base_url"},
		{"enabled without model", settings.KeyLLM, `{"enabled":true,"base_url":"https://api.example.com/v1"}`, "model"},
		{"unknown field", settings.KeyGeneral, `{"colour":"red"}`, "colour"},
		{"field of another setting", settings.KeyRateLimits, `{"instance_name":"x"}`, "instance_name"},
		{"sealed key from client", settings.KeyLLM, `{"api_key_encrypted":"v1:AAAA"}`, "api_key_encrypted"},
		{"string for int", settings.KeyGeneral, `{"approval_expiry_hours":"72"}`, "approval_expiry_hours"},
		{"fraction for int", settings.KeyGeneral, `{"approval_expiry_hours":1.5}`, "approval_expiry_hours"},
		{"huge int", settings.KeyRateLimits, `{"read_per_minute":1e40}`, "read_per_minute"},
		{"string for bool", settings.KeyGeneral, `{"allow_self_approval":"yes"}`, "allow_self_approval"},
		{"number for string", settings.KeyGeneral, `{"instance_name":5}`, "instance_name"},
		{"null value", settings.KeyGeneral, `{"session_idle_minutes":null}`, "session_idle_minutes"},
		{"number for api key", settings.KeyLLM, `{"api_key":123}`, "api_key"},
		{"null api key", settings.KeyLLM, `{"api_key":null}`, "api_key"},
		{"string for api_key_set", settings.KeyLLM, `{"api_key_set":"yes"}`, "api_key_set"},
		{"array body", settings.KeyGeneral, `[]`, "body"},
		{"null body", settings.KeyGeneral, `null`, "body"},
		{"string body", settings.KeyGeneral, `"general"`, "body"},
		{"malformed body", settings.KeyGeneral, `{"instance_name":`, "body"},
		{"trailing data", settings.KeyGeneral, `{} {}`, "body"},
		{"empty body", settings.KeyGeneral, ``, "body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Put(ctx, tt.key, []byte(tt.body), "alice")
			var verr *settings.ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("Put(%s) = %v; want a ValidationError", tt.body, err)
			}
			if verr.Fields[tt.field] == "" || len(verr.Fields) != 1 {
				t.Fatalf("Put(%s) fields = %v; want only %q", tt.body, verr.Fields, tt.field)
			}
			if !strings.Contains(err.Error(), tt.field+": ") {
				t.Fatalf("error %q does not name %q", err, tt.field)
			}
		})
	}

	views, err := svc.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		if v.UpdatedAt != nil {
			t.Errorf("a rejected write was stored: %+v", v)
		}
	}
}

func TestPutReportsEveryBadField(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), nil)
	body := `{"instance_name":"","approval_expiry_hours":0,"session_idle_minutes":"30",
		"allow_self_approval":1,"colour":"red","dedup_window_minutes":5}`
	_, err := svc.Put(context.Background(), settings.KeyGeneral, []byte(body), "alice")
	var verr *settings.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("Put = %v; want a ValidationError", err)
	}
	want := []string{"instance_name", "approval_expiry_hours", "session_idle_minutes", "allow_self_approval", "colour"}
	if len(verr.Fields) != len(want) {
		t.Fatalf("fields = %v; want exactly %v", verr.Fields, want)
	}
	for _, f := range want {
		if verr.Fields[f] == "" {
			t.Errorf("field %q not reported: %v", f, verr.Fields)
		}
	}
	if verr.Fields["session_idle_minutes"] != "must be an integer" {
		t.Errorf("a wrong type must be reported as such, not as a range error: %q", verr.Fields["session_idle_minutes"])
	}
}

func TestLLMValidWhenEnabled(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), nil)
	for _, u := range []string{"https://api.openai.com/v1", "http://10.0.0.5:8080", "HTTPS://Models.Example.com"} {
		mustPut(t, svc, settings.KeyLLM, `{"enabled":true,"base_url":"`+u+`","model":"gpt"}`)
	}
	// Disabled, an incomplete configuration can be saved and finished later.
	mustPut(t, svc, settings.KeyLLM, `{"enabled":false,"model":"gpt"}`)
}
