package deploy

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

const composeFile = "../docker-compose.temporal.yml"

// loadCompose reads the compose file as `docker compose config` does:
// schema validation, interpolation from the env file, anchors and merges.
func loadCompose(t *testing.T, envFiles ...string) (*types.Project, error) {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{composeFile},
		cli.WithEnvFiles(envFiles...), cli.WithDotEnv, cli.WithName("vigil"))
	if err != nil {
		return nil, err
	}
	return opts.LoadProject(context.Background())
}

func TestComposeFileIsProductionShaped(t *testing.T) {
	p, err := loadCompose(t, "compose/vigil.env.example")
	if err != nil {
		t.Fatalf("compose file does not load: %v", err)
	}
	for _, name := range []string{"temporal-postgresql", "temporal-schema", "temporal", "temporal-namespace",
		"temporal-ui", "vigil-postgresql", "migrate", "api", "worker"} {
		if _, err := p.GetService(name); err != nil {
			t.Errorf("service %s: %v", name, err)
		}
	}
	for _, s := range p.Services {
		if strings.Contains(s.Image, "auto-setup") {
			t.Errorf("%s uses the deprecated auto-setup image", s.Name)
		}
		for _, port := range s.Ports {
			if port.HostIP != "127.0.0.1" {
				t.Errorf("%s publishes %s on %q, not 127.0.0.1", s.Name, port.Published, port.HostIP)
			}
		}
	}
	for _, name := range []string{"api", "worker"} {
		s, _ := p.GetService(name)
		if s.HealthCheck == nil || len(s.HealthCheck.Test) == 0 || !strings.Contains(strings.Join(s.HealthCheck.Test, " "), "/ready") {
			t.Errorf("%s has no readiness health check", name)
		}
		if s.DependsOn["migrate"].Condition != types.ServiceConditionCompletedSuccessfully {
			t.Errorf("%s starts before the migration completes", name)
		}
		if !strings.HasPrefix(*s.Environment["DATABASE_URL"], "postgres://") {
			t.Errorf("%s is not on PostgreSQL", name)
		}
	}
	ui, _ := p.GetService("temporal-ui")
	for _, v := range []string{"SIGNAL", "UPDATE", "RESET", "TERMINATE"} {
		if e := ui.Environment["TEMPORAL_WORKFLOW_"+v+"_DISABLED"]; e == nil || *e != "true" {
			t.Errorf("the UI may %s workflows", strings.ToLower(v))
		}
	}
	if e := ui.Environment["TEMPORAL_START_WORKFLOW_DISABLED"]; e == nil || *e != "true" {
		t.Error("the UI may start workflows")
	}
	if e := ui.Environment["TEMPORAL_CODEC_ENDPOINT"]; e == nil || !strings.HasSuffix(*e, "/codec") {
		t.Error("the UI has no codec endpoint")
	}
	ns, _ := p.GetService("temporal-namespace")
	retention, err := time.ParseDuration(*ns.Environment["RETENTION"])
	if err != nil || retention < 30*24*time.Hour {
		t.Errorf("retention %v (%v), want at least 30 days", retention, err)
	}
}

func TestComposeFileNeedsItsSecrets(t *testing.T) {
	t.Setenv("TEMPORAL_DB_PASSWORD", "")
	_, err := loadCompose(t)
	if err == nil || !strings.Contains(err.Error(), "PASSWORD") {
		t.Fatalf("loading without secrets: %v, want a refusal naming the variable", err)
	}
}
