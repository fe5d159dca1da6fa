package playbook

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"

	"github.com/vigil-soc/vigil/actions"
)

// schemaDoc is the part of schema.json the tests read.
type schemaDoc struct {
	Schema   string   `json:"$schema"`
	Required []string `json:"required"`
	Defs     struct {
		ActionName struct {
			Enum []string `json:"enum"`
		} `json:"actionName"`
		ActionParameters struct {
			AllOf []struct {
				If struct {
					Properties struct {
						Action struct {
							Const string `json:"const"`
						} `json:"action"`
					} `json:"properties"`
				} `json:"if"`
				Then struct {
					Properties struct {
						Parameters struct {
							Required   []string                   `json:"required"`
							Properties map[string]json.RawMessage `json:"properties"`
						} `json:"parameters"`
					} `json:"properties"`
				} `json:"then"`
			} `json:"allOf"`
		} `json:"actionParameters"`
		Step struct {
			OneOf []json.RawMessage `json:"oneOf"`
		} `json:"step"`
	} `json:"$defs"`
}

func TestSchemaMatchesCatalog(t *testing.T) {
	raw := Schema()
	if !json.Valid(raw) {
		t.Fatal("schema.json is not valid JSON")
	}
	var doc schemaDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q", doc.Schema)
	}
	if !reflect.DeepEqual(doc.Required, []string{"name", "steps"}) {
		t.Errorf("required = %v", doc.Required)
	}
	if len(doc.Defs.Step.OneOf) != 4 {
		t.Errorf("step oneOf has %d kinds, want 4", len(doc.Defs.Step.OneOf))
	}
	var names []string
	params := map[string][]string{}
	required := map[string][]string{}
	for _, typ := range actions.Types() {
		names = append(names, typ.Name)
		for _, p := range typ.Parameters {
			params[typ.Name] = append(params[typ.Name], p.Name)
			if p.Required {
				required[typ.Name] = append(required[typ.Name], p.Name)
			}
		}
	}
	enum := append([]string(nil), doc.Defs.ActionName.Enum...)
	sort.Strings(enum)
	if !reflect.DeepEqual(enum, names) {
		t.Errorf("schema action names %v, catalog %v", enum, names)
	}
	seen := map[string]bool{}
	for _, entry := range doc.Defs.ActionParameters.AllOf {
		name := entry.If.Properties.Action.Const
		seen[name] = true
		ps := entry.Then.Properties.Parameters
		var got []string
		for p := range ps.Properties {
			got = append(got, p)
		}
		sort.Strings(got)
		want := append([]string(nil), params[name]...)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: schema parameters %v, catalog %v", name, got, want)
		}
		gotReq := append([]string(nil), ps.Required...)
		sort.Strings(gotReq)
		wantReq := append([]string(nil), required[name]...)
		sort.Strings(wantReq)
		if !reflect.DeepEqual(gotReq, wantReq) {
			t.Errorf("%s: schema requires %v, catalog %v", name, gotReq, wantReq)
		}
	}
	for _, name := range names {
		if !seen[name] {
			t.Errorf("schema has no parameters for action %s", name)
		}
	}
	// Schema hands out copies.
	raw[0] = 'x'
	if Schema()[0] != '{' {
		t.Error("Schema shares its bytes")
	}
}
