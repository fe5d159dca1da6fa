package actions_test

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/actions"
)

func TestTypesSortedAndComplete(t *testing.T) {
	types := actions.Types()
	var names []string
	for _, typ := range types {
		names = append(names, typ.Name)
	}
	want := []string{
		actions.BlockSender, actions.CreateTicket, actions.DisableUser, actions.EnableUser, actions.HTTPRequest,
		actions.IsolateHost, actions.NotifyUser, actions.QuarantineEmail, actions.ReleaseEmail, actions.ResetMFA,
		actions.RevokeSessions, actions.ScanHost, actions.UnblockSender, actions.UnisolateHost,
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("types %v, want %v", names, want)
	}
	if !sort.StringsAreSorted(names) {
		t.Fatalf("types not sorted: %v", names)
	}
}

func TestTypesIsAFreshCopy(t *testing.T) {
	first := actions.Types()
	first[0].Name = "changed"
	first[0].Parameters[0].Name = "changed"
	for i := range first {
		for j := range first[i].Parameters {
			if first[i].Parameters[j].Enum != nil {
				first[i].Parameters[j].Enum[0] = "changed"
			}
		}
	}
	for _, typ := range actions.Types() {
		if typ.Name == "changed" {
			t.Fatal("changing a returned type changed the catalog")
		}
		for _, p := range typ.Parameters {
			if p.Name == "changed" || (len(p.Enum) > 0 && p.Enum[0] == "changed") {
				t.Fatalf("changing a returned parameter changed the catalog: %s", typ.Name)
			}
		}
	}
}

func TestLookup(t *testing.T) {
	cases := []struct {
		name      string
		found     bool
		category  string
		connector string
		rollback  string
		approval  string
	}{
		{actions.QuarantineEmail, true, "email", "email_gateway", actions.ReleaseEmail, ""},
		{actions.ReleaseEmail, true, "email", "email_gateway", "", "analyst"},
		{actions.BlockSender, true, "email", "email_gateway", actions.UnblockSender, ""},
		{actions.UnblockSender, true, "email", "email_gateway", "", "analyst"},
		{actions.IsolateHost, true, "endpoint", "edr", actions.UnisolateHost, "senior"},
		{actions.UnisolateHost, true, "endpoint", "edr", "", "senior"},
		{actions.ScanHost, true, "endpoint", "edr", "", ""},
		{actions.CreateTicket, true, "ticketing", "ticketing", "", ""},
		{actions.NotifyUser, true, "notification", "notifier", "", ""},
		{actions.DisableUser, true, "identity", "identity", actions.EnableUser, "senior"},
		{actions.EnableUser, true, "identity", "identity", "", "senior"},
		{actions.RevokeSessions, true, "identity", "identity", "", ""},
		{actions.ResetMFA, true, "identity", "identity", "", "analyst"},
		{actions.HTTPRequest, true, "integration", "http", "", "analyst"},
		{"parse_email", false, "", "", "", ""},
		{"", false, "", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			typ, ok := actions.Lookup(tc.name)
			if ok != tc.found {
				t.Fatalf("found %v, want %v", ok, tc.found)
			}
			if !ok {
				return
			}
			if typ.Name != tc.name || typ.Category != tc.category || typ.Connector != tc.connector ||
				typ.RollbackAction != tc.rollback || typ.DefaultApprovalLevel != tc.approval ||
				typ.SupportsRollback != (tc.rollback != "") || typ.Description == "" {
				t.Fatalf("unexpected type %+v", typ)
			}
			for _, p := range typ.Parameters {
				if p.Type == "" || p.Name == "" {
					t.Fatalf("parameter without name or type: %+v", p)
				}
			}
		})
	}
}

func TestRollbackParameters(t *testing.T) {
	cases := []struct {
		name     string
		action   string
		original map[string]any
		want     map[string]any
	}{
		{"quarantine with reason", actions.QuarantineEmail,
			map[string]any{"message_id": "m-1", "reason": "phishing"},
			map[string]any{"message_id": "m-1", "reason": "rollback of phishing"}},
		{"quarantine without reason", actions.QuarantineEmail,
			map[string]any{"message_id": "m-1"},
			map[string]any{"message_id": "m-1"}},
		{"blank reason omitted", actions.BlockSender,
			map[string]any{"sender": "bad.example", "reason": "  "},
			map[string]any{"sender": "bad.example"}},
		{"block sender", actions.BlockSender,
			map[string]any{"sender": "x@bad.example", "reason": "spam"},
			map[string]any{"sender": "x@bad.example", "reason": "rollback of spam"}},
		{"isolate host", actions.IsolateHost,
			map[string]any{"host_id": "h-9", "reason": "beaconing"},
			map[string]any{"host_id": "h-9", "reason": "rollback of beaconing"}},
		{"no rollback", actions.ScanHost, map[string]any{"host_id": "h-9"}, nil},
		{"release has no rollback", actions.ReleaseEmail, map[string]any{"message_id": "m"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			typ := mustLookup(t, tc.action)
			got := typ.RollbackParameters(tc.original)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("rollback parameters %v, want %v", got, tc.want)
			}
			if got == nil {
				return
			}
			// The reverse action must accept what the mapping produced.
			if _, errs := mustLookup(t, typ.RollbackAction).Validate(got); errs != nil {
				t.Fatalf("rollback parameters do not validate: %v", errs)
			}
		})
	}
}

func TestRollbackReasonStaysWithinLimit(t *testing.T) {
	typ := mustLookup(t, actions.IsolateHost)
	got := typ.RollbackParameters(map[string]any{"host_id": "h", "reason": strings.Repeat("r", actions.DefaultMaxLength)})
	if _, errs := mustLookup(t, actions.UnisolateHost).Validate(got); errs != nil {
		t.Fatalf("long rollback reason does not validate: %v", errs)
	}
	if !strings.HasPrefix(got["reason"].(string), "rollback of ") {
		t.Fatalf("reason %q lost its prefix", got["reason"])
	}
}

// TestEveryRollbackTargetExists guards the catalog against a rollback that
// names a type it does not have.
func TestEveryRollbackTargetExists(t *testing.T) {
	for _, typ := range actions.Types() {
		if typ.SupportsRollback != (typ.RollbackAction != "") {
			t.Errorf("%s: supports_rollback %v with rollback action %q", typ.Name, typ.SupportsRollback, typ.RollbackAction)
		}
		if typ.RollbackAction != "" {
			if _, ok := actions.Lookup(typ.RollbackAction); !ok {
				t.Errorf("%s: rollback action %s is not in the catalog", typ.Name, typ.RollbackAction)
			}
		}
	}
}
