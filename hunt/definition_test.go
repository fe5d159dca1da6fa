package hunt_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/store"
)

// A stored hunt's definition, as the API shows it and packages export it,
// says a disabled hunt is disabled and gives empty lists rather than null.
func TestDefinitionOfAStoredHunt(t *testing.T) {
	h := &store.Hunt{Name: "h", HuntType: "scheduled", Status: "active", Enabled: false, FailHuntOnError: true,
		Schedule: store.NewJSON(store.HuntSchedule{CronExpression: "0 6 * * 1"})}
	raw, err := json.Marshal(hunt.DefinitionOf(h))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"hunt_type":"scheduled"`, `"status":"active"`, `"enabled":false`,
		`"fail_hunt_on_error":true`, `"cron_expression":"0 6 * * 1"`,
		`"mitre_techniques":[]`, `"data_sources":[]`, `"tags":[]`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("definition lacks %s: %s", want, raw)
		}
	}
}
