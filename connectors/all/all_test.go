package all_test

import (
	"testing"

	"github.com/vigil-soc/vigil/connectors"
	_ "github.com/vigil-soc/vigil/connectors/all"
)

// TestEveryVendorRegisters links every vendor package (a type registered
// twice would panic at init) and checks each declares what the
// configuration API and the dashboard's form need.
func TestEveryVendorRegisters(t *testing.T) {
	want := []string{"abuseipdb", "crowdstrike", "entra", "gmail", "jira", "mde", "msgraphmail", "okta",
		"sentinelone", "servicenow", "urlhaus", "virustotal"}
	got := map[string]connectors.Vendor{}
	for _, v := range connectors.Vendors() {
		got[v.Type] = v
	}
	for _, typ := range want {
		v, ok := got[typ]
		if !ok {
			t.Errorf("vendor type %q is not registered", typ)
			continue
		}
		if v.Title == "" || len(v.Kinds) == 0 || len(v.Fields) == 0 {
			t.Errorf("%s: title %q, kinds %v, %d fields", typ, v.Title, v.Kinds, len(v.Fields))
		}
		for _, f := range v.Fields {
			if f.Name == "" || f.Description == "" {
				t.Errorf("%s: field %+v lacks a name or description", typ, f)
			}
		}
	}
}
