package connectors_test

import (
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
)

func TestUserResult(t *testing.T) {
	r := connectors.UserResult("user ann disabled", "ann@corp.example", "u-1", connectors.UserDisabled,
		map[string]any{"reset_factors": []string{"okta:push"}})
	if !r.Success || r.Message != "user ann disabled" {
		t.Fatalf("result = %+v", r)
	}
	for k, want := range map[string]any{"user": "ann@corp.example", "user_id": "u-1", "status": connectors.UserDisabled} {
		if r.Output[k] != want {
			t.Errorf("%s = %v, want %v", k, r.Output[k], want)
		}
	}
	if f, _ := r.Output["reset_factors"].([]string); len(f) != 1 || f[0] != "okta:push" {
		t.Errorf("extra field lost: %v", r.Output)
	}
	if _, err := time.Parse(time.RFC3339, r.Output["changed_at"].(string)); err != nil {
		t.Errorf("changed_at: %v", err)
	}
}
